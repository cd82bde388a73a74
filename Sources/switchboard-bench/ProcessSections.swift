import Foundation

/// Sections 3 and 4: the whole `switchboard` process on the corpus, against
/// `jq -c .` and a Python `json.loads`/`json.dumps` loop, and its peak memory
/// on a long stream.
struct ProcessSections {
    let options: Options
    let corpus: Corpus
    let corpusBytes: [UInt8]

    struct Peer {
        let name: String
        let arguments: [String]
    }

    static let pythonLoop = """
        import sys, json
        loads, dumps, write = json.loads, json.dumps, sys.stdout.write
        for line in sys.stdin:
            if line.strip():
                write(dumps(loads(line)) + "\\n")
        """

    func cliPath() -> String {
        options.cliPath ?? Processes.ownDirectory() + "/switchboard-cli"
    }

    func run(into report: inout Report) {
        let fileManager = FileManager.default
        try? fileManager.createDirectory(atPath: options.workDirectory, withIntermediateDirectories: true)
        let corpusPath = "\(options.workDirectory)/corpus-seed\(options.seed)-\(corpus.messages.count).ndjson"
        guard fileManager.createFile(atPath: corpusPath, contents: Data(corpusBytes)) else {
            report.note("CLI sections skipped: cannot write the corpus to \(corpusPath).")
            return
        }
        let cli = cliPath()
        guard access(cli, X_OK) == 0 else {
            report.note(
                "CLI sections skipped: no switchboard-cli binary at \(cli) "
                    + "(build it with `swift build -c release --product switchboard-cli`, or pass --cli PATH).")
            return
        }
        let count = corpus.messages.count
        let cliPeer = Peer(name: "switchboard (release)", arguments: [cli, "--quiet"])
        // The CLI as it runs by default reads ahead on a second thread; on one thread it is this.
        let oneThreadPeer = Peer(name: "switchboard --no-read-ahead", arguments: [cli, "--quiet", "--no-read-ahead"])

        if options.sections.contains("cli") {
            var peers = [cliPeer, oneThreadPeer]
            if let jq = Processes.which("jq") {
                peers.append(Peer(name: "jq -c .", arguments: [jq, "-c", "."]))
            } else {
                report.note("jq skipped: not installed (no jq on PATH).")
            }
            if let python = Processes.which("python3") {
                peers.append(Peer(name: "python3 json.loads/dumps loop", arguments: [python, "-c", Self.pythonLoop]))
            } else {
                report.note("Python loop skipped: not installed (no python3 on PATH).")
            }
            // One checked run each: every peer must write one line per message.
            var working: [Peer] = []
            for peer in peers {
                let output = "\(options.workDirectory)/check-output.ndjson"
                let errors = "\(options.workDirectory)/check-errors.txt"
                do {
                    let run = try Processes.run(
                        peer.arguments, input: .file(corpusPath), outputPath: output, errorPath: errors)
                    let needles = [
                        "\"outcome\":\"handled\"", "\"outcome\":\"replied\"", "\"outcome\":\"invalid\"",
                        "\"outcome\":\"failed\"", "\"outcome\":\"unhandled\"", "\"outcome\":\"malformed\"",
                    ]
                    let (lines, matches) = Processes.countLines(of: output, containing: needles)
                    guard lines == count, run.status <= 1 else {
                        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8))?.prefix(400) ?? ""
                        report.note(
                            "\(peer.name) skipped: wrote \(lines) lines for \(count) messages, exit \(run.status). \(stderr)"
                        )
                        continue
                    }
                    if peer.name == cliPeer.name {
                        let names = ["handled", "replied", "invalid", "failed", "unhandled", "malformed"]
                        let summary = zip(names, matches).map { "\($1) \($0)" }.joined(separator: ", ")
                        report.note("CLI outcomes on the corpus: \(summary).")
                    }
                    working.append(peer)
                } catch {
                    report.note("\(peer.name) skipped: \(error)")
                }
            }
            try? fileManager.removeItem(atPath: "\(options.workDirectory)/check-output.ndjson")
            log("cli: timing \(working.map(\.name)) on \(count) messages × \(options.processRepetitions)")
            var samples = Array(repeating: [Double](), count: working.count)
            var cpuSamples = Array(repeating: [Double](), count: working.count)
            var peaks = Array(repeating: 0, count: working.count)
            for _ in 0..<options.processRepetitions {
                for (index, peer) in working.enumerated() {
                    guard let run = try? Processes.run(peer.arguments, input: .file(corpusPath)) else { continue }
                    samples[index].append(Double(count) / (Double(run.nanoseconds) / 1e9))
                    cpuSamples[index].append(Double(count) / (Double(run.cpuNanoseconds) / 1e9))
                    peaks[index] = max(peaks[index], run.maxResidentBytes)
                }
            }
            let rates = samples.map(median)
            let cpuRates = cpuSamples.map(median)
            let name = "3 whole process"
            for (index, peer) in working.enumerated() {
                report.add(name, "\(peer.name), \(Format.count(count)) msgs, wall clock", Format.rate(rates[index]))
            }
            for (index, peer) in working.enumerated() {
                report.add(name, "\(peer.name), \(Format.count(count)) msgs, CPU time", Format.rate(cpuRates[index]))
            }
            let ours = working.indices.filter { working[$0].name.hasPrefix("switchboard") }
            let theirs = working.indices.filter { !working[$0].name.hasPrefix("switchboard") }
            for own in ours {
                let label = working[own].name == cliPeer.name ? "switchboard" : working[own].name
                for (clock, values) in [("wall clock", rates), ("CPU time", cpuRates)] {
                    for index in theirs {
                        let peer = working[index]
                        // A ratio, not a target: the general path stays general (docs/benchmarks.md).
                        let ratio = values[own] / values[index]
                        report.add(name, "\(label) ÷ \(peer.name), \(clock)", "", ratio: Format.ratio(ratio))
                    }
                }
            }
            let memory = zip(working, peaks).map { "\($0.name) \(Format.mebibytes($1))" }.joined(separator: ", ")
            report.note("Peak RSS on \(Format.count(count)) messages: \(memory).")
        }

        if options.sections.contains("rss") {
            let total = options.rssSize
            let repetitions = options.quick ? 1 : 3
            log("rss: streaming \(total) messages to the CLI × \(repetitions)")
            var peaks: [Double] = []
            var seconds: [Double] = []
            var failure: String?
            for _ in 0..<repetitions {
                let bytes = corpusBytes
                let messages = corpus.messages.count
                let produce: @Sendable (Int32) -> Void = { descriptor in
                    var sent = 0
                    bytes.withUnsafeBytes { raw in
                        while sent < total {
                            let take = min(messages, total - sent)
                            if take == messages {
                                guard Processes.writeAll(descriptor, raw) else { return }
                            } else {
                                var end = 0
                                var lines = 0
                                while lines < take, end < raw.count {
                                    if raw[end] == 0x0A { lines += 1 }
                                    end += 1
                                }
                                guard Processes.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: raw[0..<end]))
                                else {
                                    return
                                }
                            }
                            sent += take
                        }
                    }
                }
                do {
                    let run = try Processes.run(cliPeer.arguments, input: .generated(produce))
                    guard run.status <= 1 else {
                        failure = "exit status \(run.status)"
                        break
                    }
                    peaks.append(Double(run.maxResidentBytes))
                    seconds.append(Double(run.nanoseconds) / 1e9)
                } catch {
                    failure = "\(error)"
                    break
                }
            }
            let name = "4 peak RSS"
            if let failure {
                report.note("Peak RSS section failed: \(failure).")
            } else {
                let peak = median(peaks)
                report.add(
                    name, "switchboard, \(Format.count(total)) msgs streamed", Format.mebibytes(Int(peak)),
                    target: "≤ 40 MiB", met: peak <= 40 * 1_048_576)
                report.note(
                    "The \(Format.count(total))-message stream took \(Format.fixed(median(seconds), 1)) s "
                        + "(\(Format.rate(Double(total) / median(seconds)))).")
            }
        }
    }
}
