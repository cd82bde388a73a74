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
    /// `nil` for a successful reply; a `RequestFailure.kind` (or `"*"` for any) for a failure.
    let failureKind: String?

    /// A reply (the default).
    public static let reply = ExpectedReply(failureKind: nil)
    /// A failure of any kind.
    public static let failure = ExpectedReply(failureKind: "*")
    /// A failure of the given `RequestFailure.kind` (`"noResponder"`, `"timedOut"`, …).
    public static func failure(_ kind: String) -> ExpectedReply { ExpectedReply(failureKind: kind) }
    /// No responder on the channel.
    public static let noResponder = failure("noResponder")
    /// The body did not decode.
    public static let invalidBody = failure("invalidBody")
    /// The responder replied with an error or threw.
    public static let responderFailed = failure("responderFailed")
    /// The responder released its reply handle without replying.
    public static let dropped = failure("dropped")
    /// The deadline passed.
    public static let timedOut = failure("timedOut")

    /// Whether `result` meets the expectation.
    public func matches(_ result: Result<ReplyValue, RequestFailure>) -> Bool {
        switch (result, failureKind) {
        case (.success, nil): return true
        case (.failure, "*"?): return true
        case (.failure(let failure), let kind?): return failure.kind == kind
        default: return false
        }
    }

    /// `a reply`, `a failure`, or `a <kind> failure`.
    public var description: String {
        switch failureKind {
        case nil: return "a reply"
        case "*"?: return "a failure"
        case let kind?: return "a \(kind) failure"
        }
    }
}
