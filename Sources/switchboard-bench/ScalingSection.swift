import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Section 5: the cost per message of the whole `switchboard` process as the stream
/// (and the reference state with it) grows, on the kind corpus and on the corpora
/// whose state grows (``GrowthCorpus``), against `jq -c .` and a Python loop on the
/// same corpus in the same run; a table, and an SVG plot (``ScalingPlot``).
struct ScalingSection {
    let options: Options

    /// One corpus at one size.
    struct Point {
        let messages: Int
        /// Wall-clock and CPU nanoseconds per message (medians), peak RSS (bytes, the largest seen).
        let wall: Double
        let cpu: Double
        let peak: Int
        /// Cart lines or wishlist entries the reference state holds at the end (0 for the kind corpus).
        let state: Int
    }

    /// One corpus: its points, and its peers' nanoseconds per message (wall, CPU) at ``Options/scalingPeerSize``.
    struct Series {
        let corpus: String
        var points: [Point] = []
        var peers: [(name: String, wall: Double, cpu: Double)] = []
        var outcomes = ""
    }

    /// Writes the first `sizes.max()` messages of `corpus` to one file per size (each a
    /// prefix of the next); returns the paths and the state each prefix leaves.
    func writeFiles(_ corpus: String, sizes: [Int]) -> [(size: Int, path: String, state: Int)]? {
        let largest = sizes.max() ?? 0
        var files: [(size: Int, path: String, state: Int, descriptor: Int32, buffer: [UInt8])] = []
        for size in sizes.sorted() {
            let path = "\(options.workDirectory)/scaling-\(corpus)-\(size).ndjson"
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { return nil }
            files.append((size, path, 0, descriptor, []))
        }
        var growth = GrowthCorpus.Kind(rawValue: corpus).map { GrowthCorpus(kind: $0, seed: options.seed) }
        var kind = CorpusGenerator(seed: options.seed)
        var failed = false
        for index in 0..<largest {
            let line = growth?.next() ?? kind.message(index: index).line
            for file in files.indices where index < files[file].size {
                files[file].buffer += line
                files[file].buffer.append(0x0A)
                if index + 1 == files[file].size { files[file].state = growth?.stateSize ?? 0 }
                if files[file].buffer.count >= 1 << 20 || index + 1 == files[file].size {
                    failed =
                        failed || !files[file].buffer.withUnsafeBytes { Processes.writeAll(files[file].descriptor, $0) }
                    files[file].buffer.removeAll(keepingCapacity: true)
                }
            }
        }
        for file in files { close(file.descriptor) }
        return failed ? nil : files.map { ($0.size, $0.path, $0.state) }
    }

    func run(into report: inout Report, cli: String) {
        let sizes = options.scalingSizes.sorted()
        let peerSize = sizes.contains(options.scalingPeerSize) ? options.scalingPeerSize : sizes[0]
        var peers: [ProcessSections.Peer] = []
        if let jq = Processes.which("jq") { peers.append(.init(name: "jq -c .", arguments: [jq, "-c", "."])) }
        if let python = Processes.which("python3") {
            peers.append(.init(name: "python3 loop", arguments: [python, "-c", ProcessSections.pythonLoop]))
        }
        let cliArguments = [cli, "--quiet"]
        var all: [Series] = []
        for corpus in options.scalingCorpora {
            log("scaling: writing the \(corpus) corpus (\(sizes.map(Format.count).joined(separator: ", ")) messages)")
            guard let files = writeFiles(corpus, sizes: sizes) else {
                report.note("Scaling section: cannot write the \(corpus) corpus to \(options.workDirectory).")
                continue
            }
            defer { for file in files { unlink(file.path) } }
            var series = Series(corpus: corpus)
            // One checked run on the smallest size: one outcome line per message.
            let output = "\(options.workDirectory)/scaling-check.ndjson"
            if let run = try? Processes.run(cliArguments, input: .file(files[0].path), outputPath: output) {
                let needles = ["handled", "replied", "invalid", "failed", "unhandled", "malformed"]
                let (lines, matches) = Processes.countLines(
                    of: output, containing: needles.map { "\"outcome\":\"\($0)\"" })
                series.outcomes = zip(needles, matches).map { "\($1) \($0)" }.joined(separator: ", ")
                if lines != files[0].size || run.status > 1 {
                    report.note(
                        "Scaling, \(corpus): the CLI wrote \(lines) lines for \(files[0].size) messages (exit \(run.status))."
                    )
                }
            }
            unlink(output)
            for file in files {
                let own = ProcessSections.Peer(name: "switchboard", arguments: cliArguments)
                let timed = file.size == peerSize ? [own] + peers : [own]
                log(
                    "scaling: \(corpus), \(Format.count(file.size)) messages: \(timed.map(\.name)) × \(options.scalingRepetitions)"
                )
                var wall = Array(repeating: [Double](), count: timed.count)
                var cpu = Array(repeating: [Double](), count: timed.count)
                var peak = 0
                for _ in 0..<options.scalingRepetitions {
                    for (index, peer) in timed.enumerated() {
                        guard let run = try? Processes.run(peer.arguments, input: .file(file.path)), run.status <= 1
                        else {
                            continue
                        }
                        wall[index].append(Double(run.nanoseconds) / Double(file.size))
                        cpu[index].append(Double(run.cpuNanoseconds) / Double(file.size))
                        if index == 0 { peak = max(peak, run.maxResidentBytes) }
                    }
                }
                series.points.append(
                    Point(
                        messages: file.size, wall: median(wall[0]), cpu: median(cpu[0]), peak: peak, state: file.state))
                for index in timed.indices.dropFirst() {
                    series.peers.append((timed[index].name, median(wall[index]), median(cpu[index])))
                }
            }
            all.append(series)
        }
        report.note(table(all, peerSize: peerSize))
        verdicts(all, into: &report)
        if let path = options.plotPath {
            let svg = ScalingPlot(series: all).svg()
            if FileManager.default.createFile(atPath: path, contents: Data(svg.utf8)) {
                report.note("Plot written to \(path).")
            } else {
                report.note("Plot NOT written: cannot create \(path).")
            }
        }
    }

    /// The scaling table, Markdown.
    func table(_ all: [Series], peerSize: Int) -> String {
        var text = "Scaling (section 5): `switchboard` per message as the stream grows; jq and Python timed on the "
        text +=
            "same corpus at \(Format.count(peerSize)) messages in the same run (their cost does not grow with state).\n\n"
        text +=
            "| corpus | messages | state at end | wall / msg | CPU / msg | peak RSS | ÷ jq wall | ÷ jq CPU | ÷ Python wall | ÷ Python CPU |\n"
        text += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for series in all {
            let jq = series.peers.first { $0.name.hasPrefix("jq") }
            let python = series.peers.first { $0.name.hasPrefix("python") }
            for point in series.points {
                func ratio(_ peer: Double?, _ ours: Double) -> String { peer.map { Format.ratio($0 / ours) } ?? "n/a" }
                let state = series.corpus == "kind" ? "a session's" : Format.count(point.state)
                text += "| \(series.corpus) | \(Format.count(point.messages)) | \(state) "
                text +=
                    "| \(Format.nanoseconds(point.wall)) | \(Format.nanoseconds(point.cpu)) | \(Format.mebibytes(point.peak)) "
                text += "| \(ratio(jq?.wall, point.wall)) | \(ratio(jq?.cpu, point.cpu)) "
                text += "| \(ratio(python?.wall, point.wall)) | \(ratio(python?.cpu, point.cpu)) |\n"
            }
        }
        for series in all {
            let peers = series.peers.map {
                "\($0.name) \(Format.nanoseconds($0.wall)) wall, \(Format.nanoseconds($0.cpu)) CPU"
            }
            text +=
                "\n\(series.corpus): \(peers.joined(separator: "; ")); outcomes at \(Format.count(series.points.first?.messages ?? 0)): \(series.outcomes)."
        }
        return text
    }

    /// Rows of the main table: growth (400k ÷ 50k ≤ 1.3×, when both were run) and 4× jq at every size.
    func verdicts(_ all: [Series], into report: inout Report) {
        let name = "5 scaling"
        for series in all {
            let byCount = Dictionary(series.points.map { ($0.messages, $0) }, uniquingKeysWith: { first, _ in first })
            if let small = byCount[50_000], let large = byCount[400_000] {
                // CPU time too: on a shared machine the wall clock moves with the others' load.
                for (clock, growth) in [("wall", large.wall / small.wall), ("CPU", large.cpu / small.cpu)] {
                    report.add(
                        name, "\(series.corpus): \(clock) / msg at 400,000 ÷ at 50,000", "",
                        ratio: Format.ratio(growth),
                        target: "≤ 1.3×", met: growth <= 1.3)
                }
            }
            if let first = series.points.first, let last = series.points.last, last.messages > first.messages {
                report.add(
                    name,
                    "\(series.corpus): wall / msg at \(Format.count(last.messages)) ÷ at \(Format.count(first.messages))",
                    "", ratio: Format.ratio(last.wall / first.wall))
                report.add(
                    name,
                    "\(series.corpus): CPU / msg at \(Format.count(last.messages)) ÷ at \(Format.count(first.messages))",
                    "", ratio: Format.ratio(last.cpu / first.cpu))
            }
            if let jq = series.peers.first(where: { $0.name.hasPrefix("jq") }), !series.points.isEmpty {
                for (clock, jqCost, slowest) in [
                    ("wall clock", jq.wall, series.points.map(\.wall).max() ?? .nan),
                    ("CPU time", jq.cpu, series.points.map(\.cpu).max() ?? .nan),
                ] {
                    report.add(
                        name, "\(series.corpus): ÷ jq -c . at its slowest size, \(clock)", "",
                        ratio: Format.ratio(jqCost / slowest))
                }
            }
        }
    }
}
