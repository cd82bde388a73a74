import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWire
import Testing

/// Lines of `{"name":"sdkReady","id":N,"body":[…]}` with bodies of uneven sizes.
private func unevenLines(_ count: Int) -> [UInt8] {
    let text = (1...count).map { number in
        let body = Array(repeating: "\(number % 97)", count: number % 41).joined(separator: ",")
        return #"{"name":"sdkReady","id":\#(number),"body":[\#(body)]}"# + "\n"
    }
    return Array(text.joined().utf8)
}

private struct Stop: Error {}

@Suite struct WireReadAheadRecyclingTests {
    @Test func aBatchLentInPlaceIsWholeAgainAfterItsBodyThrows() async throws {
        let queue = WireReadAhead()
        let bytes = unevenLines(600)
        let reader = Thread { queue.fill(from: MemorySource(bytes, chunkSize: 4096), maxLineBytes: 4096, maxDepth: 64) }
        reader.start()
        let (seen, outcomes) = try await onDispatchThread { () throws -> ([Int], [WireOutcome]) in
            defer {
                queue.cancel()
                queue.waitUntilEnded()
            }
            guard var batch = try queue.next() else { return ([], []) }
            var seen: [Int] = []
            do {
                try LentElements.forEach(in: &batch) { entry throws(Stop) in
                    seen.append(entry.number)
                    if entry.number == 100 { throw Stop() }
                }
            } catch {}
            // Every line is still there (the one lent when the body threw included), and reads the same.
            let router = Router()
            var session = WireSession(router: router)
            var outcomes: [WireOutcome] = []
            LentElements.forEach(in: &batch) { entry in
                if let outcome = session.process(prepared: entry.line, number: entry.number, source: nil) {
                    outcomes.append(outcome)
                }
            }
            return (seen, outcomes)
        }
        #expect(seen == Array(1...100))
        #expect(outcomes.count >= 100)
        #expect(outcomes.map(\.line) == Array(1...outcomes.count))
        #expect(outcomes.allSatisfy { $0.name == "sdkReady" && $0.id == .number(JSONNumber(unchecked: "\($0.line)")) })
    }

    @Test func routedBatchesGoBackToTheReaderAndEveryLineComesThroughInOrder() async throws {
        let queue = WireReadAhead()
        let bytes = unevenLines(5000)
        let reader = Thread { queue.fill(from: MemorySource(bytes, chunkSize: 1000), maxLineBytes: 4096, maxDepth: 64) }
        reader.start()
        let numbers = try await onDispatchThread { () throws -> [Int] in
            var numbers: [Int] = []
            while var batch = try queue.next() {
                LentElements.forEach(in: &batch) { entry in numbers.append(entry.number) }
                queue.recycle(batch)
            }
            queue.waitUntilEnded()
            // A batch handed back after the end is freed where it was routed.
            queue.recycle([])
            return numbers
        }
        #expect(numbers == Array(1...5000))
    }

    @Test func aProcessingSideThatStopsEarlyStillHandsBackAndTheReaderStops() async throws {
        let queue = WireReadAhead()
        let bytes = unevenLines(5000)
        let reader = Thread { queue.fill(from: MemorySource(bytes, chunkSize: 1000), maxLineBytes: 4096, maxDepth: 64) }
        reader.start()
        let taken = try await onDispatchThread { () throws -> Int in
            var taken = 0
            while taken < 1000, let batch = try queue.next() {
                taken += batch.count
                queue.recycle(batch)
            }
            queue.cancel()
            queue.waitUntilEnded()
            return taken
        }
        #expect(taken >= 1000 && taken < 5000)
    }
}
