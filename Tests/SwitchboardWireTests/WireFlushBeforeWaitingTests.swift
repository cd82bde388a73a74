import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWire
import Testing

/// Input a test hands over chunk by chunk, as a driver writing to a pipe would: a read
/// waits (10 s at most, then reads as the end) until the test pushes a chunk or closes it.
private final class DrivenInput: Sendable {
    private let chunks = Locked<[[UInt8]]>([])
    private let closed = Locked(false)
    private let available = DispatchSemaphore(value: 0)

    func push(_ text: String) {
        chunks.withLock { $0.append(Array(text.utf8)) }
        available.signal()
    }

    func close() {
        closed.withLock { $0 = true }
        available.signal()
    }

    var isEmpty: Bool { chunks.withLock { $0.isEmpty } }
    var isClosed: Bool { closed.withLock { $0 } }

    /// The next chunk; `nil` once closed (or after 10 s without one).
    func pop() -> [UInt8]? {
        guard available.wait(timeout: .now() + .seconds(10)) == .success else { return nil }
        return chunks.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}

private struct DrivenSource: WireByteSource, Sendable {
    let input: DrivenInput

    func readWouldWait() -> Bool { input.isEmpty && !input.isClosed }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(WireIOError) -> Int {
        guard let chunk = input.pop() else { return 0 }
        let count = min(chunk.count, buffer.count)
        chunk.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        return count
    }
}

/// Flushing before a read that would wait: a writer that waits for each
/// outcome before writing the next line gets it, inline and reading ahead.
@Suite struct WireFlushBeforeWaitingTests {
    static func message(_ number: Int) -> String { #"{"name":"sdkReady","id":"# + "\(number)}\n" }

    @Test func theLineReaderCallsBeforeWaitingAfterEveryLineReadSoFar() async throws {
        let events = try await onDispatchThread { try Self.readInline() }
        #expect(events == ["line 1", "wait", "line 2", "wait", "line 3", "wait", "line 4", "wait"])
    }

    static func readInline() throws -> [String] {
        let input = DrivenInput()
        var source = DrivenSource(input: input)
        var events: [String] = []
        input.push(Self.message(1) + "{\"name\":")  // a line and the start of the next
        var sent = 1
        let waiting = {
            events.append("wait")
            // The driver writes the next message only now, as a waiting driver does.
            sent += 1
            if sent <= 4 {
                input.push(sent == 2 ? "\"sdkReady\",\"id\":2}\n" : Self.message(sent))
            } else {
                input.close()
            }
        }
        try WireLineReader(maxLineBytes: 1000).forEachLine(in: &source, beforeWaiting: waiting) { number, line in
            events.append("line \(number)")
        }
        return events
    }

    @Test func aFileLikeSourceIsNeverWaitedFor() throws {
        var source = MemorySource(Array((1...50).map(Self.message).joined().utf8), chunkSize: 7)
        var waits = 0
        var lines = 0
        let waiting = { waits += 1 }
        try WireLineReader(maxLineBytes: 1000).forEachLine(in: &source, beforeWaiting: waiting) { _, _ in
            lines += 1
        }
        #expect(lines == 50)
        #expect(waits == 0)
    }

    @Test func readingAheadHandsOverEachLineAndFlushesBeforeWaiting() async throws {
        let (numbers, flushes) = try await onDispatchThread { try Self.readAhead() }
        #expect(numbers == [[1], [2], [3], [4], [5]])
        #expect(flushes == 5)
    }

    static func readAhead() throws -> (numbers: [[Int]], flushes: Int) {
        let input = DrivenInput()
        let queue = WireReadAhead()
        input.push(Self.message(1))  // before the reader starts, so its first read does not wait
        let reader = Thread { queue.fill(from: DrivenSource(input: input), maxLineBytes: 1000, maxDepth: 64) }
        reader.start()
        defer {
            input.close()
            queue.cancel()
            queue.waitUntilEnded()
        }
        var numbers: [[Int]] = []
        var flushes = 0
        var sent = 1
        // The next message is written only from the flush: if the processing side did not
        // flush before waiting, no further line would come (and the source ends after 10 s).
        while let batch = try queue.next(beforeWaiting: {
            flushes += 1
            sent += 1
            if sent <= 5 { input.push(Self.message(sent)) } else { input.close() }
        }) {
            numbers.append(batch.map(\.number))
        }
        return (numbers, flushes)
    }
}
