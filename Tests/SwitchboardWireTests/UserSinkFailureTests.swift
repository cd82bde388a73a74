import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWire
import Testing

private struct Ping: BodylessEvent {
    static let channel: Channel = "ping"
}

/// What a user's queue throws when it is full: its own error type, not `WireIOError`.
private struct QueueFull: Error, Equatable {
    /// The line whose outcome did not fit.
    let line: Int
}

/// What a user's transport throws when it cannot send.
private struct ConnectionLost: Error, Equatable {}

/// A sink of the user's own: a bounded queue of outcome lines sent on each flush, which fails
/// with its own errors (written without `WireIOError`, whose initialiser users cannot call).
private struct BoundedQueueSink: WireOutcomeSink {
    let capacity: Int
    var failsToFlush = false
    var lines: [Int] = []
    var notices = 0
    var flushes = 0

    mutating func emit(_ outcome: WireOutcome) throws {
        guard lines.count < capacity else { throw QueueFull(line: outcome.line) }
        lines.append(outcome.line)
    }

    mutating func flush() throws {
        flushes += 1
        if failsToFlush { throw ConnectionLost() }
    }

    mutating func emit(notice: WireNotice) throws {
        notices += 1
    }
}

/// What a run gave: the sink's lines, the error `run` threw (as the sink's own types, or its
/// description), how many pings were handled, the summary's total.
private struct RunResult: Sendable {
    var lines: [Int]
    var full: QueueFull?
    var lost: ConnectionLost?
    var otherError: String?
    var handled: Int
    var total: Int
}

private func run(_ input: WireInput, into sink: BoundedQueueSink, readsAhead: Bool) async throws -> RunResult {
    await onDispatchThread {
        let router = Router()
        let handled = Locked(0)
        let token = router.on(Ping.self) { _ in handled.withLock { $0 += 1 } }
        defer { token.cancel() }
        var session = WireSession(router: router)
        var sink = sink
        var result = RunResult(lines: [], handled: 0, total: 0)
        do {
            try WirePipeline(readsAhead: readsAhead).run([input], session: &session, into: &sink)
        } catch let error as QueueFull {
            result.full = error
        } catch let error as ConnectionLost {
            result.lost = error
        } catch {
            result.otherError = "\(error)"
        }
        result.lines = sink.lines
        result.handled = handled.withLock { $0 }
        result.total = session.summary.total
        return result
    }
}

private let pings = Array(String(repeating: #"{"name":"ping"}"# + "\n", count: 1000).utf8)

@Suite struct UserSinkFailureTests {
    @Test(arguments: [true, false])
    func aUserSinksOwnErrorStopsTheRunAndIsThrownAsItWas(readsAhead: Bool) async throws {
        let result = try await run(.bytes(pings), into: BoundedQueueSink(capacity: 300), readsAhead: readsAhead)
        #expect(result.full == QueueFull(line: 301))
        #expect(result.otherError == nil)
        #expect(result.lines == Array(1...300))
        // Message 301 was routed (its outcome is what did not fit); none after it.
        #expect(result.handled == 301)
        #expect(result.total == 301)
    }

    @Test func aUserSinkFailingOnAJSONDocumentStopsItToo() async throws {
        let document = Array(("[" + Array(repeating: #"{"name":"ping"}"#, count: 50).joined(separator: ",") + "]").utf8)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sink-\(UUID()).json").path
        try Data(document).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await run(try .file(path), into: BoundedQueueSink(capacity: 10), readsAhead: true)
        #expect(result.full == QueueFull(line: 11))
        #expect(result.lines == Array(1...10))
        #expect(result.handled == 11)
    }

    @Test func aUserSinkThatCannotFlushFailsTheRunAfterEveryOutcome() async throws {
        var sink = BoundedQueueSink(capacity: .max)
        sink.failsToFlush = true
        let result = try await run(.bytes(pings), into: sink, readsAhead: true)
        #expect(result.lost == ConnectionLost())
        #expect(result.full == nil && result.otherError == nil)
        #expect(result.lines == Array(1...1000))
        #expect(result.handled == 1000)
    }

    @Test func theNoticeSinkPassesAUserSinksErrorOnAsItWas() async throws {
        let outcome = await onDispatchThread { () -> (QueueFull?, Int, Int) in
            let router = Router()
            let token = router.on(Ping.self) { _ in }
            defer { token.cancel() }
            var session = WireSession(router: router)
            var sink = WireNoticeSink(BoundedQueueSink(capacity: 2), notices: WireNotices(router: router))
            do {
                try WirePipeline(readsAhead: false).run([.bytes(pings)], session: &session, into: &sink)
                return (nil, sink.base.lines.count, sink.base.notices)
            } catch {
                return (error as? QueueFull, sink.base.lines.count, sink.base.notices)
            }
        }
        #expect(outcome.0 == QueueFull(line: 3))
        #expect(outcome.1 == 2)
        #expect(outcome.2 >= 1)  // the manifest, written first
    }
}
