import Foundation
import SwitchboardTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A driver that writes one message and waits for its outcome before writing the
/// next, over pipes, keeping stdin open (a test harness, a web-side bridge): the CLI
/// must write each outcome out before it waits for more input (docs/cli.md).
@Suite struct WaitingDriverTests {
    /// The rounds: a message, and what its outcome line must contain.
    static let rounds: [(message: String, expected: [String])] = [
        (#"{"name":"sdkReady","id":1}"#, [#""line":1"#, #""outcome":"handled""#]),
        (
            #"{"name":"addCartLine","id":"a","body":{"merchandiseId":"m1","productId":"p","quantity":2,"attributes":{"k":"v"}}}"#,
            [#""line":2"#, #""id":"a""#, #""outcome":"handled""#]
        ),
        (#"{"name":"productCartGetState","id":7}"#, [#""line":3"#, #""outcome":"replied""#, #""price":"0""#]),
        (#"{"name":"noSuchChannel"}"#, [#""line":4"#, #""outcome":"unhandled""#]),
        (#"{"name":"addCartLine","body":{"quantity":"x"}}"#, [#""line":5"#, #""outcome":"invalid""#]),
        ("{oops", [#""line":6"#, #""outcome":"malformed""#]),
        (Self.removeLine(id: 9), [#""line":7"#, #""outcome":"handled""#]),
        (Self.removeLine(id: 10), [#""line":8"#, #""outcome":"failed""#, "CartLine/1"]),
    ]

    static func removeLine(id: Int) -> String {
        #"{"name":"removeCartLine","id":"# + "\(id)"
            + #","body":{"lineId":"gid://shopify/CartLine/1","merchandiseId":"m1","productId":"p","quantity":2,"attributes":{"k":"v"}}}"#
    }

    @Test(arguments: [false, true])
    func eachOutcomeArrivesBeforeTheNextMessageIsWritten(readAhead: Bool) async throws {
        let result = try await onDispatchThread { try WaitingDriverTests.drive(readAhead: readAhead) }
        #expect(result.lines.count == Self.rounds.count)
        for (line, round) in zip(result.lines, Self.rounds) {
            for needle in round.expected {
                #expect(line.contains(needle), "\(line) should contain \(needle)")
            }
        }
        #expect(result.rest.isEmpty, "nothing more after stdin closed: \(result.rest)")
        #expect(result.status == 1)
        #expect(
            result.errors.contains("8 messages: 3 handled, 1 replied, 1 failed, 1 invalid, 1 unhandled, 1 malformed"),
            "\(result.errors)")
    }

    struct Timeout: Error, CustomStringConvertible {
        let round: Int
        var description: String { "no outcome for message \(round + 1) within 10 s: the CLI kept it buffered" }
    }

    struct Result: Sendable {
        var lines: [String]
        var rest: String
        var status: Int32
        var errors: String
    }

    /// Runs the CLI with pipes, one message at a time, each waited for (10 s at most), then closes stdin.
    static func drive(readAhead: Bool) throws -> Result {
        guard let binary = CLI.binary else { throw CLI.BinaryMissing() }
        let process = Process()
        process.executableURL = binary
        process.arguments = readAhead ? [] : ["--no-read-ahead"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let outputDescriptor = output.fileHandleForReading.fileDescriptor
        var pending: [UInt8] = []
        var lines: [String] = []
        for (index, round) in rounds.enumerated() {
            try input.fileHandleForWriting.write(contentsOf: Data((round.message + "\n").utf8))
            // Stdin stays open: the outcome must come now, not when the input ends.
            guard let line = readLine(from: outputDescriptor, pending: &pending, deadline: .now() + .seconds(10)) else {
                throw Timeout(round: index)
            }
            lines.append(line)
        }
        try input.fileHandleForWriting.close()
        var rest = pending
        rest += output.fileHandleForReading.readDataToEndOfFile()
        let errorText = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            lines: lines, rest: String(decoding: rest, as: UTF8.self), status: process.terminationStatus,
            errors: String(decoding: errorText, as: UTF8.self))
    }

    /// The next line from `descriptor` (without its newline), or `nil` when none is complete by `deadline`.
    static func readLine(from descriptor: Int32, pending: inout [UInt8], deadline: DispatchTime) -> String? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let now = DispatchTime.now()
            guard now < deadline else { return nil }
            let milliseconds = Int32(min(1000, (deadline.uptimeNanoseconds - now.uptimeNanoseconds) / 1_000_000 + 1))
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }  // the CLI closed its output
            pending += buffer[..<count]
        }
    }
}
