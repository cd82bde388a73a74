import Foundation
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
            try await offThePool {
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
