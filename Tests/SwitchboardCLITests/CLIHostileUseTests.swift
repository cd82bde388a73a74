import Foundation
import SwitchboardTestSupport
import Testing

extension CLIEndToEnd {
    /// What a demanding user does to the command that the other suites do not: closes its
    /// stdout early, gives a flag a value, feeds it hostile bytes with and without read-ahead.
    @Suite struct CLIHostileUseTests {
        /// Runs the binary with stdin from `input` and its stdout a pipe whose read end is
        /// closed before anything is written: every write to stdout fails (EPIPE).
        private static func runWithStdoutClosed(_ arguments: [String], input: Data?) async throws -> (
            status: Int32, reason: Process.TerminationReason, errors: String
        ) {
            try await onDispatchThread {
                guard let binary = CLI.binary else { throw CLI.BinaryMissing() }
                let directory = FileManager.default.temporaryDirectory
                    .appendingPathComponent("switchboard-epipe-\(UUID().uuidString)", isDirectory: true)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: directory) }
                let inputFile = directory.appendingPathComponent("in.ndjson")
                if let input { try input.write(to: inputFile) }
                let process = Process()
                process.executableURL = binary
                process.arguments = arguments + (input == nil ? [] : [inputFile.path])
                let output = Pipe()
                let errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                process.standardInput = FileHandle.nullDevice
                try output.fileHandleForReading.close()
                try process.run()
                try? output.fileHandleForWriting.close()
                let errorText = errors.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return (
                    process.terminationStatus, process.terminationReason, String(decoding: errorText, as: UTF8.self)
                )
            }
        }

        @Test(arguments: [["--quiet"], ["--quiet", "--no-read-ahead"], []])
        func stdoutThatCannotBeWrittenIsReportedWithExitStatusOne(_ arguments: [String]) async throws {
            // More than one 64 KiB write of outcomes, so a write happens mid-run as well as at the end.
            let input = Data(String(repeating: #"{"name":"sdkReady"}"# + "\n", count: 20_000).utf8)
            let run = try await Self.runWithStdoutClosed(arguments, input: input)
            // Not killed by SIGPIPE: docs/cli.md promises a message and exit status 1.
            #expect(run.reason == .exit)
            #expect(run.status == 1)
            #expect(run.errors.hasPrefix("\(CLI.name): cannot write stdout: "), "\(run.errors)")
            #expect(!run.errors.contains("messages:"))
        }

        /// Runs the binary with its stdin and stdout pipes set non-blocking (as a parent that
        /// shares them may leave them): the input written in `pieces` with pauses, the output read
        /// only after `readDelay`, so that reads find no input and writes find the pipe full.
        private static func runWithNonBlockingPipes(
            _ arguments: [String], pieces: [Data], pause: Duration, readDelay: Duration
        ) async throws -> (status: Int32, reason: Process.TerminationReason, output: Data, errors: String) {
            try await onDispatchThread {
                guard let binary = CLI.binary else { throw CLI.BinaryMissing() }
                // A child that has gone makes writing its input fail (EPIPE), not end the test run.
                signal(SIGPIPE, SIG_IGN)
                let process = Process()
                process.executableURL = binary
                process.arguments = arguments
                let input = Pipe()
                let output = Pipe()
                let errors = Pipe()
                for descriptor in [
                    input.fileHandleForReading.fileDescriptor, output.fileHandleForWriting.fileDescriptor,
                ] {
                    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                }
                process.standardInput = input
                process.standardOutput = output
                process.standardError = errors
                try process.run()
                let collected = DataBox()
                let reader = Thread {
                    Thread.sleep(forTimeInterval: seconds(readDelay))
                    let data = output.fileHandleForReading.readDataToEndOfFile()
                    collected.set(data)
                }
                let done = DispatchSemaphore(value: 0)
                let errorText = DataBox()
                Thread {
                    let data = errors.fileHandleForReading.readDataToEndOfFile()
                    errorText.set(data)
                    done.signal()
                }.start()
                reader.start()
                for piece in pieces {
                    try? input.fileHandleForWriting.write(contentsOf: piece)
                    Thread.sleep(forTimeInterval: seconds(pause))
                }
                try? input.fileHandleForWriting.close()
                process.waitUntilExit()
                done.wait()
                // The reader ends once the child (and so every writer of the pipe) has gone.
                while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
                return (
                    process.terminationStatus, process.terminationReason, collected.data,
                    String(decoding: errorText.data, as: UTF8.self)
                )
            }
        }

        @Test(arguments: [["--quiet"], ["--quiet", "--no-read-ahead"]])
        func nonBlockingStdinAndStdoutAreWaitedForNotFailed(_ arguments: [String]) async throws {
            // A slow writer: reads find nothing yet (EAGAIN on a non-blocking pipe).
            let line = Data((#"{"name":"sdkReady"}"# + "\n").utf8)
            let slow = try await Self.runWithNonBlockingPipes(
                arguments, pieces: [line, line, line], pause: .milliseconds(50), readDelay: .zero)
            #expect(slow.errors.isEmpty, "\(slow.errors)")
            #expect(slow.status == 0)
            #expect(String(decoding: slow.output, as: UTF8.self).split(separator: "\n").count == 3)
            // A slow reader: more outcomes than a pipe holds, written before anyone reads them.
            let many = Data(String(repeating: #"{"name":"sdkReady"}"# + "\n", count: 20_000).utf8)
            let full = try await Self.runWithNonBlockingPipes(
                arguments, pieces: [many], pause: .zero, readDelay: .milliseconds(300))
            #expect(full.errors.isEmpty, "\(full.errors)")
            #expect(full.status == 0)
            #expect(String(decoding: full.output, as: UTF8.self).split(separator: "\n").count == 20_000)
        }

        @Test(arguments: [["manifest"], ["schema"], ["schema", "--typescript"], ["--help"], ["--version"]])
        func theOtherCommandsReportAStdoutThatCannotBeWritten(_ arguments: [String]) async throws {
            let run = try await Self.runWithStdoutClosed(arguments, input: nil)
            #expect(run.reason == .exit)
            #expect(run.status == 1)
            #expect(run.errors.hasPrefix("\(CLI.name): cannot write stdout: "), "\(run.errors)")
        }

        @Test(arguments: [
            "--quiet=no", "--help=me", "--version=2", "--no-read-ahead=false", "--allow-subframes=no",
            "--typescript=yes", "--=x",
        ])
        func aFlagGivenAValueIsAUsageError(_ argument: String) async throws {
            let arguments = argument.hasPrefix("--typescript") ? ["schema", argument] : [argument]
            let run = try await CLI.run(arguments, stdin: Data(#"{"name":"sdkReady"}"#.utf8))
            #expect(run.status == 2)
            #expect(run.errors.hasPrefix("\(CLI.name): "))
            #expect(run.errors.contains("takes no value"), "\(run.errors)")
            #expect(run.errors.contains("USAGE: \(CLI.name)"))
            #expect(run.output.isEmpty)
        }
    }
}

/// Bytes one thread sets and another reads.
private final class DataBox: @unchecked Sendable {
    // `@unchecked`: `stored` is read and written only under `lock`.
    private let lock = NSLock()
    private var stored = Data()
    func set(_ data: Data) { lock.withLock { stored = data } }
    var data: Data { lock.withLock { stored } }
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

extension CLIEndToEnd.CLIHostileUseTests {
    @Test func aMessageFileWhoseNameIsNotUTF8IsAUsageErrorNotSkipped() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchboard-names-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"name":"sdkReady"}"#.utf8).write(to: directory.appendingPathComponent("a.ndjson"))
        // A name with the byte 0xFF, which UTF-8 never holds: made through the C API, as bytes.
        guard try makeEntryNamed([0xFF] + Array(".ndjson".utf8), in: directory) != nil else { return }
        let run = try await CLI.run(["--quiet", directory.path], stdin: Data())
        #expect(run.status == 2)
        #expect(run.errors.contains("cannot be read"), "\(run.errors)")
        #expect(run.output.isEmpty)
    }

    @Test func entriesTheListingSkipsAreSkippedThoughTheirNamesAreNotUTF8() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchboard-names-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"name":"sdkReady"}"#.utf8).write(to: directory.appendingPathComponent("a.ndjson"))
        // An expected-output file and a directory named like a message file, each with the byte 0xFF.
        guard try makeEntryNamed([0xFF] + Array(".expected.ndjson".utf8), in: directory) != nil else { return }
        #expect(try makeEntryNamed([0xFF] + Array("-folder.json".utf8), in: directory, folder: true) != nil)
        let run = try await CLI.run(["--quiet", directory.path], stdin: Data())
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains(#""outcome":"handled""#))
    }
}

extension CLIEndToEnd.CLIHostileUseTests {
    /// `readdir` tells a symbolic link's type, not its target's: a link to a directory, named
    /// like a message file but not in UTF-8, is skipped as a directory, not refused as a message file.
    @Test func aLinkToADirectoryWhoseNameIsNotUTF8IsSkippedAsADirectory() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchboard-names-\(UUID().uuidString)", isDirectory: true)
        let target = directory.appendingPathComponent("target", isDirectory: true)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"name":"sdkReady"}"#.utf8).write(to: directory.appendingPathComponent("a.ndjson"))
        guard try makeEntryNamed([0xFF] + Array(".ndjson".utf8), in: directory, linkTo: target) != nil else { return }
        let run = try await CLI.run(["--quiet", directory.path], stdin: Data())
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains(#""outcome":"handled""#))
    }
}

extension CLIEndToEnd.CLIHostileUseTests {
    /// Swift's `CommandLine.arguments` repairs bytes that are not UTF-8 (U+FFFD): read from there,
    /// such a PATH would be reported missing, under a name the file does not have.
    @Test func aPathArgumentWhoseBytesAreNotUTF8IsAUsageErrorThatSaysSo() async throws {
        let binary = try #require(CLI.binary)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchboard-arguments-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        guard try makeEntryNamed([0xFF] + Array(".ndjson".utf8), in: directory) != nil else { return }
        // The shell passes the byte 0xFF as it is (a `Process` argument is a `String`, always UTF-8).
        let script = #"exec "$0" --quiet "$1/$(printf '\377').ndjson""#
        let run = try await CLI.run(
            ["-c", script, binary.path, directory.path], stdin: Data(#"{"name":"sdkReady"}"#.utf8),
            executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 2)
        #expect(run.errors.contains("/\u{FFFD}.ndjson: PATH is not valid UTF-8"), "\(run.errors)")
        #expect(!run.errors.contains("no such file"))
        #expect(run.output.isEmpty)
    }
}
