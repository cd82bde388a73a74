// The `switchboard` command (product `switchboard-cli`, installed as `switchboard`):
// argument parsing and wiring only. The wire format lives in SwitchboardWire, the
// handlers in SwitchboardCommerce.

import Switchboard
import SwitchboardCommerce
import SwitchboardWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The version, the same as the newest release in CHANGELOG.md (a test checks).
let version = "0.1.0"

/// The name the command was run by (`switchboard` once installed as the README
/// shows, `switchboard-cli` from `swift run`), used in its usage and messages.
let programName: String = {
    let invoked = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? ""
    return invoked.isEmpty ? "switchboard" : invoked
}()

/// The largest `--max-depth` accepted: the library's own ceiling.
let maxDepthCeiling = DecodingOptions.maxDepthCeiling

let usage = """
    USAGE: \(programName) [OPTIONS] [PATH ...]
           \(programName) manifest [--only CHANNEL[,CHANNEL...]]
           \(programName) schema [--only CHANNEL[,CHANNEL...]] [--typescript | --write DIR]
           \(programName) schema diff OLD NEW | DIR [--format text|json] [--fail-on-unknown]
           \(programName) client --out DIR [--only CHANNEL[,CHANNEL...]]

    Routes wire messages ({"name": ..., "body": ..., "id": ...}) through one router
    with the reference commerce handlers, in order, and writes one NDJSON outcome
    line per message to stdout: handled, replied, failed, invalid, unhandled,
    malformed or rejected. A summary goes to stderr. `manifest` prints what the web
    side is told (channels, features, the contract's digest); `schema` prints the
    channels' contract as JSON Schema (draft 2020-12), or as TypeScript with --typescript,
    or records it as DIR/VERSION.json with --write; `schema diff` compares two contract
    documents (or the newest two in DIR, by version) and classifies every change as
    breaking, compatible or unknown by the direction its values travel; `client` writes
    the page client (DIR/switchboard.js and DIR/switchboard.d.ts) of the contract, or of
    the channels named by --only (event, request and push channels).

    ARGUMENTS:
      PATH                  a .ndjson file (one message per line), a .json file (one
                            message object or an array of them), a directory (its
                            .json and .ndjson files, sorted, *.expected.ndjson left
                            out), or - for stdin; no PATH reads stdin

    OPTIONS:
      --only CHANNEL[,...]  install only these reference handlers (repeatable)
      --typescript          schema: print TypeScript declarations instead
      --write DIR           schema: write the contract to DIR/\(version).json (the
                            version of this release), creating DIR if needed
      --format text|json    schema diff: one line per change, breaking first (text,
                            the default), or {"breaking":[...],"compatible":[...],
                            "unknown":[...]} (json)
      --fail-on-unknown     schema diff: exit 1 when a change is unknown, too
      --out DIR             client: the directory to write switchboard.js and
                            switchboard.d.ts into (made when missing)
      --push                also write the app's pushes as {"push":NAME,"body":...}
                            lines, in order with the outcome lines, and the
                            manifest as {"manifest":...} first and after each change
      --max-line-bytes N    the longest input line accepted (default 1048576)
      --max-depth N         the deepest nesting of arrays and objects accepted
                            in a message (default \(DecodingOptions.defaultMaxDepth), at most \(maxDepthCeiling))
      --reply-deadline S    seconds a request waits for its reply (default 10)
      --allow-origin PATTERN
                            turn the origin policy on for every channel and admit
                            this origin (https://shop.example.com) or the
                            subdomains of a domain (https://*.example.com);
                            repeatable. A message's "origin" and "mainFrame" are
                            then checked: anything else is rejected
      --allow-subframes     with --allow-origin, admit sub-frame messages too
                            (without it, main-frame messages only); no effect
                            without --allow-origin
      --no-read-ahead       read and parse lines on the routing thread (by default a
                            second thread reads .ndjson input ahead, when the machine
                            has more than one processor)
      -q, --quiet           no summary on stderr
      -h, --help            show this help
      --version             show the version

    CHANNELS: \(ReferenceCommerce.channels.map(\.name).joined(separator: ", "))

    EXIT STATUS: 0 when every message was handled or replied, 1 when any was not
    (rejected included), 2 for a usage error. schema diff: 0 when nothing breaks
    (also for a DIR holding one contract: nothing to compare), 1 when something does,
    2 for unreadable input or a usage error.

    """

/// What the command line asks for.
struct Invocation {
    enum Command {
        case run
        case manifest
        case schema
        case client
        case help
        case version
    }

    var command = Command.run
    var only: Set<Channel>?
    var maxLineBytes = 1 << 20
    var maxDepth = DecodingOptions.defaultMaxDepth
    var replyDeadline = Duration.seconds(10)
    var quiet = false
    var readAhead = true
    var typeScript = false
    var pushes = false
    var outDirectory: String?
    /// `client --only`: the contract's channels to generate the client for.
    var clientOnly: [String]?
    /// `schema diff`: compare contract documents instead of printing one.
    var diff = false
    var diffFormat = DiffFormat.text
    var failsOnUnknown = false
    var formatGiven = false
    /// `schema --write DIR`.
    var writeDirectory: String?
    var allowedOrigins: [OriginPattern] = []
    var allowsSubframes = false
    var paths: [String] = []
}

struct UsageError: Error {
    let message: String
}

/// The arguments after the program's name, and the indices of those whose bytes are not valid
/// UTF-8. `CommandLine.arguments` repairs such bytes (U+FFFD), so a file named by them would be
/// looked for under another name and reported missing: the raw bytes (`unsafeArgv`) tell.
func commandLineArguments() -> (arguments: [String], notUTF8: Set<Int>) {
    var arguments: [String] = []
    var notUTF8: Set<Int> = []
    // `stride`, not `1..<argc`: a program may be started with no arguments at all (argc 0).
    for position in stride(from: 1, to: Int(CommandLine.argc), by: 1) {
        guard let pointer = CommandLine.unsafeArgv[position] else { continue }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)).bindMemory(to: UInt8.self)
        // Decoding repairs what is not UTF-8, so such an argument does not come back the same.
        let text = String(decoding: bytes, as: UTF8.self)
        if !text.utf8.elementsEqual(bytes) { notUTF8.insert(arguments.count) }
        arguments.append(text)
    }
    return (arguments, notUTF8)
}

/// Reads the arguments; `notUTF8` holds the indices of those whose bytes were not valid UTF-8
/// (repaired in `arguments`): such a PATH is refused by name rather than reported missing.
func parse(_ arguments: [String], notUTF8: Set<Int> = []) throws(UsageError) -> Invocation {
    var invocation = Invocation()
    var rest = arguments[...]
    switch rest.first {
    case "manifest":
        invocation.command = .manifest
        rest = rest.dropFirst()
    case "schema":
        invocation.command = .schema
        rest = rest.dropFirst()
        if rest.first == "diff" {
            invocation.diff = true
            rest = rest.dropFirst()
        }
    case "client":
        invocation.command = .client
        rest = rest.dropFirst()
    default:
        break
    }
    var optionsEnded = false
    while let position = rest.indices.first, let argument = rest.popFirst() {
        if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
            if notUTF8.contains(position) {
                throw UsageError(
                    message: "\(argument): PATH is not valid UTF-8 (shown with U+FFFD), so it cannot be opened;"
                        + " rename the file, or pass it on standard input")
            }
            invocation.paths.append(argument)
            continue
        }
        var name = argument
        var inlineValue: String?
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            name = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        func value() throws(UsageError) -> String {
            if let inlineValue { return inlineValue }
            guard let next = rest.popFirst() else { throw UsageError(message: "\(name) needs a value") }
            return next
        }
        // A flag given a value (`--quiet=no`) is refused, not read as the flag.
        func flag() throws(UsageError) {
            if inlineValue != nil { throw UsageError(message: "\(name) takes no value") }
        }
        switch name {
        case "--":
            try flag()
            optionsEnded = true
        case "-h", "--help":
            try flag()
            invocation.command = .help
        case "--version":
            try flag()
            invocation.command = .version
        case "-q", "--quiet":
            try flag()
            invocation.quiet = true
        case "--no-read-ahead":
            try flag()
            invocation.readAhead = false
        case "--typescript":
            try flag()
            invocation.typeScript = true
        case "--write":
            invocation.writeDirectory = try value()
        case "--format":
            let text = try value()
            guard let format = DiffFormat(rawValue: text) else {
                throw UsageError(message: "--format: expected text or json, got \"\(text)\"")
            }
            invocation.diffFormat = format
            invocation.formatGiven = true
        case "--fail-on-unknown":
            try flag()
            invocation.failsOnUnknown = true
        case "--allow-origin":
            let text = try value()
            do {
                invocation.allowedOrigins.append(try OriginPattern(parsing: text))
            } catch {
                throw UsageError(
                    message: "--allow-origin: \(error.description) (expected scheme://host[:port] or scheme://*.domain)"
                )
            }
        case "--allow-subframes":
            try flag()
            invocation.allowsSubframes = true
        case "--push":
            try flag()
            invocation.pushes = true
        case "--out":
            invocation.outDirectory = try value()
        case "--only" where invocation.command == .client:
            // Checked against the contract (pushes included) once it is known.
            let names = try value().split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            invocation.clientOnly = (invocation.clientOnly ?? []) + names
        case "--only":
            let names = try value().split(separator: ",", omittingEmptySubsequences: false)
            var channels = invocation.only ?? []
            for name in names {
                guard let channel = try? Channel(validating: String(name)),
                    ReferenceCommerce.channels.contains(channel)
                else {
                    throw UsageError(message: "--only: unknown channel \"\(name)\"")
                }
                channels.insert(channel)
            }
            invocation.only = channels
        case "--max-line-bytes":
            let text = try value()
            guard let bytes = Int(text), bytes > 0 else {
                throw UsageError(message: "--max-line-bytes: expected a positive number of bytes, got \"\(text)\"")
            }
            invocation.maxLineBytes = bytes
        case "--max-depth":
            let text = try value()
            // A ceiling, because some paths (building and releasing a JSONValue) recurse
            // once per level: the limit must be one the thread's stack can always take.
            guard let depth = Int(text), (1...maxDepthCeiling).contains(depth) else {
                throw UsageError(
                    message: "--max-depth: expected a number of levels from 1 to \(maxDepthCeiling), got \"\(text)\"")
            }
            invocation.maxDepth = depth
        case "--reply-deadline":
            let text = try value()
            guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else {
                throw UsageError(
                    message: "--reply-deadline: expected a number of seconds above 0 and at most 86400, got \"\(text)\""
                )
            }
            invocation.replyDeadline = .milliseconds(Int64((seconds * 1000).rounded(.up)))
        default:
            throw UsageError(message: "unknown option \(name)")
        }
    }
    try checkSchemaOptions(invocation)
    if invocation.command == .manifest || (invocation.command == .schema && !invocation.diff)
        || invocation.command == .client
    {
        if !invocation.paths.isEmpty { throw UsageError(message: "\(invocation.command) takes no PATH") }
    }
    if invocation.command == .client, invocation.outDirectory == nil {
        throw UsageError(message: "client needs --out DIR")
    }
    if invocation.outDirectory != nil, invocation.command != .client {
        throw UsageError(message: "--out is an option of client")
    }
    if invocation.pushes, invocation.command != .run {
        throw UsageError(message: "--push is an option of routing messages, not of \(invocation.command)")
    }
    if invocation.typeScript && invocation.command != .schema {
        throw UsageError(message: "--typescript is an option of schema")
    }
    return invocation
}

func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = writeAll(2, UnsafeRawBufferPointer(bytes)) }
}

/// Writes `bytes` to stdout: 0, or 1 after saying on stderr why they could not be written.
func writeStandardOutput(_ bytes: [UInt8]) -> Int32 {
    guard let code = bytes.withUnsafeBytes({ writeAll(1, $0) }) else { return 0 }
    writeStandardError("\(programName): \(WireIOError(operation: "write", name: "stdout", code: code))\n")
    return 1
}

func fail(usage message: String) -> Never {
    writeStandardError("\(programName): \(message)\n\n\(usage)")
    exit(2)
}

/// The manifest as one line: `{"channels":[…],"features":{…},"contract":"sha256:…"}`, names sorted.
func manifestLine(_ manifest: Manifest) -> [UInt8] {
    // `BodyEncoder` keeps the manifest's encode order: names sorted, optional parts when present.
    let json = (try? BodyEncoder().encodeJSON(manifest)) ?? Array(#"{"channels":[],"features":{}}"#.utf8)
    return json + [0x0A]
}

/// The contract as its canonical JSON document on one line, or as TypeScript declarations.
func schemaText(_ contract: Contract, typeScript: Bool) -> [UInt8] {
    Array((typeScript ? contract.typeScript : contract.json + "\n").utf8)
}

/// Writes the page client of `contract` (narrowed to `only`) into `directory`: `switchboard.js`
/// and `switchboard.d.ts`. Exit status 0, 1 when writing fails, 2 for an unknown channel.
func writeClient(of contract: Contract, only: [String]?, to directory: String) -> Int32 {
    var chosen = contract
    if let only {
        var channels: Set<Channel> = []
        for name in only {
            guard let channel = try? Channel(validating: name), contract.channels[channel] != nil else {
                let known = contract.channels.keys.map(\.name).sorted().joined(separator: ", ")
                fail(usage: "--only: unknown channel \"\(name)\" (known: \(known))")
            }
            channels.insert(channel)
        }
        chosen = contract.restricted(to: channels)
    }
    let client = chosen.client
    if mkdir(directory, 0o755) != 0, errno != EEXIST {
        writeStandardError("\(programName): client: cannot make \(directory): \(String(cString: strerror(errno)))\n")
        return 1
    }
    for (name, text) in [("switchboard.js", client.javaScript), ("switchboard.d.ts", client.typeScript)] {
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            writeStandardError("\(programName): client: cannot write \(path): \(String(cString: strerror(errno)))\n")
            return 1
        }
        var text = text
        let failure = text.withUTF8 { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
        close(descriptor)
        if let failure {
            writeStandardError("\(programName): client: cannot write \(path): \(String(cString: strerror(failure)))\n")
            return 1
        }
    }
    return 0
}

func main() -> Int32 {
    // A closed stdout (`switchboard … | head -1`) is a write error reported with exit status 1
    // (docs/cli.md), not a death by SIGPIPE without a word.
    signal(SIGPIPE, SIG_IGN)
    let invocation: Invocation
    do {
        let (arguments, notUTF8) = commandLineArguments()
        invocation = try parse(arguments, notUTF8: notUTF8)
    } catch {
        fail(usage: error.message)
    }
    switch invocation.command {
    case .help:
        return writeStandardOutput(Array(usage.utf8))
    case .version:
        return writeStandardOutput(Array("\(programName) \(version)\n".utf8))
    case .manifest, .run, .schema, .client:
        break
    }
    if invocation.diff { return runSchemaDiff(invocation) }

    let router = Router(
        options: RouterOptions(
            decoding: DecodingOptions(maxDepth: invocation.maxDepth), defaultDeadline: invocation.replyDeadline,
            originPolicy: invocation.allowedOrigins.isEmpty
                ? nil : OriginPolicy(allowed: invocation.allowedOrigins, allowsSubframes: invocation.allowsSubframes)))
    let commerce: CommerceInstallation
    do {
        commerce = try router.installReferenceCommerce(only: invocation.only)
    } catch {
        fail(usage: error.description)
    }
    defer { withExtendedLifetime(commerce) {} }

    if invocation.command == .client, let directory = invocation.outDirectory {
        return writeClient(of: Contract(router: router), only: invocation.clientOnly, to: directory)
    }
    if let directory = invocation.writeDirectory {
        return writeContract(Contract(router: router), to: directory, quiet: invocation.quiet)
    }
    if invocation.command == .manifest || invocation.command == .schema {
        let text =
            invocation.command == .manifest
            ? manifestLine(router.manifest) : schemaText(Contract(router: router), typeScript: invocation.typeScript)
        return writeStandardOutput(text)
    }

    let inputs: [WireInput]
    do {
        inputs = try WireInput.resolve(invocation.paths)
    } catch {
        fail(usage: error.description)
    }

    var session = WireSession(
        router: router,
        options: WireSession.Options(
            maxLineBytes: invocation.maxLineBytes, reader: JSONReader(maxDepth: invocation.maxDepth)))
    // Without --push, nothing is followed and nothing but outcome lines is written.
    var output = WireNoticeSink(
        NDJSONOutput(descriptor: 1),
        notices: invocation.pushes ? WireNotices(router: router) : WireNotices.none)
    // With --push, the manifest goes out at once, before any message is read: a page waits for it.
    do {
        try output.flush()
    } catch {
        writeStandardError("\(programName): \(error)\n")
        return 1
    }
    // A page's hello that states contract digests other than the router's: said on stderr, once per hello.
    let skewReports =
        invocation.quiet
        ? nil
        : router.observeDiagnostics { diagnostic in
            if case .contractSkew = diagnostic { writeStandardError("\(programName): contract skew: \(diagnostic)\n") }
        }
    defer { skewReports?.cancel() }
    let showProgress = !invocation.quiet && isatty(2) == 1
    let started = ContinuousClock.now
    var lastProgress = started
    var progressShown = false
    let progress: ((WireSummary) -> Void)? =
        showProgress
        ? { summary in
            let now = ContinuousClock.now
            guard now - started > .seconds(1), now - lastProgress > .milliseconds(200) else { return }
            lastProgress = now
            progressShown = true
            writeStandardError("\r\(programName): \(summary.total) messages…")
        } : nil
    do {
        // Reading ahead pays only with a second processor to read on.
        let readsAhead = invocation.readAhead && sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1
        try WirePipeline(readsAhead: readsAhead).run(inputs, session: &session, into: &output, progress: progress)
    } catch {
        try? output.flush()
        if progressShown { writeStandardError("\r\u{1B}[K") }
        writeStandardError("\(programName): \(error)\n")
        return 1
    }
    if progressShown { writeStandardError("\r\u{1B}[K") }
    if !invocation.quiet {
        writeStandardError("\(programName): \(session.summary)\n")
    }
    return session.summary.exitStatus
}

exit(main())
