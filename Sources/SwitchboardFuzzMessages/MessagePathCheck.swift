import Foundation
import Switchboard
import SwitchboardWire

/// The properties checked on one input:
///
/// 1. Line splitting: the CLI's line reader, fed in small chunks with a small
///    line limit, hands out exactly the physical lines a naive split finds
///    (`LineSplitCheck`).
/// 2. One outcome per line: `WirePipeline` (the CLI's code) gives exactly one
///    outcome for each non-blank line, in input order, and its summary counts
///    them.
/// 3. Outcome lines: each is one line of JSON, with the documented keys in the
///    documented order and a documented `outcome` (`OutcomeLineCheck`).
/// 4. Fast path = slow path: the CLI's outcome of each line equals the
///    outcome of the same message read by `JSONReader` (a `JSONValue` built
///    from the one scanner's tape) and routed through a second router
///    (`JSONValue` bodies instead of the tape), reply bytes and decoding
///    errors included.
/// 5. Replies resolve exactly once: every message routed with a reply handler
///    gets exactly one resolution, consistent with its outcome, and no late one.
/// 6. The scanner agrees with Foundation: what the one strict scanner accepts,
///    `JSONSerialization` accepts too, with the same value (numbers by value),
///    and what Foundation accepts beyond that is only the documented leniency;
///    a rejection names a place inside the line (`ReaderAgreement`); messages
///    Foundation reads exactly the same way route to the same outcome through
///    a third router (Foundation bodies).
/// 7. `.json` documents: an input starting with `[` read as a `.json` input
///    gives one outcome per array element.
struct MessagePathCheck {
    let input: [UInt8]

    /// The line limit (the CLI's is 1 MiB; a small one lets inputs reach it).
    static let maxLineBytes = 4096

    /// Routers for the life of the process: the CLI's path, the slow path, the
    /// Foundation path, and `.json` documents.
    static let cli = FuzzRouter()
    static let direct = FuzzRouter()
    static let foundation = FuzzRouter()
    static let document = FuzzRouter()

    func run() {
        let lines = NaiveLines(input)
        LineSplitCheck(input: input, lines: lines).run()

        MessagePathCheck.cli.renew()
        MessagePathCheck.direct.renew()
        MessagePathCheck.foundation.renew()

        // The CLI's path on one thread (`--no-read-ahead`), then read ahead on a second thread
        // (the default) on a fresh router: the same outcomes.
        let (outcomes, summary) = routeThroughCLIPath(readsAhead: false)
        MessagePathCheck.cli.renew()
        let (aheadOutcomes, _) = routeThroughCLIPath(readsAhead: true)
        if aheadOutcomes != outcomes {
            fuzzFail("reading ahead gave \(aheadOutcomes.count) outcomes unlike the \(outcomes.count) read inline")
        }

        // One outcome per non-blank line, in order; an oversized line is one malformed outcome.
        let messageLines = lines.lines.filter { $0.count > MessagePathCheck.maxLineBytes || !$0.isBlank(in: input) }
        if outcomes.map(\.line) != messageLines.map(\.number) {
            fuzzFail(
                "outcome lines \(outcomes.map(\.line)) for non-blank input lines \(messageLines.map(\.number))")
        }
        checkSummary(summary, outcomes)
        OutcomeLineCheck.check(outcomes)

        var paths = ReferencePaths()
        for (line, outcome) in zip(messageLines, outcomes) {
            paths.compare(line: line, outcome: outcome, input: input)
        }
        paths.finish()

        if DocumentCheck.applies(to: input) {
            DocumentCheck(input: input).run()
        }
    }

    /// The input through the CLI's pipeline and the `cli` router, as it is now.
    func routeThroughCLIPath(readsAhead: Bool) -> ([WireOutcome], WireSummary) {
        var session = WireSession(
            router: MessagePathCheck.cli.router,
            options: WireSession.Options(maxLineBytes: MessagePathCheck.maxLineBytes))
        var collector = WireOutcomeCollector()
        do {
            try WirePipeline(readsAhead: readsAhead).run([.bytes(input)], session: &session, into: &collector)
        } catch {
            fuzzFail("the pipeline threw \(error) reading bytes in memory (reading ahead: \(readsAhead))")
        }
        return (collector.outcomes, session.summary)
    }

    func checkSummary(_ summary: WireSummary, _ outcomes: [WireOutcome]) {
        if summary.total != outcomes.count {
            fuzzFail("the summary counts \(summary.total) messages for \(outcomes.count) outcomes")
        }
        for kind in Outcome.Kind.allCases where summary[kind] != outcomes.count(where: { $0.kind == kind }) {
            fuzzFail(
                "the summary counts \(summary[kind]) \(kind), the outcomes hold \(outcomes.count(where: { $0.kind == kind }))"
            )
        }
    }
}

/// Physical lines as a naive split finds them: a UTF-8 byte-order mark at the
/// very start is dropped, lines end at `\n`, a last line without one counts
/// when it is not empty.
struct NaiveLines {
    struct Line {
        let number: Int
        let start: Int
        let end: Int

        var count: Int { end - start }

        func bytes(in input: [UInt8]) -> [UInt8] { Array(input[start..<end]) }

        /// Only spaces, tabs and `\r` (or nothing).
        func isBlank(in input: [UInt8]) -> Bool {
            input[start..<end].allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        }
    }

    let lines: [Line]

    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    init(_ input: [UInt8]) {
        var lines: [Line] = []
        var start = input.starts(with: NaiveLines.bom) ? 3 : 0
        var number = 1
        while let newline = input[start...].firstIndex(of: 0x0A) {
            lines.append(Line(number: number, start: start, end: newline))
            number += 1
            start = newline + 1
        }
        if start < input.count {
            lines.append(Line(number: number, start: start, end: input.count))
        }
        self.lines = lines
    }
}
