import Dispatch
import Switchboard

/// Feeds wire messages through a `Router` one at a time, in order, and turns
/// each into a ``WireOutcome``; counts them in a ``WireSummary``.
///
/// A request whose reply is not there when `receive` returns is waited for
/// (bounded by the router's deadline, which resolves it as timed out or with
/// the channel's fallback) before the next message, so state changes apply in
/// input order.
///
/// A session is a value: a copy has its own counts and its own wait for each reply, so
/// copies may run at the same time (on several threads, or one inside a handler) through
/// one router.
///
/// ```swift
/// var session = WireSession(router: router)
/// let outcome = session.process(line: bytes, number: 1, source: nil)   // nil for a blank line
/// ```
public struct WireSession: Sendable {
    /// Limits of a session.
    public struct Options: Sendable {
        /// The longest input line accepted, in bytes (1 MiB by default).
        public var maxLineBytes: Int
        /// How long to wait for a pending reply beyond the router's default
        /// deadline before giving up on it (the router normally resolves it first).
        public var replyGrace: Duration
        /// The JSON reader's limits.
        public var reader: JSONReader

        /// Creates options.
        public init(
            maxLineBytes: Int = MessageBody.defaultMaxJSONBytes, replyGrace: Duration = .seconds(1),
            reader: JSONReader = JSONReader()
        ) {
            self.maxLineBytes = maxLineBytes
            self.replyGrace = replyGrace
            self.reader = reader
        }
    }

    /// The router messages go through.
    public let router: Router
    /// The limits in effect.
    public let options: Options
    /// The counts so far.
    public private(set) var summary = WireSummary()
    /// The waiter of the message being processed, reused from message to message while
    /// each message's reply handler has run by the time the message is done (the usual
    /// case); replaced when one has not, so a late reply lands in the old one, unread, and
    /// when a copy of the session shares it.
    private var waiter = ReplyWaiter()
    /// The channels seen so far, by their names' bytes.
    private var channels = WireChannelCache()
    /// Where replies are encoded, reused from message to message.
    private var replyWriter = JSONWriter(capacity: 4096)

    /// Creates a session over `router`.
    /// The summary counts `rejected` (even 0) when `router` has a default `OriginPolicy`.
    public init(router: Router, options: Options = Options()) {
        self.router = router
        self.options = options
        summary = WireSummary(hasOriginPolicy: router.defaultOriginPolicy != nil)
    }

    /// Processes one NDJSON line.
    /// - Parameters:
    ///   - line: the line's bytes, without the newline.
    ///   - number: its 1-based line number.
    ///   - source: the input path, echoed as `"source"`.
    /// - Returns: the outcome; `nil` for a blank line (only spaces, tabs and `\r`), which is not a message.
    package mutating func process(line: UnsafeBufferPointer<UInt8>, number: Int, source: String?) -> WireOutcome? {
        if WireSession.isBlank(line) { return nil }
        if line.count > options.maxLineBytes {
            return malformed(
                .oversized(byteCount: line.count, limit: options.maxLineBytes), line: number, source: source)
        }
        // Fast path: the strict tape reader, and the body decoded straight from it.
        // Any other JSON goes through `WireMessage.parse(value:)`, which says exactly
        // what is wrong; a line that is not JSON gets the scanner's error. (The same
        // steps as `prepare` and `process(prepared:)`, without making a `PreparedLine`:
        // this is the one-thread path, and the enum in between would cost it on every line.)
        return process(
            scan: WireTapeMessage.scan(line, maxDepth: options.reader.maxDepth), number: number, source: source)
    }

    /// What ``prepare(_:maxLineBytes:maxDepth:)`` makes of one line, ready for
    /// ``process(prepared:number:source:)``: the part of ``process(line:number:source:)``
    /// that needs no session, so that another thread can do it ahead (``WirePipeline``).
    package enum PreparedLine: Sendable {
        /// Only JSON whitespace other than newlines: not a message.
        case blank
        /// Longer than the limit (its byte count).
        case oversized(Int)
        /// Scanned: parsed onto a tape (members found when it is a message), or rejected with why.
        case scanned(WireTapeMessage.Scan)

        /// About what the prepared line holds in memory: its bytes and, when parsed, its tape.
        var memoryCost: Int {
            switch self {
            case .blank, .oversized: return 16
            case .scanned(.message(let scanned)): return WireSession.memoryCost(of: scanned.tape)
            case .scanned(.other(let tape)): return WireSession.memoryCost(of: tape)
            case .scanned(.rejected(let rejection)): return 64 + rejection.error.reason.utf8.count
            }
        }
    }

    private static func memoryCost(of tape: JSONTape) -> Int {
        64 + tape.byteCount + tape.entryCount * MemoryLayout<JSONTape.Entry>.stride
    }

    /// Prepares one NDJSON line (without its newline) as ``process(line:number:source:)`` would read it.
    package static func prepare(_ line: UnsafeBufferPointer<UInt8>, maxLineBytes: Int, maxDepth: Int) -> PreparedLine {
        if isBlank(line) { return .blank }
        if line.count > maxLineBytes { return .oversized(line.count) }
        return .scanned(WireTapeMessage.scan(line, maxDepth: maxDepth))
    }

    /// Processes a line prepared by `prepare(_:maxLineBytes:maxDepth:)` (with this
    /// session's limits): the same outcome as ``process(line:number:source:)`` gives for it.
    package mutating func process(prepared: PreparedLine, number: Int, source: String?) -> WireOutcome? {
        switch prepared {
        case .blank:
            return nil
        case .oversized(let count):
            return malformed(.oversized(byteCount: count, limit: options.maxLineBytes), line: number, source: source)
        case .scanned(let scan):
            return process(scan: scan, number: number, source: source)
        }
    }

    /// Processes a scanned line: a message off the tape, or what is wrong with it.
    @inline(__always)
    private mutating func process(scan: WireTapeMessage.Scan, number: Int, source: String?) -> WireOutcome {
        switch scan {
        case .message(let scanned):
            if let key = WireTapeMessage.channel(of: scanned, channels: &channels, router: router) {
                return process(
                    key: key, body: WireTapeMessage.body(of: scanned), id: WireTapeMessage.id(of: scanned),
                    sender: WireTapeMessage.sender(of: scanned), line: number, source: source)
            }
            return process(value: scanned.tape.jsonValue(0), line: number, source: source)
        case .other(let tape):
            return process(value: tape.jsonValue(0), line: number, source: source)
        case .rejected(let rejection):
            return malformed(WireMalformed(readError: rejection.error), line: number, source: source)
        }
    }

    /// Processes one NDJSON line.
    /// - Parameters:
    ///   - line: the line's bytes, without the newline.
    ///   - number: its 1-based line number.
    ///   - source: the input path, echoed as `"source"`.
    /// - Returns: the outcome; `nil` for a blank line (only spaces, tabs and `\r`), which is not a message.
    public mutating func process(line: [UInt8], number: Int, source: String?) -> WireOutcome? {
        line.withUnsafeBufferPointer { buffer in process(line: buffer, number: number, source: source) }
    }

    /// Counts and returns a `malformed` outcome.
    package mutating func malformed(_ problem: WireMalformed, line: Int, source: String?) -> WireOutcome {
        summary.record(.malformed)
        return WireOutcome(
            line: line, source: source, id: problem.id, name: problem.name, kind: .malformed,
            error: problem.wireError)
    }

    /// Processes one parsed value (an element of a `.json` array, or a `.json` file's one object).
    public mutating func process(value: JSONValue, line: Int, source: String?) -> WireOutcome {
        if WireHello.isHello(value) {
            switch WireHello.parse(value: value) {
            case .success(let hello): return process(hello, line: line, source: source)
            case .failure(let problem): return malformed(problem, line: line, source: source)
            }
        }
        switch WireMessage.parse(value: value) {
        case .success(let message): return process(message, line: line, source: source)
        case .failure(let problem): return malformed(problem, line: line, source: source)
        }
    }

    /// Answers a page's hello: compares the digests it states with the router's
    /// (`Router.checkContracts(_:from:)`, which reports a `contractSkew` diagnostic per channel
    /// that differs) and returns a `hello` outcome listing them in `differing`.
    package mutating func process(_ hello: WireHello, line: Int, source: String?) -> WireOutcome {
        let differing = router.checkContracts(hello.hello.contracts, from: hello.sender).map(\.name)
        summary.record(.hello)
        return WireOutcome(line: line, source: source, id: hello.id, kind: .hello, differing: differing)
    }

    /// Routes one message and waits for its reply if it is a pending request.
    public mutating func process(_ message: WireMessage, line: Int, source: String?) -> WireOutcome {
        process(
            key: Router.ChannelKey(message.channel), body: message.body.map { MessageBody(json: $0) } ?? .absent,
            id: message.id,
            sender: message.sender, line: line, source: source)
    }

    // The parts are `consuming`: each moves into the message or the outcome, where a borrowed
    // `WireID?` or `MessageBody` would be copied (and later destroyed) through the runtime's value witnesses.
    @inline(__always)
    private mutating func process(
        key: Router.ChannelKey, body: consuming MessageBody, id: consuming WireID?, sender: consuming MessageSender,
        line: Int, source: String?
    ) -> WireOutcome {
        // A copy of the session (a `Sendable` value) is a session of its own, maybe on another
        // thread at the same time: the waiter they shared is left to the other, or one reply would
        // be read as the other's. (Unique in a session used alone: a resolved message's reply
        // handler lets go of it.)
        if !isKnownUniquelyReferenced(&self.waiter) { self.waiter = ReplyWaiter() }
        let waiter = self.waiter
        let idText: String?
        switch id {
        case .string(let text)?: idText = text
        case .number(let number)?: idText = number.text
        case nil: idText = nil
        }
        let channel = key.channel
        let message = Message(channel: channel, body: body, id: idText, sender: sender)
        // When handlers alone take the message, the waiter is not told (the outcome says it all),
        // and stays as it is for the next message.
        let (outcome, handlersOnly) = router.receiveAnsweringRequests(message, key: key, replyHandler: waiter.handler)
        // The outcome's parts, put together once at the end (a `var` outcome changed in place is copied).
        var kind = Outcome.Kind.handled
        var replyJSON: [UInt8]?
        var error: WireError?
        switch outcome {
        case .handled:
            break
        case .replied(let value):
            (kind, replyJSON, error) = encode(value, on: channel)
        case .awaitingReply:
            let limit = router.options.defaultDeadline + options.replyGrace
            switch waiter.wait(upTo: limit) {
            case .success(let value)?:
                (kind, replyJSON, error) = encode(value, on: channel)
            case .failure(let failure)?:
                kind = .failed
                error = WireSession.error(for: failure)
            case nil:
                kind = .failed
                error = WireError(
                    kind: .timedOut, channel: channel.name,
                    message: "timed out: \(message.channel): no reply within \(limit)")
            }
        case .unhandled, .kept:
            kind = .unhandled
        case .invalid(let problem):
            kind = .invalid
            error = WireError(kind: .invalid, channel: channel.name, path: problem.path, message: problem.message)
        case .failed(let failure):
            kind = .failed
            // The reply handler was resolved with the same failure, with its kind (dropped, …).
            if case .failure(let requestFailure)? = waiter.result() {
                error = WireSession.error(for: requestFailure)
            } else {
                error = WireError(kind: .failed, channel: channel.name, message: failure.message)
            }
        case .invalidChannel(let problem):
            kind = .malformed
            error = WireError(kind: .invalid, message: "invalid \"name\": \(problem)")
        case .stopped(let reason):
            kind = .failed
            error = WireError(kind: .failed, channel: channel.name, message: "stopped by middleware: \(reason)")
        case .rejected(let rejection):
            kind = .rejected
            error = WireError(kind: .rejected, channel: channel.name, message: rejection.message)
        }
        summary.record(kind)
        if !handlersOnly, !waiter.finish() { self.waiter = ReplyWaiter() }
        return WireOutcome(
            line: line, source: source, id: id, name: channel.name, kind: kind, replyJSON: replyJSON, error: error)
    }

    /// Marks the session finished after `elapsed`.
    public mutating func finish(elapsed: Duration) {
        summary.elapsed = elapsed
    }

    /// Encodes a reply through `ReplyValue.writeJSON(into:)` (as `ReplyValue.jsonBytes()` does), with the
    /// session's reused writer: `replied` with its JSON, or `failed` with the reason it did not encode.
    private mutating func encode(_ value: ReplyValue, on channel: Channel) -> (Outcome.Kind, [UInt8]?, WireError?) {
        // One huge reply should not keep its buffer for the rest of the session.
        if replyWriter.capacity > 1 << 20 { replyWriter = JSONWriter(capacity: 4096) }
        replyWriter.reset()
        do {
            try value.writeJSON(into: &replyWriter)
            return (.replied, replyWriter.bytes, nil)
        } catch {
            return (
                .failed, nil,
                WireError(kind: .failed, channel: channel.name, message: "the reply could not be encoded: \(error)")
            )
        }
    }

    /// The `"error"` of a `failed` line for a request failure: its kind, channel, message (``message(for:)``)
    /// and a typed error's data.
    static func error(for failure: RequestFailure) -> WireError {
        WireError(
            kind: failure.kind, channel: failure.channel?.name, message: message(for: failure), data: failure.data)
    }

    /// The `failed` message for a request failure: the responder's own message,
    /// or the failure's message led by its kind (`timed out: …`, `dropped: …`).
    static func message(for failure: RequestFailure) -> String {
        switch failure {
        case .responderFailed(_, let message, _): return message
        case .timedOut: return "timed out: \(failure.message)"
        case .dropped: return "dropped: \(failure.message)"
        case .unencodableReply: return "unencodable reply: \(failure.message)"
        default: return "\(failure.caseName): \(failure.message)"
        }
    }

    /// Whether the line holds only JSON whitespace other than newlines (spaces, tabs, `\r`), or nothing.
    package static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in line where byte != 0x20 && byte != 0x09 && byte != 0x0D {
            return false
        }
        return true
    }
}
