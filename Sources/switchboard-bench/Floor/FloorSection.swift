import Foundation
import Switchboard

/// Section 8: the floor of synthesized `Codable` on the bench corpora.
///
/// For each corpus (the kind corpus and the ``GrowthCorpus`` ones), over the messages
/// the CLI would process (``FloorWorkload``), it times per message the real decoder
/// (from the JSON tape, as the handlers decode) and the real encoder (the replies, as
/// the CLI's session encodes them), and the floor: the same synthesized `init(from:)`
/// calls answered by a ``ReplayDecoder`` and the same `encode(to:)` calls into a
/// ``DiscardEncoder``; and that floor with one keyed container reused per key type
/// (``ContainerCache``). The calls are counted on both sides and must be equal. `jq -c .`
/// runs on the same corpus in the same run (whole-process CPU time); the budget is
/// jq ÷ 4, what the whole CLI may spend a message to be 4× jq.
struct FloorSection {
    let options: Options

    /// Messages per corpus (default 20,000, as in the callgrind set-up of docs/benchmarks.md; quick 5,000).
    static func size(_ options: Options) -> Int { options.messages ?? (options.quick ? 5_000 : 20_000) }

    /// One corpus's figures, nanoseconds per corpus message.
    struct Row {
        let corpus: String
        let workload: FloorWorkload
        let realDecode, floorDecode, realEncode, floorEncode: Double
        /// The floor with one keyed container per key type, reused (``ContainerCache``), decode + encode.
        let reused: Double
        let jq: Double?
        let cli: Double?
        let decodeCalls: CallCounts
        let encodeCalls: CallCounts

        var floor: Double { floorDecode + floorEncode }
        var real: Double { realDecode + realEncode }
        var budget: Double? { jq.map { $0 / 4 } }
    }

    /// The first `count` lines of `corpus` (as the scaling section writes them).
    static func lines(_ corpus: String, count: Int, seed: UInt64) -> [[UInt8]] {
        var growth = GrowthCorpus.Kind(rawValue: corpus).map { GrowthCorpus(kind: $0, seed: seed) }
        var kind = CorpusGenerator(seed: seed)
        return (0..<count).map { index in growth?.next() ?? kind.message(index: index).line }
    }

    /// The corpus captured and checked: the replay must give the real decoder's values
    /// and errors, and both sides must make the same calls. `nil` (with why) otherwise.
    static func workload(_ corpus: String, lines: [[UInt8]]) -> (FloorWorkload?, String) {
        let workload: FloorWorkload
        do {
            workload = try FloorWorkload(corpus: corpus, lines: lines)
        } catch {
            return (nil, "\(corpus): cannot capture the corpus: \(error)")
        }
        let differ = workload.disagreements()
        let recorded = workload.replay.counts(replayed: false)
        let replayed = workload.replay.counts(replayed: true)
        guard differ == 0, recorded == replayed else {
            return (
                nil,
                "\(corpus): the replay differs from the real decoder on \(differ) bodies; calls real "
                    + "\(recorded.summary), floor \(replayed.summary)"
            )
        }
        guard let realEncoding = workload.encodingCounts(real: true),
            let floorEncoding = workload.encodingCounts(real: false), realEncoding == floorEncoding
        else {
            return (nil, "\(corpus): the encoding calls differ between the real and the discard encoder")
        }
        return (workload, "")
    }

    func run(into report: inout Report, cli: String?) {
        let count = FloorSection.size(options)
        let jq = Processes.which("jq")
        if jq == nil { report.note("Floor section: jq not installed, no budget.") }
        try? FileManager.default.createDirectory(atPath: options.workDirectory, withIntermediateDirectories: true)
        var rows: [Row] = []
        for corpus in options.scalingCorpora {
            log("floor: capturing and recording the \(corpus) corpus (\(Format.count(count)) messages)")
            let lines = FloorSection.lines(corpus, count: count, seed: options.seed)
            let (captured, problem) = FloorSection.workload(corpus, lines: lines)
            guard let workload = captured else {
                report.note("Floor section: \(problem); not timed.")
                continue
            }
            log("floor: \(corpus): timing decode and encode, real and floor, × \(options.timedRepetitions)")
            let medians = interleavedMedians(
                repetitions: options.timedRepetitions, items: count, clock: threadCPUNanoseconds,
                [
                    workload.realDecodeLoop, workload.replayDecodeLoop, workload.realEncodeLoop,
                    workload.discardEncodeLoop, workload.reusedDecodeLoop, workload.reusedEncodeLoop,
                ])
            // The last decode loop timed was the reused one: its calls, too, must be the recording's.
            if workload.replay.counts(replayed: true) != workload.replay.counts(replayed: false) {
                report.note("Floor section: \(corpus): the timed replay made other calls than the recording.")
            }
            let path = "\(options.workDirectory)/floor-\(corpus)-\(count).ndjson"
            let bytes = lines.reduce(into: [UInt8]()) { all, line in all += line + [0x0A] }
            var jqCost: Double?
            var cliCost: Double?
            if FileManager.default.createFile(atPath: path, contents: Data(bytes)) {
                defer { unlink(path) }
                log("floor: \(corpus): timing jq -c . and the CLI × \(options.processRepetitions)")
                jqCost = jq.flatMap { processCost([$0, "-c", "."], path: path, count: count) }
                cliCost = cli.flatMap { processCost([$0, "--quiet", "--no-read-ahead"], path: path, count: count) }
            }
            rows.append(
                Row(
                    corpus: corpus, workload: workload, realDecode: medians[0], floorDecode: medians[1],
                    realEncode: medians[2], floorEncode: medians[3], reused: medians[4] + medians[5], jq: jqCost,
                    cli: cliCost,
                    decodeCalls: workload.replay.counts(replayed: true),
                    encodeCalls: workload.encodingCounts(real: false) ?? CallCounts()))
        }
        guard !rows.isEmpty else { return }
        report.note(table(rows))
        for row in rows {
            guard let budget = row.budget else { continue }
            report.add(
                "8 floor", "\(row.corpus): floor of Codable (decode + encode) ÷ (jq CPU ÷ 4)", "",
                ratio: Format.ratio(row.floor / budget))
            report.add(
                "8 floor", "\(row.corpus): floor, containers reused ÷ (jq CPU ÷ 4)", "",
                ratio: Format.ratio(row.reused / budget))
            report.add(
                "8 floor", "\(row.corpus): real decode + encode ÷ (jq CPU ÷ 4)", "",
                ratio: Format.ratio(row.real / budget))
        }
    }

    /// The median whole-process CPU nanoseconds a message of `arguments` on the corpus at `path`.
    private func processCost(_ arguments: [String], path: String, count: Int) -> Double? {
        var samples: [Double] = []
        for _ in 0..<options.processRepetitions {
            guard let run = try? Processes.run(arguments, input: .file(path)), run.status <= 1 else { continue }
            samples.append(Double(run.cpuNanoseconds) / Double(count))
        }
        return samples.isEmpty ? nil : median(samples)
    }

    /// The floor table, Markdown, with the call counts of each corpus under it.
    func table(_ rows: [Row]) -> String {
        var text = "Floor of synthesized Codable (section 8), CPU ns per corpus message (medians); the budget is "
        text += "jq -c . CPU time ÷ 4, timed on the same corpus in the same run.\n\n"
        text += "| corpus | msgs | bodies (invalid) | replies | decode real | decode floor | encode real "
        text += "| encode floor | floor total | floor, reused | real total | jq CPU | budget jq ÷ 4 | floor ÷ budget "
        text += "| reused ÷ budget | real ÷ budget | CLI CPU | CLI ÷ budget |\n"
        text += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        func ns(_ value: Double?) -> String { value.map { Format.fixed($0, 0) } ?? "n/a" }
        func percent(_ value: Double, _ budget: Double?) -> String {
            budget.map { "\(Format.fixed(100 * value / $0, 0)) %" } ?? "n/a"
        }
        for row in rows {
            let workload = row.workload
            text += "| \(row.corpus) | \(Format.count(workload.messages)) "
            text += "| \(Format.count(workload.kinds.count)) (\(Format.count(workload.invalid))) "
            text += "| \(Format.count(workload.replies.count)) | \(ns(row.realDecode)) | \(ns(row.floorDecode)) "
            text += "| \(ns(row.realEncode)) | \(ns(row.floorEncode)) | \(ns(row.floor)) | \(ns(row.reused)) "
            text += "| \(ns(row.real)) | \(ns(row.jq)) | \(ns(row.budget)) | \(percent(row.floor, row.budget)) "
            text += "| \(percent(row.reused, row.budget)) "
            text += "| \(percent(row.real, row.budget)) | \(ns(row.cli)) "
            text += "| \(row.cli.map { c in percent(c, row.budget) } ?? "n/a") |\n"
        }
        text +=
            "\nCalls counted on the real decoder and encoder and on the floor's (equal, or the corpus is not timed):"
        for row in rows {
            let messages = Double(row.workload.messages)
            text += "\n- \(row.corpus): decode \(row.decodeCalls.summary) "
            text += "(\(Format.fixed(Double(row.decodeCalls.total) / messages, 1)) a message); "
            text +=
                "encode \(row.encodeCalls.summary) (\(Format.fixed(Double(row.encodeCalls.total) / messages, 1)) a message)."
            if row.workload.pending > 0 {
                text +=
                    " \(row.workload.pending) requests were still pending after receive (their replies are not encoded here)."
            }
        }
        return text
    }

    /// `--floor-profile`: captures and checks each corpus of `--corpora`, runs each timed loop
    /// twice (`FloorWorkload.realDecodeLoop` … `reusedEncodeLoop`), and exits: a driver for
    /// `valgrind --tool=callgrind`, whose inclusive cost of each loop ÷ the messages is
    /// instructions a message (see docs/benchmarks.md).
    static func profile(_ options: Options) -> Never {
        let count = size(options)
        for corpus in options.scalingCorpora {
            let (captured, problem) = workload(corpus, lines: lines(corpus, count: count, seed: options.seed))
            guard let workload = captured else {
                log("floor-profile: \(problem)")
                exit(1)
            }
            // Once each before the loops, so no loop pays for first-use metadata.
            checksum &+= workload.realDecodeLoop() &+ workload.replayDecodeLoop()
            checksum &+= workload.realEncodeLoop() &+ workload.discardEncodeLoop()
            checksum &+= workload.realDecodeLoop()
            checksum &+= workload.replayDecodeLoop()
            checksum &+= workload.realEncodeLoop()
            checksum &+= workload.discardEncodeLoop()
            checksum &+= workload.reusedDecodeLoop()
            checksum &+= workload.reusedDecodeLoop()
            checksum &+= workload.reusedEncodeLoop()
            checksum &+= workload.reusedEncodeLoop()
            log(
                "floor-profile: \(corpus): \(count) messages, \(workload.kinds.count) bodies, "
                    + "\(workload.replies.count) replies; each loop ran twice (checksum \(checksum & 0xFFFF))")
        }
        exit(0)
    }
}
