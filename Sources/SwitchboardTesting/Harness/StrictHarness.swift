import Foundation
import Switchboard

/// An exhaustive test harness around a `Router`, in the spirit of an
/// exhaustive test store: the test fails on anything it did not say it expects.
///
/// It fails the test when
/// - a message goes unhandled, is invalid, or fails (checked at each ``send(_:body:id:sender:expecting:isolation:fileID:filePath:line:column:)``),
/// - a reply is missing, late or a failure (checked at ``request(_:body:sender:expecting:timeout:isolation:fileID:filePath:line:column:)``
///   and, for replies still pending after a send, at ``finish(isolation:fileID:filePath:line:column:)``),
/// - kept (buffered) messages were never delivered, or expired (checked at `finish`),
/// - the router reported a problem the test did not consume with
///   ``expectDiagnostic(_:on:timeout:isolation:fileID:filePath:line:column:)``: messages that
///   reached the router another way (through a `RouterBridge`, say) and went
///   unhandled, duplicate or dropped replies, deadlines that passed (at `finish`).
///
/// ```swift
/// @Test func addsALine() async {
///     let router = Router()
///     let cart = Cart()
///     let token = router.on(AddCartLine.self) { cart.add($0) }
///     let harness = StrictHarness(router: router)
///     harness.send("addCartLine", body: ["merchandiseId": "m1", "productId": "p1", "quantity": 1, "attributes": [:]])
///     harness.send("removeCartLine", body: [:], expecting: .unhandled)
///     await harness.finish()
///     _ = token
/// }
/// ```
/// Failures go to a ``FailureReporter``: Swift Testing's `Issue.record` inside a
/// Swift Testing test, `XCTFail` otherwise. A harness released without `finish()`
/// runs the checks that need no waiting as it goes.
public final class StrictHarness: Sendable {
    /// The router under test.
    public let router: Router
    /// How long a reply may take before it counts as missing.
    public let replyTimeout: Duration

    private let reporter: FailureReporter
    private let id: UInt64
    private let core: Core
    private let observation: Registration
    private let site: Site

    /// Creates a harness that watches `router`'s diagnostics from now on.
    /// - Parameters:
    ///   - router: the router under test (the app's own, with its handlers).
    ///   - replyTimeout: how long a reply may take before it counts as missing.
    ///   - reporter: where failures go; ``FailureReporter/automatic`` by default.
    ///   - fileID: the file ID of the call site, for the failure report; `#fileID` by default.
    ///   - filePath: the file path of the call site; `#filePath` by default.
    ///   - line: the line of the call site; `#line` by default.
    ///   - column: the column of the call site; `#column` by default.
    public init(
        router: Router,
        replyTimeout: Duration = .seconds(2),
        reporter: FailureReporter = .automatic,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        let id = StrictHarness.nextID.withLock { id -> UInt64 in
            id &+= 1
            return id
        }
        let core = Core()
        self.router = router
        self.replyTimeout = replyTimeout
        self.reporter = reporter
        self.id = id
        self.core = core
        self.site = Site(fileID: fileID, filePath: filePath, line: line, column: column)
        self.observation = router.observeDiagnostics { diagnostic in
            core.observe(diagnostic, harness: id, current: HarnessContext.current)
        }
    }

    deinit {
        observation.cancel()
        guard !core.state.withLock({ $0.finished }) else { return }
        for message in checksWithoutWaiting(pendingMessage: "reply still pending when the harness was released") {
            report(message, at: site)
        }
    }

    // MARK: - Sending

    /// Sends a message as the web side would, and fails the test unless its outcome is `expected`.
    ///
    /// It keeps the caller's isolation: from a `@MainActor` test, a main-actor handler runs
    /// before this returns (no hop), so the test can assert on its model right after.
    /// When the message is a request whose reply is still to come, `finish()`
    /// checks that the reply arrives and is not a failure.
    /// - Parameters:
    ///   - name: the channel name.
    ///   - body: the loosely typed body (`[String: Any]`, as `WKScriptMessage.body`); `nil` for none.
    ///   - id: a correlation id.
    ///   - sender: who sent it (origin and frame), checked against the router's origin policy;
    ///     unknown by default, which a channel with a policy refuses (expect ``ExpectedOutcome/rejected``).
    ///   - expected: the outcome the test expects; ``ExpectedOutcome/delivered`` by default.
    ///   - isolation: the caller's isolation; `#isolation` by default (leave it).
    ///   - fileID: the file ID of the call site, for the failure report; `#fileID` by default.
    ///   - filePath: the file path of the call site; `#filePath` by default.
    ///   - line: the line of the call site; `#line` by default.
    ///   - column: the column of the call site; `#column` by default.
    /// - Returns: the router's outcome.
    @discardableResult
    public func send(
        _ name: String, body: Any? = nil, id: String? = nil, sender: MessageSender = .unknown,
        expecting expected: ExpectedOutcome = .delivered,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Outcome {
        let site = Site(fileID: fileID, filePath: filePath, line: line, column: column)
        let pending = PendingReply()
        let outcome = HarnessContext.$current.withValue(Sending(harness: self.id, name: name)) {
            router.receive(name: name, body: MessageBody(body), id: id, sender: sender, isolation: isolation) {
                pending.resolve($0)
            }
        }
        if !expected.matches(outcome) {
            report("\(name): expected \(expected), got \(outcome)", at: site)
        }
        switch outcome {
        case .awaitingReply:
            core.state.withLock { $0.pending.append(PendingCheck(name: name, reply: pending, site: site)) }
        case .kept:
            if let channel = try? Channel(validating: name) {
                core.state.withLock { _ = $0.keptChannels.insert(channel) }
            }
        default:
            break
        }
        return outcome
    }

    /// Sends a typed event, encoded to a body as the web side would send it.
    /// See ``send(_:body:id:sender:expecting:isolation:fileID:filePath:line:column:)``.
    @discardableResult
    public func send<E: Event & Encodable>(
        _ event: E, sender: MessageSender = .unknown, expecting expected: ExpectedOutcome = .delivered,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) -> Outcome {
        let body: Any
        do {
            body = try BodyEncoder().encodeFoundationObject(event)
        } catch {
            report(
                "\(E.channel): the event could not be encoded: \(error)",
                at: Site(fileID: fileID, filePath: filePath, line: line, column: column))
            return .stopped(reason: "unencodable event")
        }
        return send(
            E.channel.name, body: body, sender: sender, expecting: expected, isolation: isolation,
            fileID: fileID, filePath: filePath, line: line, column: column)
    }

    // MARK: - Requests

    /// Sends a request and waits for its reply; fails the test unless the reply
    /// is `expected` and arrives within the timeout.
    ///
    /// The app sends it (`MessageSender.app`, admitted by every origin policy) unless `sender`
    /// says otherwise, and it keeps the caller's isolation: from a `@MainActor` test, a
    /// main-actor responder runs on the main actor with no hop.
    /// - Parameters:
    ///   - name: the channel name.
    ///   - body: the loosely typed body; `nil` for none.
    ///   - sender: who sent it, checked against the router's origin policy; the app by default.
    ///   - expected: ``ExpectedReply/reply`` (the default), or the failure the test expects.
    ///   - timeout: the longest wait; ``replyTimeout`` by default.
    ///   - isolation: the caller's isolation; `#isolation` by default (leave it).
    ///   - fileID: the file ID of the call site, for the failure report; `#fileID` by default.
    ///   - filePath: the file path of the call site; `#filePath` by default.
    ///   - line: the line of the call site; `#line` by default.
    ///   - column: the column of the call site; `#column` by default.
    /// - Returns: the reply or the failure; `nil` when nothing came in time.
    @discardableResult
    public func request(
        _ name: String, body: Any? = nil, sender: MessageSender = .app,
        expecting expected: ExpectedReply = .reply, timeout: Duration? = nil,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async -> Result<ReplyValue, RequestFailure>? {
        await request(
            name, body: MessageBody(body), sender: sender, expected: expected, timeout: timeout,
            site: Site(fileID: fileID, filePath: filePath, line: line, column: column), isolation: isolation)
    }

    /// Sends a typed request and returns its typed reply; fails the test (and
    /// returns `nil`) when there is none within the timeout. The app sends it by default, and it
    /// keeps the caller's isolation (see ``request(_:body:sender:expecting:timeout:isolation:fileID:filePath:line:column:)``).
    @discardableResult
    public func request<R: Request & Encodable>(
        _ request: R, sender: MessageSender = .app, timeout: Duration? = nil,
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async -> R.Reply? {
        let site = Site(fileID: fileID, filePath: filePath, line: line, column: column)
        let body: Any
        do {
            body = try BodyEncoder().encodeFoundationObject(request)
        } catch {
            report("\(R.channel): the request could not be encoded: \(error)", at: site)
            return nil
        }
        let result = await self.request(
            R.channel.name, body: MessageBody(body), sender: sender, expected: .reply, timeout: timeout, site: site,
            isolation: isolation)
        guard case .success(let value)? = result else { return nil }
        // Converted as `Router.request(_:)` converts: with the router's decoding options.
        do throws(RequestFailure) {
            return try Router.typedReply(value, as: R.Reply.self, on: R.channel, options: router.options.decoding)
        } catch {
            report(error.message, at: site)
            return nil
        }
    }

    private func request(
        _ name: String, body: MessageBody, sender: MessageSender, expected: ExpectedReply, timeout: Duration?,
        site: Site, isolation: isolated (any Actor)?
    ) async -> Result<ReplyValue, RequestFailure>? {
        let pending = PendingReply()
        _ = HarnessContext.$current.withValue(Sending(harness: id, name: name)) {
            router.receive(name: name, body: body, sender: sender, isolation: isolation) { pending.resolve($0) }
        }
        let limit = timeout ?? replyTimeout
        guard let result = await pending.wait(timeout: limit, isolation: isolation) else {
            report("\(name): no reply within \(limit) (missing or late)", at: site)
            return nil
        }
        if !expected.matches(result) {
            report("\(name): expected \(expected), got \(Self.describe(result))", at: site)
        } else if case .failure(let failure) = result {
            core.consumeDiagnostic(relatedTo: failure)
        }
        return result
    }

    // MARK: - Expectations

    /// Consumes one diagnostic the router reported outside the harness's own
    /// sends, so `finish()` does not fail on it; fails the test when none of
    /// that kind arrives within `timeout`.
    /// - Parameters:
    ///   - kind: the diagnostic's `Diagnostic.kind` (`.unhandled`, `.keptExpired`, `.duplicateReply`, …).
    ///   - channel: the channel it must concern; `nil` for any.
    ///   - timeout: how long to wait for it; zero to look only at what arrived already.
    ///   - isolation: the caller's isolation, kept while waiting; `#isolation` by default (leave it).
    ///   - fileID: the file ID of the call site, for the failure report; `#fileID` by default.
    ///   - filePath: the file path of the call site; `#filePath` by default.
    ///   - line: the line of the call site; `#line` by default.
    ///   - column: the column of the call site; `#column` by default.
    public func expectDiagnostic(
        _ kind: Diagnostic.Kind, on channel: Channel? = nil, timeout: Duration = .seconds(1),
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async {
        let clock = ContinuousClock()
        let end = clock.now + timeout
        while true {
            if core.consume(kind: kind, channel: channel) { return }
            if clock.now >= end { break }
            try? await Task.sleep(for: .milliseconds(2))
        }
        let place = channel.map { " on \($0)" } ?? ""
        report(
            "expected a \(kind) diagnostic\(place); none came",
            at: Site(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Says that kept messages on `channel` may still wait undelivered at `finish()`.
    public func expectKeptUndelivered(on channel: Channel) {
        core.state.withLock { _ = $0.allowedUndelivered.insert(channel) }
    }

    /// The problem diagnostics not consumed yet, in arrival order.
    public var unconsumedDiagnostics: [Diagnostic] {
        core.state.withLock { $0.unexpected }
    }

    /// Forgets every problem diagnostic received so far (a non-exhaustive escape hatch).
    public func skipDiagnostics() {
        core.state.withLock { $0.unexpected.removeAll() }
    }

    /// Ends the test: waits for the replies still pending after sends, then
    /// fails the test for each missing or failed reply, each channel with kept
    /// messages never delivered, and each problem diagnostic not consumed.
    /// It keeps the caller's isolation while it waits.
    /// - Parameters:
    ///   - isolation: the caller's isolation; `#isolation` by default (leave it).
    ///   - fileID: the file ID of the call site, for the failure report; `#fileID` by default.
    ///   - filePath: the file path of the call site; `#filePath` by default.
    ///   - line: the line of the call site; `#line` by default.
    ///   - column: the column of the call site; `#column` by default.
    public func finish(
        isolation: isolated (any Actor)? = #isolation,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) async {
        let site = Site(fileID: fileID, filePath: filePath, line: line, column: column)
        let pending = core.state.withLock { state -> [PendingCheck] in
            defer { state.pending.removeAll() }
            return state.pending
        }
        for check in pending {
            switch await check.reply.wait(timeout: replyTimeout, isolation: isolation) {
            case nil:
                report("\(check.name): no reply within \(replyTimeout) (missing or late)", at: check.site)
            case .failure(let failure)?:
                report("\(check.name): the reply failed: \(failure.message)", at: check.site)
            case .success?:
                break
            }
        }
        for message in checksWithoutWaiting(pendingMessage: "reply still pending") {
            report(message, at: site)
        }
        core.state.withLock { $0.finished = true }
    }

    // MARK: - Internals

    /// The checks that need no waiting; empties what they report.
    private func checksWithoutWaiting(pendingMessage: String) -> [String] {
        let (pending, kept, allowed, unexpected) = core.state.withLock { state in
            defer {
                state.pending.removeAll()
                state.unexpected.removeAll()
                state.finished = true
            }
            return (state.pending, state.keptChannels, state.allowedUndelivered, state.unexpected)
        }
        var messages: [String] = []
        for check in pending {
            switch check.reply.result {
            case nil: messages.append("\(check.name): \(pendingMessage)")
            case .failure(let failure)?: messages.append("\(check.name): the reply failed: \(failure.message)")
            case .success?: break
            }
        }
        for channel in kept.subtracting(allowed).sorted() {
            let count = router.keptCount(for: channel)
            if count > 0 {
                messages.append("\(channel): \(count) kept message\(count == 1 ? " was" : "s were") never delivered")
            }
        }
        for diagnostic in unexpected {
            messages.append("unexpected diagnostic: \(diagnostic)")
        }
        return messages
    }

    private func report(_ message: String, at site: Site) {
        reporter.report(
            HarnessFailure(
                message, fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column))
    }

    static func describe(_ result: Result<ReplyValue, RequestFailure>) -> String {
        switch result {
        case .success(let value): return "the reply \(value)"
        case .failure(let failure): return "a \(failure.caseName) failure (\(failure.message))"
        }
    }

    private static let nextID = Locked<UInt64>(0)

    struct Site: Sendable {
        let fileID: StaticString
        let filePath: StaticString
        let line: UInt
        let column: UInt
    }

    struct PendingCheck: Sendable {
        let name: String
        let reply: PendingReply
        let site: Site
    }

    /// The state the diagnostics observer shares with the harness (never the harness itself).
    final class Core: Sendable {
        struct State: Sendable {
            var unexpected: [Diagnostic] = []
            var keptChannels: Set<Channel> = []
            var allowedUndelivered: Set<Channel> = []
            var pending: [PendingCheck] = []
            var finished = false
        }

        let state = Locked(State())

        /// The diagnostics that mean something went wrong; the others (kept, delivered, stopped) are routine.
        static let problemKinds: Set<Diagnostic.Kind> = [
            .unhandled, .invalidChannel, .invalidBody, .handlerFailed, .responderFailed, .keptOverflow,
            .eventsOverflow, .keptExpired, .duplicateReply, .lateReply, .replyDropped, .deadlinePassed,
        ]

        func observe(_ diagnostic: Diagnostic, harness: UInt64, current: Sending?) {
            let ownSend =
                current.map { $0.harness == harness && (diagnostic.channel?.name ?? $0.name) == $0.name } ?? false
            state.withLock { state in
                if case .kept(let channel, _) = diagnostic { state.keptChannels.insert(channel) }
                guard !ownSend, Core.problemKinds.contains(diagnostic.kind) else { return }
                state.unexpected.append(diagnostic)
            }
        }

        /// Removes the first unconsumed diagnostic of `kind` (on `channel`); returns whether there was one.
        func consume(kind: Diagnostic.Kind, channel: Channel?) -> Bool {
            state.withLock { state in
                guard
                    let index = state.unexpected.firstIndex(where: {
                        $0.kind == kind && (channel == nil || $0.channel == channel)
                    })
                else { return false }
                state.unexpected.remove(at: index)
                return true
            }
        }

        /// An expected request failure accounts for the diagnostic the router reported with it.
        func consumeDiagnostic(relatedTo failure: RequestFailure) {
            let kind: Diagnostic.Kind
            switch failure {
            case .timedOut: kind = .deadlinePassed
            case .dropped: kind = .replyDropped
            case .responderFailed: kind = .responderFailed
            default: return
            }
            _ = consume(kind: kind, channel: failure.channel)
        }
    }
}

/// The harness send in progress on this task, so that the diagnostics a send
/// causes are checked through its outcome rather than reported twice.
struct Sending: Sendable {
    let harness: UInt64
    let name: String
}

enum HarnessContext {
    @TaskLocal static var current: Sending?
}
