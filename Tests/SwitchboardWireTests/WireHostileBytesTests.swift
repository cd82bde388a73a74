import Foundation
import Switchboard
import SwitchboardCommerce
import SwitchboardTestSupport
import SwitchboardWire
import Testing

/// Hostile byte streams through the public pipeline: reading ahead or not, the same
/// outcomes, and the outcomes a line-by-line reading of the documented framing gives.
@Suite struct WireHostileBytesTests {
    /// Lines a hostile or broken writer sends: invalid UTF-8, NULs, CRs, byte-order marks
    /// mid-stream, blank lines, duplicate keys, numbers at the edges, huge ids, lines around the limit.
    static func hostileLine(_ random: inout some RandomNumberGenerator, limit: Int) -> [UInt8] {
        let pieces: [[UInt8]] = [
            Array(#"{"name":"sdkReady"}"#.utf8),
            Array(#"{"name":"sdkReady"}"#.utf8) + [0x0D],
            [0xEF, 0xBB, 0xBF] + Array(#"{"name":"sdkReady"}"#.utf8),
            Array(#"{"name":"sdk"#.utf8) + [0xFF] + Array(#"Ready"}"#.utf8),
            Array(#"{"name":"sdkReady","body":""#.utf8) + [0xC3] + Array(#""}"#.utf8),
            Array(#"{"name":"sdkReady"}"#.utf8) + [0x00],
            Array(#"{"name":"sdk\u0000Ready"}"#.utf8),
            Array(#"{"name":"sdkReady","name":"addCartLine"}"#.utf8),
            Array(#"{"name":"productCartGetState","id":1e400}"#.utf8),
            Array(#"{"name":"productCartGetState","id":-0.0}"#.utf8),
            Array(#"{"name":"productCartGetState","id":123456789012345678901234567890123456789}"#.utf8),
            Array(
                #"{"name":"addCartLine","body":{"merchandiseId":"m","productId":"p","quantity":9223372036854775807,"attributes":{}}}"#
                    .utf8),
            Array(
                #"{"name":"addCartLine","body":{"merchandiseId":"m","productId":"p","quantity":-9223372036854775809,"attributes":{}}}"#
                    .utf8),
            Array(#"{"name":"wishlistGetState","id":"\u2028"}"#.utf8),
            Array(#"{"name":"\ud800"}"#.utf8),
            Array("   \t\r".utf8),
            [],
            Array(#"[1,2,]"#.utf8),
            Array(#"{"name":"sdkReady"} {"name":"sdkReady"}"#.utf8),
            Array(repeating: UInt8(ascii: "x"), count: limit),
            Array(repeating: UInt8(ascii: " "), count: limit + 1),
            Array(#"{"name":"sdkReady","id":""#.utf8)
                + Array(repeating: UInt8(ascii: "i"), count: max(0, limit - 26)) + Array(#""}"#.utf8),
            Array(#"{"name":"ch\#(random.next() % 100_000)"}"#.utf8),
        ]
        return pieces[Int(random.next() % UInt64(pieces.count))]
    }

    /// What the documented framing makes of `input`: split on `\n`, a BOM stripped at the very
    /// start only, blank lines skipped, lines over `limit` bytes `malformed`; each line then goes
    /// through `process(line:)`.
    static func referenceOutcomes(_ input: [UInt8], limit: Int, router: Router) -> [WireOutcome] {
        var session = WireSession(router: router, options: WireSession.Options(maxLineBytes: limit))
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        var outcomes: [WireOutcome] = []
        for (index, line) in lines.enumerated() {
            if line.count > limit {
                outcomes.append(
                    session.malformed(.oversized(byteCount: line.count, limit: limit), line: index + 1, source: nil))
            } else if let outcome = session.process(line: Array(line), number: index + 1, source: nil) {
                outcomes.append(outcome)
            }
        }
        return outcomes
    }

    static func pipelineOutcomes(_ input: [UInt8], limit: Int, readsAhead: Bool) throws -> [WireOutcome] {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        defer { withExtendedLifetime(commerce) {} }
        var session = WireSession(router: router, options: WireSession.Options(maxLineBytes: limit))
        var collector = WireOutcomeCollector()
        try WirePipeline(readsAhead: readsAhead).run([.bytes(input)], session: &session, into: &collector)
        return collector.outcomes
    }

    @Test(arguments: [(7, 64), (11, 300), (13, 4096)])
    func hostileStreamsGiveTheSameOutcomesReadingAheadOrNot(seed: UInt64, limit: Int) async throws {
        // Everything here runs on a thread of its own, not on Swift's cooperative pool, which the
        // async tests running beside this one need (making the input is long in a debug build).
        let (ahead, inline, reference) = try await onDispatchThread {
            () throws -> ([WireOutcome], [WireOutcome], [WireOutcome]) in
            var random = SeededRandom(seed: seed)
            var input: [UInt8] = [0xEF, 0xBB, 0xBF]
            input.reserveCapacity(320 * 1024)
            // More than one 256 KiB read, so that lines straddle reads.
            while input.count < 300 * 1024 {
                input += Self.hostileLine(&random, limit: limit)
                input.append(0x0A)
            }
            // An unterminated last line, cut mid-message.
            input += Array(#"{"name":"productCartGetSt"#.utf8)
            let router = Router()
            let commerce = try router.installReferenceCommerce()
            let reference = withExtendedLifetime(commerce) {
                Self.referenceOutcomes(input, limit: limit, router: router)
            }
            return (
                try Self.pipelineOutcomes(input, limit: limit, readsAhead: true),
                try Self.pipelineOutcomes(input, limit: limit, readsAhead: false), reference
            )
        }
        #expect(ahead.count > 100, "seed \(seed), limit \(limit)")
        #expect(ahead == inline, "seed \(seed), limit \(limit): reading ahead differs")
        #expect(inline == reference, "seed \(seed), limit \(limit): the pipeline differs from the line reference")
        #expect(ahead.last?.kind == .malformed, "seed \(seed), limit \(limit)")
    }
}

/// The depth limit counts from the message object (level 1) in every framing: an NDJSON line,
/// a `.json` document holding one message, and each message of a `.json` array.
@Suite struct WireDocumentDepthTests {
    static func message(depth: Int) -> String {
        // The message object is level 1; its body adds `depth - 1` levels of arrays.
        if depth == 1 { return #"{"name":"sdkReady"}"# }
        return #"{"name":"sdkReady","body":"# + String(repeating: "[", count: depth - 1)
            + String(repeating: "]", count: depth - 1) + "}"
    }

    static func outcomes(_ input: WireInput, limit: Int) throws -> [WireOutcome] {
        let router = Router()
        let ready = router.on(Ready.self) { _ in }
        defer { withExtendedLifetime(ready) {} }
        var session = WireSession(router: router, options: WireSession.Options(reader: JSONReader(maxDepth: limit)))
        var collector = WireOutcomeCollector()
        try WirePipeline(readsAhead: false).run([input], session: &session, into: &collector)
        return collector.outcomes
    }

    @Test(arguments: [1, 2, 64, 512])
    func aMessageAtTheLimitIsReadAndOneDeeperIsNotWhateverItsFraming(limit: Int) async throws {
        for (depth, accepted) in [(limit, true), (limit + 1, false)] where depth >= 1 {
            let text = Self.message(depth: depth)
            let framings: [(String, WireInput)] = [
                ("ndjson line", .bytes(Array((text + "\n").utf8))),
                ("json message", .bytes(Array(text.utf8), format: .json)),
                ("json array", .bytes(Array("[\n \(text)]".utf8), format: .json)),
            ]
            for (framing, input) in framings {
                // Off Swift's cooperative pool, which the async tests running beside this one need.
                let outcomes = try await onDispatchThread { try Self.outcomes(input, limit: limit) }
                #expect(outcomes.count == 1, "\(framing), depth \(depth)")
                let outcome = try #require(outcomes.first)
                if accepted {
                    #expect(outcome.kind == .handled, "\(framing), depth \(depth): \(outcome.jsonLine)")
                } else {
                    #expect(outcome.kind == .malformed, "\(framing), depth \(depth): \(outcome.jsonLine)")
                    #expect(
                        outcome.error?.message.contains("nested deeper than the limit of \(limit) ") == true,
                        "\(framing): \(outcome.jsonLine)")
                }
            }
        }
    }
}

private struct Ready: BodylessEvent {
    static let channel: Channel = "sdkReady"
}
