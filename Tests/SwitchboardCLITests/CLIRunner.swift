import Foundation
import SwitchboardTestSupport
import Testing

/// Runs the built `switchboard-cli` binary, as a user would, and captures what it prints.
struct CLIRun: Sendable {
    let status: Int32
    let stdout: Data
    let stderr: Data

    var output: String { String(decoding: stdout, as: UTF8.self) }
    var errors: String { String(decoding: stderr, as: UTF8.self) }
    var outputLines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
}

enum CLI {
    /// The package root: three levels above this file.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable product's name, which the binary uses for itself in its messages
    /// when run under it (installed as `switchboard`, it says `switchboard`).
    static let name = "switchboard-cli"

    /// The built binary: next to the test bundle, which SwiftPM builds first because the test target depends on it.
    static let binary: URL? = {
        var candidates: [URL] = []
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(runner.deletingLastPathComponent().appendingPathComponent(name))
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent(name))
        candidates.append(packageRoot.appendingPathComponent(".build/debug/" + name))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    struct BinaryMissing: Error, CustomStringConvertible {
        var description: String { "the \(name) binary was not found next to the test bundle" }
    }

    /// Runs the binary in the package root with `arguments`, feeding it `stdin`.
    /// The waiting happens off Swift's cooperative pool, so other tests' tasks keep running.
    /// `executable` replaces the built binary (a copy of it installed under another name).
    static func run(
        _ arguments: [String], stdin: Data? = nil, in directory: URL = packageRoot, executable: URL? = nil
    ) async throws -> CLIRun {
        try await onDispatchThread { try runBlocking(arguments, stdin: stdin, in: directory, executable: executable) }
    }

    private static func runBlocking(
        _ arguments: [String], stdin: Data?, in directory: URL, executable: URL?
    ) throws -> CLIRun {
        guard let binary = executable ?? binary else { throw BinaryMissing() }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let input = Pipe()
        process.standardInput = input
        try process.run()

        // Drain both pipes and feed stdin concurrently, so that no side blocks on a full pipe.
        let group = DispatchGroup()
        let collected = Collected()
        DispatchQueue.global().async(group: group) {
            collected.setOut(output.fileHandleForReading.readDataToEndOfFile())
        }
        DispatchQueue.global().async(group: group) {
            collected.setErr(errors.fileHandleForReading.readDataToEndOfFile())
        }
        let writer = input.fileHandleForWriting
        if let stdin { try? writer.write(contentsOf: stdin) }
        try? writer.close()
        group.wait()
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: collected.out, stderr: collected.err)
    }
}

private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var outData = Data()
    private var errData = Data()
    func setOut(_ data: Data) { lock.withLock { outData = data } }
    func setErr(_ data: Data) { lock.withLock { errData = data } }
    var out: Data { lock.withLock { outData } }
    var err: Data { lock.withLock { errData } }
}

/// One fixture: an input file under `Fixtures/`, its expected output, and its extra arguments.
///
/// An input too large to keep in the repository (a 10 MB line, nesting 100,000
/// deep) is kept as a small spec, `X.spec` (see ``GeneratedInput``), and
/// generated at test time; `Fixtures/make_fixtures.py` writes the same bytes.
struct Fixture: Sendable, CustomStringConvertible {
    /// The input's path relative to the package root, as passed to the binary (and echoed as `source`).
    let path: String
    /// For a generated input, the spec's path relative to the package root.
    var specPath: String? = nil
    /// `X.expected.ndjson` beside `X.ndjson` / `X.json`.
    var expectedPath: String { stem + ".expected.ndjson" }
    /// `X.args`: extra arguments, one per line.
    var argumentsPath: String { stem + ".args" }

    private var stem: String {
        if path.hasSuffix(".ndjson") { return String(path.dropLast(".ndjson".count)) }
        return String(path.dropLast(".json".count))
    }

    var description: String { path }

    /// Every input under `Fixtures/`, sorted; a spec stands for the input it generates
    /// (and replaces a copy of it that `make_fixtures.py` may have written).
    static let all: [Fixture] = {
        let root = CLI.packageRoot.appendingPathComponent("Fixtures")
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var found: [String: Fixture] = [:]
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".spec") {
                let input = "Fixtures/" + relative.dropLast(".spec".count) + ".ndjson"
                found[input] = Fixture(path: input, specPath: "Fixtures/" + relative)
                continue
            }
            let isInput =
                (relative.hasSuffix(".ndjson") || relative.hasSuffix(".json"))
                && !relative.hasSuffix(".expected.ndjson")
            if isInput && found["Fixtures/" + relative] == nil {
                found["Fixtures/" + relative] = Fixture(path: "Fixtures/" + relative)
            }
        }
        return found.values.sorted { $0.path < $1.path }
    }()

    func contents(of relative: String) throws -> Data {
        try Data(contentsOf: CLI.packageRoot.appendingPathComponent(relative))
    }

    var extraArguments: [String] {
        guard let data = try? contents(of: argumentsPath) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Where to run the binary so that `path` names the input: the package root,
    /// or for a generated input a temporary directory holding it at `path`.
    /// - Returns: the directory, and whether the caller should remove it.
    func workingDirectory() throws -> (URL, temporary: Bool) {
        guard let specPath else { return (CLI.packageRoot, false) }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchboard-fixture-\(UUID().uuidString)", isDirectory: true)
        let input = directory.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: input.deletingLastPathComponent(), withIntermediateDirectories: true)
        try GeneratedInput.expand(contents(of: specPath)).write(to: input)
        return (directory, true)
    }
}

/// A large hostile input described by a small spec: each line of the spec is a
/// JSON array of `[text, count]` pairs, and the input line it stands for is each
/// text repeated count times, in order. `Fixtures/make_fixtures.py` expands it the same way.
enum GeneratedInput {
    struct BadSpec: Error {}

    static func expand(_ spec: Data) throws -> Data {
        var output = Data()
        for line in spec.split(separator: 0x0A) where !line.isEmpty {
            guard let parts = try JSONSerialization.jsonObject(with: Data(line)) as? [[Any]] else { throw BadSpec() }
            for part in parts {
                guard part.count == 2, let text = part[0] as? String, let count = part[1] as? Int else {
                    throw BadSpec()
                }
                output.append(contentsOf: String(repeating: text, count: count).utf8)
            }
            output.append(0x0A)
        }
        return output
    }
}

/// Runs the binary with stdin from `input` and stdout to `output`, and returns its
/// exit status and its own peak resident set size in KiB.
///
/// The child is started by a small Python launcher that reads its peak with
/// `getrusage(RUSAGE_CHILDREN)`. Spawned straight from the test process, the
/// child's `ru_maxrss` would start at the test process's own peak (Linux carries
/// the peak of the image a process execs from, and `posix_spawn` execs from the
/// test process's), a few hundred MiB once the 10 MB fixtures have been read:
/// that floor would hide the child's memory and move with whatever other tests did.
func runMeasuringPeakMemory(_ arguments: [String], input: URL, output: URL) throws -> (status: Int32, maxRSSKiB: Int) {
    guard let binary = CLI.binary else { throw CLI.BinaryMissing() }
    let report = output.deletingLastPathComponent().appendingPathComponent("peak-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: report) }
    let launcher = """
        import resource, subprocess, sys
        status = subprocess.call(sys.argv[2:])
        with open(sys.argv[1], "w") as f:
            f.write("%d %d" % (128 - status if status < 0 else status, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
        """
    // Linux (glibc <spawn.h>): `posix_spawn_file_actions_t` is a struct, initialised in place.
    // Darwin (<spawn.h>, posix_spawn_file_actions_init(3)): it is `typedef void *`, imported as
    // an optional pointer that `posix_spawn_file_actions_init` allocates; it starts `nil`.
    #if os(Linux)
        var actions = posix_spawn_file_actions_t()
    #else
        var actions: posix_spawn_file_actions_t? = nil
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, input.path, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let command = ["/usr/bin/env", "python3", "-c", launcher, report.path, binary.path] + arguments
    let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    // Under AddressSanitizer (the CI's ASan run builds the binary with it), freed memory sits
    // in a quarantine of up to 256 MB before reuse, which is ASan's memory, not the program's:
    // measure this child without it. Without ASan the variable is ignored.
    var environment = ProcessInfo.processInfo.environment
    environment["ASAN_OPTIONS"] =
        (environment["ASAN_OPTIONS"].map { $0 + ":" } ?? "")
        + "quarantine_size_mb=0:thread_local_quarantine_size_kb=0"
    let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in envp { free(pointer) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, envp)
    guard spawned == 0 else { throw CocoaError(.executableLoad) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let fields = (try? String(contentsOf: report, encoding: .utf8))?.split(separator: " ").compactMap { Int($0) } ?? []
    guard (status & 0x7F) == 0, (status >> 8) & 0xFF == 0, fields.count == 2 else {
        throw LauncherFailed(
            description: "the python3 launcher measuring the CLI's memory failed (wait status \(status))")
    }
    #if os(Linux)
        let kilobytes = fields[1]  // KiB on Linux
    #else
        let kilobytes = fields[1] / 1024  // bytes on Darwin
    #endif
    return (Int32(fields[0]), kilobytes)
}

struct LauncherFailed: Error, CustomStringConvertible {
    let description: String
}

/// Every end-to-end test, one at a time: each launches the binary, and running
/// dozens at once on a two-core machine would starve the rest of the test run.
@Suite(.serialized) struct CLIEndToEnd {}
