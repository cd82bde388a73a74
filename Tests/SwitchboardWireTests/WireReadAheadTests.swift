import Foundation
import Switchboard
import SwitchboardCommerce
import SwitchboardTestSupport
import SwitchboardWire
import Testing

/// Takes outcomes until it has `limit`, then fails to write.
private struct FailingSink: WireOutcomeSink {
    let limit: Int
    var outcomes: [WireOutcome] = []
    mutating func emit(_ outcome: WireOutcome) throws(WireIOError) {
        guard outcomes.count < limit else { throw WireIOError(operation: "write", name: "test", code: 28) }
        outcomes.append(outcome)
    }
    mutating func flush() throws(WireIOError) {}
}

/// `lines` lines of `{"name":"sdkReady","body":[0,0,…]}` with `zeros` zeros each, made as
/// they are read; counts the bytes read.
private struct LargeLinesSource: WireByteSource, Sendable {
    let lines: Int
    let zeros: Int
    let counter: Locked<Int>
    private var made = 0
    private var pending: [UInt8] = []
    private var offset = 0

    init(lines: Int, zeros: Int, counter: Locked<Int>) {
        self.lines = lines
        self.zeros = zeros
        self.counter = counter
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(WireIOError) -> Int {
        if offset == pending.count {
            guard made < lines else { return 0 }
            made += 1
            pending = Array(#"{"name":"sdkReady","body":["#.utf8)
            pending += Array(repeating: 0x30, count: zeros).flatMap { [$0, 0x2C] }.dropLast()
            pending += Array("]}\n".utf8)
            offset = 0
        }
        let count = min(buffer.count, pending.count - offset)
        pending.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]))
        }
        offset += count
        counter.withLock { $0 += count }
        return count
    }
}

/// `lines` short messages, then a failing read.
private struct FailingSource: WireByteSource, Sendable {
    let lines: Int
    private var sent = false

    init(lines: Int) {
        self.lines = lines
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(WireIOError) -> Int {
        guard !sent else { throw WireIOError(operation: "read", name: "test", code: 5) }
        sent = true
        let text = (1...lines).map { #"{"name":"sdkReady","id":\#($0)}"# + "\n" }.joined()
        let bytes = Array(text.utf8)
        precondition(bytes.count <= buffer.count, "the test's lines fit one read")
        buffer.copyBytes(from: bytes)
        return bytes.count
    }
}

@Suite struct WireReadAheadTests {
    @Test func aReadThatFailsAfterSomeLinesGivesThoseLinesInOrderThenTheError() async throws {
        let queue = WireReadAhead()
        let reader = Thread { queue.fill(from: FailingSource(lines: 600), maxLineBytes: 1024, maxDepth: 512) }
        reader.start()
        let (numbers, failure) = await onDispatchThread { () -> ([Int], WireIOError?) in
            var numbers: [Int] = []
            do throws(WireIOError) {
                while let batch = try queue.next() { numbers += batch.map(\.number) }
                return (numbers, nil)
            } catch {
                return (numbers, error)
            }
        }
        #expect(numbers == Array(1...600))
        #expect(failure == WireIOError(operation: "read", name: "test", code: 5))
        queue.waitUntilEnded()
    }

    @Test func theLinesReadAheadAreBoundedByTheirBytesNotTheirCount() async throws {
        // 400 lines of ~64 KB (each ~0.6 MB parsed): a bound by line count (4 batches of 256 lines)
        // would let the reader take all 26 MB while the processing side waits; the byte bound stops it
        // within 2 MB (1 MiB of waiting batches, three batches of one line each, a read chunk).
        let counter = Locked(0)
        let source = LargeLinesSource(lines: 400, zeros: 32_000, counter: counter)
        let queue = WireReadAhead()
        let reader = Thread { queue.fill(from: source, maxLineBytes: 1 << 20, maxDepth: 512) }
        reader.stackSize = 1 << 20
        reader.start()
        // The processing side takes nothing yet: wait until the reader stops reading (a bound on
        // waiting, not a timed assertion: a slow reader only makes the figure below smaller).
        var last = -1
        var unchanged = 0
        for _ in 0..<600 where unchanged < 3 {
            try await Task.sleep(for: .milliseconds(100))
            let read = counter.withLock { $0 }
            unchanged = read == last ? unchanged + 1 : 0
            last = read
        }
        let readAhead = counter.withLock { $0 }
        #expect(readAhead < 2 << 20, "read \(readAhead) bytes ahead")
        // Every line then comes through, in order.
        let numbers = try await onDispatchThread { () throws -> [Int] in
            var numbers: [Int] = []
            while let batch = try queue.next() { numbers += batch.map(\.number) }
            queue.waitUntilEnded()
            return numbers
        }
        #expect(numbers == Array(1...400))
        #expect(counter.withLock { $0 } > 400 * 64_000)
    }

    /// Mixed input across many batches: every outcome kind (a page's hello too), blank and whitespace lines,
    /// oversized lines, bytes that are not UTF-8, a byte-order mark at the start.
    private func mixedInput() -> [UInt8] {
        let lines = [
            #"{"name":"addCartLine","id":1,"body":{"merchandiseId":"gid://shopify/ProductVariant/1","productId":"gid://shopify/Product/1","quantity":2,"attributes":{"a":"b"}}}"#,
            #"{"name":"productCartUpdate","id":"u","body":{"offer":{"offerId":"sku-1","imageUrls":[],"price":"1.50","currency":"EUR","availability":1,"quantity":3}}}"#,
            #"{"name":"productCartGetState","id":"g"}"#,
            "",
            "  \t\r",
            #"{"name":"addCartLine","body":{"merchandiseId":7}}"#,
            #"{"name":"nope"}"#,
            #"{"name":"sdkReady",}"#,
            #"{"name":"wishlistEntryUpdate","body":{"id":{"productId":"P"},"isWishlisted":true,"customData":{"k":[1,2.5,null]}}}"#,
            #"{"name":"wishlistGetState","id":9}"#,
            String(repeating: "x", count: 300),
            #"{"name":"removeCartLine","body":{"lineId":"gid://shopify/CartLine/1","merchandiseId":"m","productId":"p","quantity":1,"attributes":{}}}"#,
            "[1,2]",
            #"{"name":"productCartClicked","id":"r","origin":"https://ads.example.net","mainFrame":false}"#,
            #"{"hello":{"contracts":{"addCartLine":"sha256:old"}},"id":"h"}"#,
        ]
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF]
        for round in 0..<90 {
            for line in lines {
                bytes += Array(line.utf8)
                bytes.append(0x0A)
            }
            bytes += [0x7B, 0xFF, 0xFE, 0x7D, 0x0A]  // not UTF-8
            if round % 7 == 0 { bytes += Array(#"{"name":"sdkReady","id":"\ud800"}"#.utf8) + [0x0A] }
        }
        bytes += Array(#"{"name":"sdkReady"}"#.utf8)  // no final newline
        return bytes
    }

    private func run(
        _ input: [UInt8], readsAhead: Bool
    ) throws -> (outcomes: [WireOutcome], summary: WireSummary, progress: [Int]) {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        defer { withExtendedLifetime(commerce) {} }
        // One channel with a policy that admits nobody, so that `rejected` is among the outcomes.
        router.setOriginPolicy(OriginPolicy(allowed: []), for: "productCartClicked")
        var session = WireSession(router: router, options: WireSession.Options(maxLineBytes: 256))
        var collector = WireOutcomeCollector()
        var progress: [Int] = []
        try WirePipeline(progressInterval: 100, readsAhead: readsAhead).run(
            [.bytes(input, source: "mixed.ndjson"), .bytes(input)], session: &session, into: &collector,
            progress: { progress.append($0.total) })
        return (collector.outcomes, session.summary, progress)
    }

    @Test func readingAheadGivesTheOutcomesOfReadingInline() async throws {
        let input = mixedInput()
        let (ahead, inline) = try await onDispatchThread {
            (try run(input, readsAhead: true), try run(input, readsAhead: false))
        }
        #expect(ahead.outcomes.count > 2 * 256 * 4, "more lines than the read-ahead holds at once")
        #expect(ahead.outcomes == inline.outcomes)
        #expect(ahead.summary.total == inline.summary.total)
        #expect(ahead.summary.exitStatus == inline.summary.exitStatus)
        #expect(ahead.progress == inline.progress)
        let wireKinds: Set<Outcome.Kind> = [
            .handled, .replied, .failed, .invalid, .unhandled, .malformed, .rejected, .hello,
        ]
        #expect(Set(ahead.outcomes.map(\.kind)) == wireKinds)
    }

    @Test func aSinkThatFailsStopsTheRunWithItsErrorAndTheReaderWithIt() async throws {
        let input = mixedInput()
        for readsAhead in [true, false] {
            let result = await onDispatchThread { () -> (Int, WireIOError?) in
                let router = Router()
                var session = WireSession(router: router)
                var sink = FailingSink(limit: 300)
                do {
                    try WirePipeline(readsAhead: readsAhead).run([.bytes(input)], session: &session, into: &sink)
                    return (sink.outcomes.count, nil)
                } catch {
                    return (sink.outcomes.count, error as? WireIOError)
                }
            }
            #expect(result.0 == 300)
            #expect(result.1?.code == 28)
        }
    }

    @Test func aFileIsReadAheadToTheSameOutcomes() async throws {
        let input = mixedInput()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("read-ahead-\(UUID()).ndjson").path
        try Data(input).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (fromFile, fromBytes) = try await onDispatchThread { () -> ([WireOutcome], [WireOutcome]) in
            let router = Router()
            var session = WireSession(router: router)
            var file = WireOutcomeCollector()
            try WirePipeline().run([try WireInput.file(path)], session: &session, into: &file)
            let other = Router()
            var bytesSession = WireSession(router: other)
            var bytes = WireOutcomeCollector()
            try WirePipeline(readsAhead: false).run(
                [.bytes(input, source: path)], session: &bytesSession, into: &bytes)
            return (file.outcomes, bytes.outcomes)
        }
        #expect(fromFile.count > 1000)
        #expect(fromFile == fromBytes)
    }
}
