import Switchboard
import SwitchboardWire

/// An input that starts with `[` is also read as a `.json` input (one document:
/// an array of messages): one outcome per element, numbered 1…n; a document
/// the strict reader rejects, or that is not an array or object, is one
/// `malformed` outcome at the line of the problem.
struct DocumentCheck {
    let input: [UInt8]

    static func applies(to input: [UInt8]) -> Bool {
        let start = input.starts(with: NaiveLines.bom) ? 3 : 0
        return input[start...].first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } == UInt8(ascii: "[")
    }

    func run() {
        MessagePathCheck.document.renew()
        var session = WireSession(
            router: MessagePathCheck.document.router,
            options: WireSession.Options(maxLineBytes: MessagePathCheck.maxLineBytes))
        var collector = WireOutcomeCollector()
        do {
            try WirePipeline().run([.bytes(input, format: .json)], session: &session, into: &collector)
        } catch {
            fuzzFail("the pipeline threw \(error) reading a .json document in memory")
        }
        let outcomes = collector.outcomes
        let document = input.starts(with: NaiveLines.bom) ? Array(input.dropFirst(3)) : input
        let expected: [Int]
        // The document is an array: each message object is level 1 of the depth limit, as on an
        // NDJSON line, so the array's own level is not counted.
        let reader = JSONReader(maxDepth: session.options.reader.maxDepth + 1)
        do {
            switch try reader.read(document) {
            case .array(let elements): expected = Array(0..<elements.count).map { $0 + 1 }
            default: expected = [1]
            }
        } catch {
            expected = [error.line]
            if outcomes.count != 1 || outcomes[0].kind != .malformed {
                fuzzFail("a .json document the reader rejects (\(error)) gave \(outcomes.map(\.jsonLine))", line: input)
            }
        }
        if outcomes.map(\.line) != expected {
            fuzzFail("a .json document gave outcome lines \(outcomes.map(\.line)), expected \(expected)", line: input)
        }
        OutcomeLineCheck.check(outcomes)
    }
}
