import Foundation
import Switchboard

// switchboard-bench: one table of medians and ratios, measured in one run.
// Run with `swift build -c release && swift run -c release switchboard-bench`
// (the CLI section runs the release `switchboard` binary next to this one).

struct Options {
    var quick = false
    var sections: Set<String> = Options.allSections
    static let allSections: Set<String> = [
        "parse", "decode", "router", "channels", "cli", "rss", "scaling", "driver", "floor",
    ]
    var seed: UInt64 = 8
    var messages: Int?
    var rssMessages: Int?
    var repetitions: Int?
    var cliPath: String?
    var workDirectory = NSTemporaryDirectory() + "switchboard-bench"
    var writeCorpus: String?
    /// `sdkReady:3` etc.: only run that router loop (for callgrind), then exit.
    var profileRouter: (channel: String, middleware: Int)?
    /// `AddCartLine:decoder` etc.: only decode that type's bodies (for a profiler), or
    /// compare the two (`compare`), then exit.
    var profileDecode: (kind: DecodeSection.Kind, way: String)?
    var iterations: Int?
    /// Sizes of the channels section (default 1k, 10k, 100k).
    var channelCounts: [Int]?
    /// The scaling section's sizes and corpora, and where it writes its plot.
    var scalingSizesOption: [Int]?
    var scalingCorpora = ["kind"] + GrowthCorpus.Kind.allCases.map(\.rawValue)
    var scalingPeerSize = 200_000
    var plotPath: String? = FileManager.default.fileExists(atPath: "docs") ? "docs/benchmarks-scaling.svg" : nil
    /// Only run the floor section's loops once each, for callgrind, then exit.
    var floorProfile = false

    static let usage = """
        usage: switchboard-bench [--quick] [--sections parse,decode,router,channels,cli,rss,scaling,driver,floor] [--seed N]
                                 [--messages N] [--rss-messages N] [--repetitions N]
                                 [--cli PATH] [--work-dir DIR] [--write-corpus PATH]
                                 [--profile-router sdkReady|addCartLine:0|3] [--profile-decode TYPE:decoder|casts|compare]
                                 [--iterations N]
                                 [--sizes N,N,...] [--corpora kind,lines,wishlist,attributes]
                                 [--peer-size N] [--plot PATH|none] [--channel-counts N,N,...] [--floor-profile]

          --quick            smaller corpus and fewer repetitions (a minute instead of several)
          --sections LIST    which sections to run (default: all of parse,decode,router,channels,cli,rss,scaling,driver,floor)
          --seed N           corpus seed (default 8); the same seed gives the same corpus
          --messages N       messages in the CLI corpus (default 200000; quick 50000); in the floor
                             section, messages per corpus (default 20000; quick 5000)
          --rss-messages N   messages streamed to the CLI for peak RSS (default 2000000; quick 500000)
          --repetitions N    timed repetitions per measurement (default 7; quick 3); medians are reported
          --cli PATH         the switchboard-cli binary (default: next to this executable)
          --work-dir DIR     where the corpus file is written (default: $TMPDIR/switchboard-bench)
          --write-corpus P   write the corpus (--messages, --seed) as NDJSON to P and exit; with
                             --corpora NAME (one of lines,wishlist,attributes), that corpus
          --profile-router C:M  run only the router loop of channel C with M middleware
                             (--iterations times, default 400000) and exit: a driver for
                             `valgrind --tool=callgrind` (see docs/benchmarks.md)
          --profile-decode T:W  decode only the corpus's bodies of type T (AddCartLine, RemoveCartLine,
                             ProductCartUpdate, WishlistEntryUpdate) with W (decoder: BodyDecoder,
                             casts: the hand-written baseline), --iterations passes over them, and
                             exit: a driver for `perf record` or callgrind (see docs/benchmarks.md);
                             W compare: both, alternating --iterations times, on the thread's CPU clock
          --iterations N     router loop length (default 400000; quick 100000)
          --sizes LIST       scaling: stream lengths (default 50000,200000,400000,800000,1600000;
                             quick 50000,200000,400000)
          --corpora LIST     scaling and floor: corpora (default kind,lines,wishlist,attributes; see GrowthCorpus)
          --peer-size N      scaling: the size jq and Python are timed at (default 200000)
          --plot PATH        scaling: where the SVG plot goes (default docs/benchmarks-scaling.svg
                             when ./docs exists); none to skip it
          --channel-counts L channels: how many channels it registers and cancels (default 1000,10000,100000)
          --floor-profile    floor: capture and check each corpus of --corpora, run each timed loop
                             (FloorWorkload.realDecodeLoop, replayDecodeLoop, reusedDecodeLoop,
                             realEncodeLoop, discardEncodeLoop, reusedEncodeLoop) twice, and exit:
                             a driver for callgrind (instructions a message: see docs/benchmarks.md)

        The floor section (8) times, on each corpus, the real decoder and encoder against the floor
        of synthesized Codable: the same init(from:)/encode(to:) calls answered by a replay of the
        real decoder's answers and written into containers that discard them (call counts checked
        equal), also with one keyed container reused per key type, against jq -c . CPU time ÷ 4 on
        the same corpus (see docs/benchmarks.md).
        """

    static func parse(_ arguments: ArraySlice<String>) -> Options {
        var options = Options()
        var rest = arguments
        func value(_ flag: String) -> String {
            guard let value = rest.popFirst() else { fail("\(flag) needs a value") }
            return value
        }
        func number(_ flag: String) -> Int {
            guard let number = Int(value(flag)), number > 0 else { fail("\(flag) needs a positive integer") }
            return number
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": options.quick = true
            case "--sections", "--section":
                let list = Set(value(argument).split(separator: ",").map(String.init))
                guard list.isSubset(of: Options.allSections), !list.isEmpty else {
                    fail(
                        "unknown section in \(list.sorted()); choose from \(Options.allSections.sorted().joined(separator: ","))"
                    )
                }
                options.sections = list
            case "--seed": options.seed = UInt64(number(argument))
            case "--messages": options.messages = number(argument)
            case "--rss-messages": options.rssMessages = number(argument)
            case "--repetitions": options.repetitions = number(argument)
            case "--cli": options.cliPath = value(argument)
            case "--work-dir": options.workDirectory = value(argument)
            case "--write-corpus": options.writeCorpus = value(argument)
            case "--iterations": options.iterations = number(argument)
            case "--channel-counts":
                let counts = value(argument).split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
                guard !counts.isEmpty else { fail("--channel-counts needs positive integers, like 1000,10000") }
                options.channelCounts = counts
            case "--sizes":
                let sizes = value(argument).split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
                guard !sizes.isEmpty else { fail("--sizes needs positive integers, comma-separated") }
                options.scalingSizesOption = sizes
            case "--corpora":
                let list = value(argument).split(separator: ",").map(String.init)
                let known = ["kind"] + GrowthCorpus.Kind.allCases.map(\.rawValue)
                guard !list.isEmpty, list.allSatisfy(known.contains) else {
                    fail("unknown corpus in \(list); choose from \(known.joined(separator: ","))")
                }
                options.scalingCorpora = list
            case "--peer-size": options.scalingPeerSize = number(argument)
            case "--floor-profile": options.floorProfile = true
            case "--plot":
                let path = value(argument)
                options.plotPath = path == "none" ? nil : path
            case "--profile-router":
                let parts = value(argument).split(separator: ":").map(String.init)
                guard parts.count == 2, ["sdkReady", "addCartLine"].contains(parts[0]),
                    let middleware = Int(parts[1]), middleware == 0 || middleware == 3
                else { fail("--profile-router needs sdkReady:0, sdkReady:3, addCartLine:0 or addCartLine:3") }
                options.profileRouter = (parts[0], middleware)
            case "--profile-decode":
                let parts = value(argument).split(separator: ":").map(String.init)
                guard parts.count == 2,
                    let kind = DecodeSection.Kind.allCases.first(where: { $0.typeName == parts[0] }),
                    ["decoder", "casts", "compare"].contains(parts[1])
                else {
                    fail(
                        "--profile-decode needs TYPE:decoder, TYPE:casts or TYPE:compare, TYPE one of "
                            + DecodeSection.Kind.allCases.map(\.typeName).joined(separator: ", "))
                }
                options.profileDecode = (kind, parts[1])
            case "--help", "-h":
                print(usage)
                exit(0)
            default: fail("unknown option \(argument)")
            }
        }
        return options
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("switchboard-bench: \(message)\n\(usage)\n".utf8))
        exit(2)
    }

    var corpusSize: Int { messages ?? (quick ? 50_000 : 200_000) }
    var rssSize: Int { rssMessages ?? (quick ? 500_000 : 2_000_000) }
    var timedRepetitions: Int { repetitions ?? (quick ? 3 : 7) }
    var processRepetitions: Int { repetitions ?? (quick ? 3 : 5) }
    var routerIterations: Int { iterations ?? (quick ? 100_000 : 400_000) }
    var scalingSizes: [Int] {
        scalingSizesOption ?? (quick ? [50_000, 200_000, 400_000] : [50_000, 200_000, 400_000, 800_000, 1_600_000])
    }
    var scalingRepetitions: Int { repetitions ?? (quick ? 1 : 3) }
}

func log(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == "--launch" {
    Processes.launch(CommandLine.arguments.dropFirst(2))
}

let options = Options.parse(CommandLine.arguments.dropFirst())
if options.floorProfile { FloorSection.profile(options) }
let generated = nowNanoseconds()
let corpus = Corpus(count: options.profileRouter == nil ? options.corpusSize : 20_000, seed: options.seed)
let corpusBytes = corpus.ndjson

if let path = options.writeCorpus, options.scalingCorpora.count == 1,
    let kind = GrowthCorpus.Kind(rawValue: options.scalingCorpora[0])
{
    // `--corpora lines --write-corpus P`: a corpus whose state grows, --messages long.
    var growth = GrowthCorpus(kind: kind, seed: options.seed)
    var bytes: [UInt8] = []
    for _ in 0..<options.corpusSize {
        bytes += growth.next()
        bytes.append(0x0A)
    }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        Options.fail("cannot write \(path)")
    }
    log(
        "wrote \(options.corpusSize) \(kind) messages (\(bytes.count) bytes, state at end \(growth.stateSize)) to \(path)"
    )
    exit(0)
}

if let path = options.writeCorpus {
    guard FileManager.default.createFile(atPath: path, contents: Data(corpusBytes)) else {
        Options.fail("cannot write \(path)")
    }
    log("wrote \(corpus.messages.count) messages (\(corpusBytes.count) bytes) to \(path)")
    exit(0)
}

if let (channel, middleware) = options.profileRouter {
    // Everything before this loop is set-up; profile only the loop, e.g.
    // valgrind --tool=callgrind --toggle-collect='*RouterSection*receive*' ...
    let section = RouterSection(corpus: corpus, iterations: options.routerIterations)
    let router = middleware == 0 ? section.bare : section.withMiddleware
    let started = nowNanoseconds()
    let handled = channel == "sdkReady" ? section.receiveSDKReady(router) : section.receiveAddCartLine(router)
    let elapsed = Double(nowNanoseconds() - started) / Double(options.routerIterations)
    log("\(channel) through \(middleware) middleware: \(handled) handled, \(Format.fixed(elapsed, 0)) ns/msg")
    exit(0)
}

if let (kind, way) = options.profileDecode {
    // Set-up, then only the decoding loop: `perf record -g` or
    // `valgrind --tool=callgrind --toggle-collect='*DecodeSection*'`.
    let section = DecodeSection(corpus: corpus, limit: 20_000).only(kind)
    let passes = options.iterations ?? 200
    if way == "compare" {
        guard let floor = DecodeFloor(section) else { Options.fail("the replay does not give the decoder's values") }
        let medians = interleavedMedians(
            repetitions: passes, items: section.samples.count, clock: threadCPUNanoseconds,
            [section.switchboard, section.handWritten, floor.loop])
        log(
            "\(kind.typeName), \(section.samples.count) bodies, \(passes) alternations, thread CPU time: BodyDecoder "
                + "\(Format.nanoseconds(medians[0])), casts \(Format.nanoseconds(medians[1])), "
                + "\(Format.ratio(medians[0] / medians[1])); Codable floor \(Format.nanoseconds(medians[2])) = "
                + "\(Format.fixed(100 * medians[2] / medians[1], 0)) % of the casts")
        exit(0)
    }
    let decoder = way == "decoder"
    let started = nowNanoseconds()
    var checksum = 0
    for _ in 0..<passes { checksum &+= decoder ? section.switchboard() : section.handWritten() }
    let elapsed = Double(nowNanoseconds() - started) / Double(passes * max(section.samples.count, 1))
    log(
        "\(kind.typeName) with \(decoder ? "BodyDecoder" : "the casts"): \(section.samples.count) bodies × \(passes), "
            + "\(Format.fixed(elapsed, 0)) ns/body (checksum \(checksum))")
    exit(0)
}

var report = Report()
let kinds = Dictionary(grouping: corpus.messages, by: \.kind).mapValues(\.count)
log(
    "corpus: \(Format.count(corpus.messages.count)) messages, seed \(options.seed), "
        + "\(Format.fixed(corpus.averageLineBytes, 0)) B average, \(Format.count(corpusBytes.count)) bytes; "
        + "valid \(kinds[.valid] ?? 0), invalid \(kinds[.invalid] ?? 0), unknown channel \(kinds[.unknownChannel] ?? 0) "
        + "(generated in \(Format.fixed(Double(nowNanoseconds() - generated) / 1e6, 0)) ms)")

// MARK: 0. Parse (context)

if options.sections.contains("parse") {
    let section = ParseSection(corpus: corpus, limit: options.quick ? 10_000 : 50_000)
    log("parse: timing \(section.lines.count) lines × \(options.timedRepetitions)")
    let medians = interleavedMedians(
        repetitions: options.timedRepetitions, items: section.lines.count,
        [section.foundation, section.reader, section.tape])
    let name = "0 parse a line"
    let perByte = Double(section.lines.count) / Double(section.bytes)
    for (label, value) in zip(
        ["JSONSerialization.jsonObject", "scanner → JSONValue (JSONReader)", "scanner → tape (the CLI's)"], medians)
    {
        report.add(name, label, Format.nanoseconds(value), ratio: "\(Format.fixed(1000 / (value * perByte), 0)) MB/s")
    }
}

// MARK: 1. Decode

if options.sections.contains("decode") {
    log("decode: preparing")
    let section = DecodeSection(corpus: corpus, limit: options.quick ? 4_000 : 20_000)
    guard section.agree() else {
        log("decode: the three decoders disagree on the corpus; refusing to time them")
        exit(1)
    }
    log("decode: timing \(section.samples.count) bodies × \(options.timedRepetitions)")
    let medians = interleavedMedians(
        repetitions: options.timedRepetitions, items: section.samples.count,
        [section.switchboard, section.handWritten, section.roundTrip])
    let (switchboard, handWritten, roundTrip) = (medians[0], medians[1], medians[2])
    let name = "1 decode [String: Any]"
    report.add(name, "Switchboard BodyDecoder", Format.nanoseconds(switchboard))
    report.add(name, "hand-written as? casts, as strict", Format.nanoseconds(handWritten))
    report.add(name, "JSONSerialization.data → JSONDecoder", Format.nanoseconds(roundTrip))
    report.add(
        name, "BodyDecoder ÷ hand-written", "", ratio: Format.ratio(switchboard / handWritten), target: "≤ 1.2×",
        met: switchboard / handWritten <= 1.2)
    report.add(
        name, "round trip ÷ BodyDecoder", "", ratio: Format.ratio(roundTrip / switchboard), target: "≥ 10×",
        met: roundTrip / switchboard >= 10)
    // Per event type: a mix can hide one type well above the target behind cheaper ones.
    // Each type's passes are short (tens of milliseconds), so they alternate three times as
    // often, on the thread's CPU clock (a busy machine's preemptions are not counted), with
    // the floor of synthesized `Codable` for the same bodies (`DecodeFloor`).
    for kind in DecodeSection.Kind.allCases {
        let part = section.only(kind)
        guard !part.samples.isEmpty else { continue }
        guard let floor = DecodeFloor(part) else {
            log("decode: the replay of \(kind.typeName) does not give the decoder's values; refusing to time it")
            exit(1)
        }
        let times = interleavedMedians(
            repetitions: 3 * options.timedRepetitions, items: part.samples.count, clock: threadCPUNanoseconds,
            [part.switchboard, part.handWritten, floor.loop])
        report.add(
            name, "\(kind.typeName): BodyDecoder / hand-written",
            "\(Format.nanoseconds(times[0])) / \(Format.nanoseconds(times[1]))",
            ratio: Format.ratio(times[0] / times[1]),
            target: "≤ 1.2×", met: times[0] / times[1] <= 1.2)
        report.add(
            name, "\(kind.typeName): Codable floor / hand-written",
            "\(Format.nanoseconds(times[2])) / \(Format.nanoseconds(times[1]))",
            ratio: Format.ratio(times[2] / times[1]))
    }
}

// MARK: 2. Router

if options.sections.contains("router") {
    let iterations = options.routerIterations
    log("router: timing \(iterations) messages × \(options.timedRepetitions)")
    let section = RouterSection(corpus: corpus, iterations: iterations)
    let medians = interleavedMedians(
        repetitions: options.timedRepetitions, items: iterations,
        [
            section.directSDKReady, { section.receiveSDKReady(section.bare) },
            { section.receiveSDKReady(section.withMiddleware) },
            section.directAddCartLine, { section.receiveAddCartLine(section.bare) },
            { section.receiveAddCartLine(section.withMiddleware) },
        ])
    let name = "2 router"
    for (label, offset) in [("sdkReady, no body", 0), ("addCartLine, decoded", 3)] {
        let direct = medians[offset]
        let zero = medians[offset + 1]
        let three = medians[offset + 2]
        report.add(name, "\(label): direct call", Format.nanoseconds(direct))
        report.add(name, "\(label): receive, 0 middleware", Format.nanoseconds(zero))
        report.add(name, "\(label): receive, 3 middleware", Format.nanoseconds(three))
        report.add(name, "\(label): overhead, 0 middleware", Format.nanoseconds(zero - direct))
        // The target is the router's own cost: to a no-op handler (sdkReady, no body).
        // The addCartLine rows add decoding on both sides: context, a difference of two µs medians.
        if offset == 0 {
            report.add(
                name, "\(label): overhead, 3 middleware", Format.nanoseconds(three - direct), target: "≤ 150 ns",
                met: three - direct <= 150)
        } else {
            report.add(name, "\(label): overhead, 3 middleware", Format.nanoseconds(three - direct))
        }
    }
}

// MARK: 7. Many channels

if options.sections.contains("channels") {
    let counts = options.channelCounts ?? [1_000, 10_000, 100_000]
    log("channels: registering and cancelling \(counts.map(Format.count).joined(separator: ", ")) channels")
    ChannelsSection(counts: counts, churn: min(10_000, counts.max() ?? 10_000)).run(into: &report)
}

// MARK: 3 and 4. Whole processes

if options.sections.contains("cli") || options.sections.contains("rss") {
    ProcessSections(options: options, corpus: corpus, corpusBytes: corpusBytes).run(into: &report)
}

// MARK: 5. Scaling

if options.sections.contains("scaling") || options.sections.contains("driver") {
    let cli = ProcessSections(options: options, corpus: corpus, corpusBytes: []).cliPath()
    if access(cli, X_OK) != 0 {
        report.note("Scaling and driver sections skipped: no switchboard binary at \(cli).")
    } else {
        if options.sections.contains("scaling") {
            try? FileManager.default.createDirectory(atPath: options.workDirectory, withIntermediateDirectories: true)
            ScalingSection(options: options).run(into: &report, cli: cli)
        }
        // MARK: 6. A driver that waits for each outcome
        if options.sections.contains("driver") {
            DriverSection(corpus: corpus, rounds: options.quick ? 500 : 2000).run(into: &report, cli: cli)
        }
    }
}

// MARK: 8. The floor of synthesized Codable

if options.sections.contains("floor") {
    let cli = ProcessSections(options: options, corpus: corpus, corpusBytes: []).cliPath()
    FloorSection(options: options).run(into: &report, cli: access(cli, X_OK) == 0 ? cli : nil)
}

print(report.render())
log("(checksum \(checksum & 0xFFFF))")
