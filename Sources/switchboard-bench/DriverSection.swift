import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Section 6: a driver that writes one message over a pipe and waits for its outcome
/// before writing the next, stdin kept open (docs/cli.md): the round-trip time per
/// message, with and without read-ahead.
struct DriverSection {
    let corpus: Corpus
    let rounds: Int

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Round-trip nanoseconds of each message through `arguments`, or a failure.
    func roundTrips(_ arguments: [String]) throws -> [Double] {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0 else { throw Failure(description: "pipe failed") }
        let (pid, code, _) = Processes.posixSpawn(arguments) { actions in
            posix_spawn_file_actions_adddup2(&actions, input[0], 0)
            posix_spawn_file_actions_adddup2(&actions, output[1], 1)
            for end in input + output { posix_spawn_file_actions_addclose(&actions, end) }
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        close(input[0])
        close(output[1])
        defer {
            close(output[0])
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
        guard code == 0 else {
            close(input[1])
            throw Failure(description: "cannot start \(arguments[0])")
        }
        var samples: [Double] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        for index in 0..<rounds {
            let message = corpus.messages[index % corpus.messages.count].line + [0x0A]
            let start = nowNanoseconds()
            guard message.withUnsafeBytes({ Processes.writeAll(input[1], $0) }) else {
                close(input[1])
                throw Failure(description: "the CLI stopped reading")
            }
            // Wait (10 s at most) for one outcome line.
            var seen = false
            while !seen {
                var request = pollfd(fd: output[0], events: Int16(POLLIN), revents: 0)
                let ready = poll(&request, 1, 10_000)
                if ready < 0 && errno == EINTR { continue }
                guard ready > 0 else {
                    close(input[1])
                    throw Failure(description: "no outcome within 10 s for message \(index + 1)")
                }
                let count = read(output[0], &buffer, buffer.count)
                guard count > 0 else {
                    close(input[1])
                    throw Failure(description: "the CLI closed its output")
                }
                seen = buffer[count - 1] == 0x0A
            }
            samples.append(Double(nowNanoseconds() - start))
        }
        close(input[1])
        return samples
    }

    func run(into report: inout Report, cli: String) {
        let name = "6 waiting driver"
        for (label, arguments) in [
            ("switchboard", [cli, "--quiet"]), ("switchboard --no-read-ahead", [cli, "--quiet", "--no-read-ahead"]),
        ] {
            log("driver: \(rounds) round trips through \(label)")
            do {
                let samples = try roundTrips(arguments).sorted()
                let p99 = samples[min(samples.count - 1, samples.count * 99 / 100)]
                report.add(
                    name, "\(label), round trip per message, median (\(rounds) rounds)",
                    Format.microseconds(median(samples)))
                report.add(name, "\(label), round trip per message, 99th percentile", Format.microseconds(p99))
            } catch {
                report.note("Waiting driver, \(label): \(error).")
            }
        }
    }
}
