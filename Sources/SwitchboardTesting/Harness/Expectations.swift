import Switchboard

/// The outcome a test expects from ``StrictHarness/send(_:body:id:sender:expecting:isolation:fileID:filePath:line:column:)``.
public struct ExpectedOutcome: Sendable, CustomStringConvertible {
    /// A few words naming the expectation, used in failure messages.
    public let description: String
    private let predicate: @Sendable (Outcome) -> Bool

    /// An expectation from a predicate.
    /// - Parameters:
    ///   - description: what is expected, for failure messages.
    ///   - predicate: whether an outcome meets it.
    public init(_ description: String, where predicate: @escaping @Sendable (Outcome) -> Bool) {
        self.description = description
        self.predicate = predicate
    }

    /// Whether `outcome` meets the expectation.
    public func matches(_ outcome: Outcome) -> Bool { predicate(outcome) }

    /// Handled by a handler, or delivered to a responder (the default).
    public static let delivered = ExpectedOutcome("delivered") { $0.isSuccess }
    /// Handled by at least one handler.
    public static let handled = ExpectedOutcome("handled") {
        if case .handled = $0 { return true }
        return false
    }
    /// Handled by exactly `count` handlers.
    public static func handled(by count: Int) -> ExpectedOutcome {
        ExpectedOutcome("handled by \(count)") {
            if case .handled(let n) = $0 { return n == count }
            return false
        }
    }
    /// Answered before `receive` returned.
    public static let replied = ExpectedOutcome("replied") {
        if case .replied = $0 { return true }
        return false
    }
    /// Delivered to a responder whose reply is still to come.
    public static let awaitingReply = ExpectedOutcome("awaiting a reply") {
        if case .awaitingReply = $0 { return true }
        return false
    }
    /// No handler; dropped.
    public static let unhandled = ExpectedOutcome("unhandled") {
        if case .unhandled = $0 { return true }
        return false
    }
    /// No handler yet; kept by the channel's buffer policy.
    public static let kept = ExpectedOutcome("kept") {
        if case .kept = $0 { return true }
        return false
    }
    /// The body did not decode.
    public static let invalid = ExpectedOutcome("invalid") {
        if case .invalid = $0 { return true }
        return false
    }
    /// The body did not decode, and the first problem is at `path` (`body.quantity`).
    public static func invalid(at path: String) -> ExpectedOutcome {
        ExpectedOutcome("invalid at \(path)") {
            if case .invalid(let error) = $0 { return error.path == path }
            return false
        }
    }
    /// A handler threw, or the responder failed.
    public static let failed = ExpectedOutcome("failed") {
        if case .failed = $0 { return true }
        return false
    }
    /// A middleware stopped the message.
    public static let stopped = ExpectedOutcome("stopped") {
        if case .stopped = $0 { return true }
        return false
    }
    /// The channel's origin policy refused the sender.
    public static let rejected = ExpectedOutcome("rejected") {
        if case .rejected = $0 { return true }
        return false
    }
    /// The channel name is not valid.
    public static let invalidChannel = ExpectedOutcome("an invalid channel") {
        if case .invalidChannel = $0 { return true }
        return false
    }
}

/// The reply a test expects from ``StrictHarness/request(_:body:sender:expecting:timeout:isolation:fileID:filePath:line:column:)``.
public struct ExpectedReply: Sendable, CustomStringConvertible {
    /// A few words naming the expectation, used in failure messages (`a reply`, `a timedOut failure`).
    public let description: String
    private let predicate: @Sendable (Result<ReplyValue, RequestFailure>) -> Bool

    private init(_ description: String, where predicate: @escaping @Sendable (RequestFailure) -> Bool) {
        self.description = description
        self.predicate = { result in
            guard case .failure(let failure) = result else { return false }
            return predicate(failure)
        }
    }

    private init(description: String, predicate: @escaping @Sendable (Result<ReplyValue, RequestFailure>) -> Bool) {
        self.description = description
        self.predicate = predicate
    }

    /// A reply (the default).
    public static let reply = ExpectedReply(description: "a reply") {
        if case .success = $0 { return true }
        return false
    }
    /// A failure of any kind.
    public static let failure = ExpectedReply("a failure") { _ in true }
    /// A failure of the given kind (`RequestFailure.kind`, the kind the page sees: `.noResponder`,
    /// `.timedOut`, `.invalid`, `.failed`, …).
    /// - Parameter kind: the kind of failure expected.
    /// - Returns: the expectation.
    public static func failure(_ kind: ErrorKind) -> ExpectedReply {
        ExpectedReply("a \(kind) failure") { $0.kind == kind }
    }
    /// No responder on the channel (`RequestFailure.noResponder`).
    public static let noResponder = ExpectedReply("a noResponder failure") {
        if case .noResponder = $0 { return true }
        return false
    }
    /// The body did not decode (`RequestFailure.invalidBody`).
    public static let invalidBody = ExpectedReply("an invalidBody failure") {
        if case .invalidBody = $0 { return true }
        return false
    }
    /// The responder replied with an error or threw (`RequestFailure.responderFailed`).
    public static let responderFailed = ExpectedReply("a responderFailed failure") {
        if case .responderFailed = $0 { return true }
        return false
    }
    /// The responder released its reply handle without replying (`RequestFailure.dropped`).
    public static let dropped = ExpectedReply("a dropped failure") {
        if case .dropped = $0 { return true }
        return false
    }
    /// The deadline passed (`RequestFailure.timedOut`).
    public static let timedOut = ExpectedReply("a timedOut failure") {
        if case .timedOut = $0 { return true }
        return false
    }

    /// Whether `result` meets the expectation.
    /// - Parameter result: what the request gave.
    /// - Returns: whether it is what the test expects.
    public func matches(_ result: Result<ReplyValue, RequestFailure>) -> Bool { predicate(result) }
}
