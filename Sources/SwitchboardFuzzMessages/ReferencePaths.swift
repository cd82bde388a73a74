import Foundation
import Switchboard
import SwitchboardWire

/// Routes each line of an input again, outside the CLI's code, and compares:
/// the `JSONValue` path (`JSONReader` → `WireMessage` → `JSONValue` body) on a second
/// router, and the Foundation path (`JSONSerialization` → `[String: Any]`
/// body) on a third, each with a reply handler whose resolutions are counted.
struct ReferencePaths {
    /// Every reply handler's resolutions, to check at the end that none came twice or late.
    private var resolutions: [(line: [UInt8], results: Locked<[Result<ReplyValue, RequestFailure>]>)] = []
    /// Whether the Foundation router has seen exactly the messages the CLI's router has, read the same way.
    private var foundationInStep = true

    mutating func compare(line: NaiveLines.Line, outcome: WireOutcome, input: [UInt8]) {
        if line.count > MessagePathCheck.maxLineBytes {
            let expected = WireMalformed.oversized(byteCount: line.count, limit: MessagePathCheck.maxLineBytes)
            if outcome.kind != .malformed || outcome.error != expected.wireError
                || outcome.name != nil
                || outcome.id != nil
            {
                fuzzFail("a line of \(line.count) bytes gave \(outcome.jsonLine)")
            }
            return
        }
        let bytes = line.bytes(in: input)
        let strict: Result<JSONValue, JSONReadError>
        do {
            strict = .success(try JSONReader().read(bytes))
        } catch {
            strict = .failure(error)
        }
        let agreement = ReaderAgreement(bytes: bytes, strict: strict)
        agreement.check()

        // A page's hello (an object with "hello" and no "name") is not a message: the slow paths
        // route messages only. OutcomeLineCheck checks its line; here it must be one.
        if case .success(.object(let members)) = strict, members["hello"] != nil, members["name"] == nil,
            outcome.kind == .hello || outcome.kind == .malformed
        {
            return
        }
        if outcome.kind == .hello { fuzzFail("the CLI gave \(outcome.jsonLine) for a line that is not a hello") }
        let parsed: Result<WireMessage, WireMalformed>
        switch strict {
        case .success(let value): parsed = WireMessage.parse(value: value)
        case .failure(let error): parsed = .failure(WireMalformed(readError: error))
        }
        switch parsed {
        case .failure(let problem):
            if outcome.kind != .malformed || outcome.error != problem.wireError
                || outcome.name != problem.name || outcome.id != problem.id
            {
                fuzzFail("the CLI gave \(outcome.jsonLine), the slow path finds it malformed: \(problem)", line: bytes)
            }
        case .success(let message):
            if outcome.name != message.channel.name || outcome.id != message.id {
                fuzzFail("the CLI echoed name/id as \(outcome.jsonLine) for \(message)", line: bytes)
            }
            let expected = route(message.message, on: MessagePathCheck.direct.router, line: bytes) {
                router, message, handler in router.receive(message, replyHandler: handler)
            }
            compare(outcome, expected, what: "the slow path (JSONValue body)", line: bytes)
            routeThroughFoundation(message, agreement: agreement, outcome: outcome, line: bytes)
        }
    }

    /// The Foundation path, while its router is in step with the CLI's.
    private mutating func routeThroughFoundation(
        _ message: WireMessage, agreement: ReaderAgreement, outcome: WireOutcome, line: [UInt8]
    ) {
        guard foundationInStep else { return }
        guard agreement.foundationReadsExactly, let object = agreement.foundation as? [String: Any],
            let name = object["name"] as? String
        else {
            // Foundation reads this message differently (or not at all): the routers' states may part here.
            foundationInStep = false
            return
        }
        let body = MessageBody(object["body"])
        let expected = route(message.message, on: MessagePathCheck.foundation.router, line: line) {
            router, _, handler in
            router.receive(name: name, body: body, id: message.id?.text, sender: message.sender, replyHandler: handler)
        }
        if expected.kind != outcome.kind {
            fuzzFail(
                "the CLI gave \(outcome.jsonLine), the same message as a Foundation tree \(expected.jsonLine)",
                line: line)
        }
    }

    /// Routes `message` with a counted reply handler; returns the outcome the
    /// CLI should write for it (the outcome mapping of `WireSession`).
    private mutating func route(
        _ message: Message, on router: Router, line: [UInt8],
        _ receive: (Router, Message, @escaping @Sendable (Result<ReplyValue, RequestFailure>) -> Void) -> Outcome
    ) -> WireOutcome {
        let results = Locked<[Result<ReplyValue, RequestFailure>]>([])
        resolutions.append((line, results))
        let routed = receive(router, message) { result in results.withLock { $0.append(result) } }
        let resolved = results.withLock { $0 }
        var expected = WireOutcome(line: 0, kind: .handled)
        switch routed {
        case .handled:
            expected.kind = .handled
        case .replied(let value):
            do {
                expected.replyJSON = try value.jsonBytes()
                expected.kind = .replied
            } catch {
                expected.kind = .failed
                expected.error = WireError(
                    kind: .failed, channel: message.channel.name, message: "the reply could not be encoded: \(error)")
            }
        case .awaitingReply, .kept:
            fuzzFail("\(message.channel): \(routed) from a responder that replies before returning", line: line)
        case .unhandled:
            expected.kind = .unhandled
        case .invalid(let error):
            expected.kind = .invalid
            expected.error = WireError(
                kind: .invalid, channel: message.channel.name, path: error.path, message: error.message)
        case .failed(let failure):
            expected.kind = .failed
            expected.error = WireError(kind: .failed, channel: message.channel.name, message: failure.message)
        case .invalidChannel(let problem):
            expected.kind = .malformed
            expected.error = WireError(kind: .invalid, message: "invalid \"name\": \(problem)")
        case .stopped(let reason):
            expected.kind = .failed
            expected.error = WireError(
                kind: .failed, channel: message.channel.name, message: "stopped by middleware: \(reason)")
        case .rejected(let rejection):
            expected.kind = .rejected
            expected.error = WireError(kind: .rejected, channel: message.channel.name, message: rejection.message)
        }
        // Exactly one resolution by now, and one consistent with the outcome.
        guard resolved.count == 1, let result = resolved.first else {
            fuzzFail(
                "\(message.channel): outcome \(routed), reply handler resolved \(resolved.count) times", line: line)
        }
        switch (routed, result) {
        case (.replied(let value), .success(let reply)):
            if (try? value.jsonBytes()) != (try? reply.jsonBytes()) {
                fuzzFail("\(message.channel): outcome replied \(value), reply handler got \(reply)", line: line)
            }
        case (.replied, .failure(let failure)):
            fuzzFail("\(message.channel): outcome replied, reply handler got failure \(failure)", line: line)
        case (.invalid, .success), (.failed, .success), (.stopped, .success), (.unhandled, .success):
            fuzzFail("\(message.channel): outcome \(routed), reply handler got success \(result)", line: line)
        default:
            break
        }
        if case .failure(let failure) = result, expected.kind == .failed, case .failed = routed {
            // The CLI words a request failure as its reason, or with its kind and channel first
            // (`timed out: productCartUpdate: no reply within …`); the text ends with the reason.
            expected.error = WireError(kind: failure.kind, channel: message.channel.name, message: failure.reason)
        }
        return expected
    }

    /// The CLI's outcome against the one expected from another path.
    private func compare(_ outcome: WireOutcome, _ expected: WireOutcome, what: String, line: [UInt8]) {
        var same = outcome.kind == expected.kind && outcome.replyJSON == expected.replyJSON
        switch outcome.kind {
        case .invalid, .rejected:
            // The key path and message of the decoding error; the policy's reason, word for word.
            same = same && outcome.error == expected.error
        case .failed:
            // Same text, or the CLI's with the failure's kind and channel in front.
            if let mine = outcome.error, let theirs = expected.error {
                same =
                    same && mine.message.hasSuffix(theirs.message) && mine.kind == theirs.kind
                    && mine.channel == theirs.channel
            } else {
                same = false
            }
        default:
            same = same && outcome.error == nil
        }
        if !same {
            let theirs = expected.replyJSON.map { String(decoding: $0, as: UTF8.self) } ?? "-"
            fuzzFail(
                "the CLI gave \(outcome.jsonLine), \(what) \(expected.kind) reply \(theirs) error \(String(describing: expected.error))",
                line: line)
        }
    }

    /// No reply handler was resolved a second time, later.
    func finish() {
        for (line, results) in resolutions {
            let count = results.withLock { $0.count }
            if count != 1 {
                fuzzFail("a reply handler was resolved \(count) times by the end of the input", line: line)
            }
        }
    }
}
