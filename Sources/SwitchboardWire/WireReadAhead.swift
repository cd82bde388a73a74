import Foundation
import Switchboard

/// Lines read and prepared ahead by ``WirePipeline``'s reading thread, handed to
/// the processing thread in order, in batches (one lock round trip per batch, not
/// per line).
///
/// Memory is bounded by bytes, not lines: a batch closes at ``batchSize`` lines or
/// ``batchBytes`` of prepared lines (the bytes and the tape of each), or when the next read
/// would wait for input (so a writer waiting for each outcome gets it), and the batches
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
        /// The reader has handed over every line it read and is about to wait for more input
        /// (cleared by its next full batch): the processing side should flush before it waits.
        var readerWaiting = false
    }

    /// Guards `state`; both sides wait on it (a pthread condition, which ThreadSanitizer understands).
    private let condition = NSCondition()
    // `nonisolated(unsafe)`: read and written only while `condition` is locked.
    nonisolated(unsafe) private var state = State()
    /// Signalled when the reader has returned.
    private let ended = DispatchSemaphore(value: 0)

    /// An empty queue, for one reading thread and one processing thread.
    package init() {}

    /// The lines read and not yet sent, and what they cost: the reading thread's alone. A class
    /// with unchecked properties, because two closures change them (the per-line one and the
    /// hand-over before waiting): captured `var`s would be boxed, and every access on every
    /// line checked for exclusivity at run time.
    private final class Pending {
        @exclusivity(unchecked) var lines: Batch = []
        @exclusivity(unchecked) var cost = 0

        init() {
            lines.reserveCapacity(WireReadAhead.batchSize)
        }

        /// Starts the next batch (the sent one is the processing side's now).
        func empty() {
            lines = []
            cost = 0
            lines.reserveCapacity(WireReadAhead.batchSize)
        }
    }

    /// Why the reader stops when the processing side has stopped.
    private struct Cancelled: Error {}

    /// The reading side: reads `source` to its end, preparing each line, then signals the end.
    package func fill<Source: WireByteSource>(from source: Source, maxLineBytes: Int, maxDepth: Int) {
        var source = source
        let pending = Pending()
        var failure: WireIOError?
        var cancelled = false
        do {
            // Before a read that would wait (a writer waiting for its outcomes), hand over the
            // lines read so far, however few, and say so: the processing side then flushes.
            let handOver = { () throws(Cancelled) in
                guard self.send(pending.lines, bytes: pending.cost, readerWaiting: true) else { throw Cancelled() }
                if !pending.lines.isEmpty { pending.empty() }
            }
            try WireLineReader(maxLineBytes: maxLineBytes).forEachLine(in: &source, beforeWaiting: handOver) {
                (number, line) throws(Cancelled) in
                let prepared: WireSession.PreparedLine
                switch line {
                case .bytes(let bytes):
                    prepared = WireSession.prepare(bytes, maxLineBytes: maxLineBytes, maxDepth: maxDepth)
                    if case .blank = prepared { return }
                case .oversized(let count):
                    prepared = .oversized(count)
                }
                pending.cost += prepared.memoryCost
                pending.lines.append((number, prepared))
                if pending.lines.count == WireReadAhead.batchSize || pending.cost >= WireReadAhead.batchBytes {
                    guard send(pending.lines, bytes: pending.cost) else { throw Cancelled() }
                    pending.empty()
                }
            }
        } catch {
            switch error {
            case .io(let readFailure): failure = readFailure
            case .body: cancelled = true
            }
        }
        if !cancelled, !pending.lines.isEmpty { _ = send(pending.lines, bytes: pending.cost) }
        condition.lock()
        state.finished = true
        state.failure = failure
        condition.broadcast()
        condition.unlock()
        ended.signal()
    }

    /// Sends one batch (none when `batch` is empty), waiting until the waiting batches leave
    /// room for it (or none waits), and records whether the reader is about to wait for
    /// input; `false` when the processing side has stopped.
    private func send(_ batch: Batch, bytes: Int, readerWaiting: Bool = false) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !state.cancelled, !state.batches.isEmpty, state.queuedBytes + bytes > WireReadAhead.queueBytes {
            condition.wait()
        }
        guard !state.cancelled else { return false }
        if !batch.isEmpty {
            state.batches.append((batch, bytes))
            state.queuedBytes += bytes
        }
        state.readerWaiting = readerWaiting
        condition.broadcast()
        return true
    }

    /// The processing side: the next batch, in order; `nil` at the end of the input.
    ///
    /// When no batch is ready and the reader is waiting for input, `beforeWaiting` is called
    /// once (without the lock held) before this waits too: the moment to flush the outcomes
    /// of every line so far, so that a writer waiting for them gets them.
    /// - Throws: the reading side's ``WireIOError``, after every line read before it; what
    ///   `beforeWaiting` throws.
    package func next(beforeWaiting: () throws(WireIOError) -> Void = {}) throws(WireIOError) -> Batch? {
        condition.lock()
        var flushed = false
        while state.batches.isEmpty, !state.finished {
            if state.readerWaiting, !flushed {
                flushed = true
                condition.unlock()
                try beforeWaiting()  // not locked here, so a throw leaves nothing locked
                condition.lock()
            } else {
                condition.wait()
            }
        }
        defer { condition.unlock() }
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
