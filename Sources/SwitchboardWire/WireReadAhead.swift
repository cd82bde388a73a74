import Foundation
import Switchboard

/// Lines read and prepared ahead by ``WirePipeline``'s reading thread, handed to
/// the processing thread in order, in batches (one lock round trip per batch, not
/// per line).
///
/// Memory is bounded by bytes, not lines: a batch closes at ``batchSize`` lines or
/// ``batchBytes`` of prepared lines (the bytes and the tape of each), and the batches
/// waiting hold at most ``queueBytes`` — except that one batch larger than that (a
/// line near `--max-line-bytes`) may wait alone. So beyond ``queueBytes`` the
/// pipeline holds at most three batches (one waiting, one being processed, one
/// being filled), each at most one line past ``batchBytes``.
package final class WireReadAhead: Sendable {
    /// Lines per batch at most.
    static let batchSize = 256
    /// A batch closes once its prepared lines cost this many bytes.
    static let batchBytes = 256 * 1024
    /// What the waiting batches may cost together (unless one alone costs more).
    static let queueBytes = 1024 * 1024

    package typealias Batch = [(number: Int, line: WireSession.PreparedLine)]

    private struct State {
        var batches: [(batch: Batch, bytes: Int)] = []
        /// What the waiting batches cost.
        var queuedBytes = 0
        /// The reader has sent its last batch.
        var finished = false
        /// Why the reader stopped early, when reading failed.
        var failure: WireIOError?
        /// The processing side has stopped: the reader should too.
        var cancelled = false
    }

    /// Guards `state`; both sides wait on it (a pthread condition, which ThreadSanitizer understands).
    private let condition = NSCondition()
    // `nonisolated(unsafe)`: read and written only while `condition` is locked.
    nonisolated(unsafe) private var state = State()
    /// Signalled when the reader has returned.
    private let ended = DispatchSemaphore(value: 0)

    /// An empty queue, for one reading thread and one processing thread.
    package init() {}

    /// Why the reader stops when the processing side has stopped.
    private struct Cancelled: Error {}

    /// The reading side: reads `source` to its end, preparing each line, then signals the end.
    package func fill<Source: WireByteSource>(from source: Source, maxLineBytes: Int, maxDepth: Int) {
        var source = source
        var batch: Batch = []
        var batchCost = 0
        batch.reserveCapacity(WireReadAhead.batchSize)
        var failure: WireIOError?
        var cancelled = false
        do {
            try WireLineReader(maxLineBytes: maxLineBytes).forEachLine(in: &source) {
                (number, line) throws(Cancelled) in
                let prepared: WireSession.PreparedLine
                switch line {
                case .bytes(let bytes):
                    prepared = WireSession.prepare(bytes, maxLineBytes: maxLineBytes, maxDepth: maxDepth)
                    if case .blank = prepared { return }
                case .oversized(let count):
                    prepared = .oversized(count)
                }
                batchCost += prepared.memoryCost
                batch.append((number, prepared))
                if batch.count == WireReadAhead.batchSize || batchCost >= WireReadAhead.batchBytes {
                    guard send(batch, bytes: batchCost) else { throw Cancelled() }
                    batch = []
                    batchCost = 0
                    batch.reserveCapacity(WireReadAhead.batchSize)
                }
            }
        } catch {
            switch error {
            case .io(let readFailure): failure = readFailure
            case .body: cancelled = true
            }
        }
        if !cancelled, !batch.isEmpty { _ = send(batch, bytes: batchCost) }
        condition.lock()
        state.finished = true
        state.failure = failure
        condition.broadcast()
        condition.unlock()
        ended.signal()
    }

    /// Sends one batch, waiting until the waiting batches leave room for it (or none
    /// waits); `false` when the processing side has stopped.
    private func send(_ batch: Batch, bytes: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !state.cancelled, !state.batches.isEmpty, state.queuedBytes + bytes > WireReadAhead.queueBytes {
            condition.wait()
        }
        guard !state.cancelled else { return false }
        state.batches.append((batch, bytes))
        state.queuedBytes += bytes
        condition.broadcast()
        return true
    }

    /// The processing side: the next batch, in order; `nil` at the end of the input.
    /// - Throws: the reading side's ``WireIOError``, after every line read before it.
    package func next() throws(WireIOError) -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while state.batches.isEmpty, !state.finished { condition.wait() }
        if !state.batches.isEmpty {
            let (batch, bytes) = state.batches.removeFirst()
            state.queuedBytes -= bytes
            condition.broadcast()
            return batch
        }
        if let failure = state.failure { throw failure }
        return nil
    }

    /// Stops the reading side at its next batch (a reader waiting for room wakes and stops).
    package func cancel() {
        condition.lock()
        state.cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the reading side has returned (at once after ``next()`` gave `nil` or threw).
    package func waitUntilEnded() {
        ended.wait()
        ended.signal()
    }
}
