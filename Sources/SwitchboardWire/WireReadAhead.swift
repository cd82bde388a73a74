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
/// being filled), each at most one line past ``batchBytes``, and the routed batch below.
///
/// The processing side hands each batch it has routed back (``recycle(_:)``), and the
/// reading thread takes them with its next send and frees their lines, one before each line
/// it prepares: a tape is then freed by the thread that allocated it, just before that thread
/// allocates the next one, so the allocator reuses the block at once instead of taking its
/// slow path for a block freed by another thread. The routed lines count against
/// ``queueBytes`` with the waiting batches, both while they wait to go back and while the
/// reader still holds them (it frees what is left of them before it sends its next batch): one
/// that does not fit is freed where it was routed, unless nothing routed is waiting or held.
/// So the bound above holds, plus that one routed batch.
package final class WireReadAhead: Sendable {
    /// Lines per batch at most.
    static let batchSize = 256
    /// A batch closes once its prepared lines cost this many bytes.
    static let batchBytes = 256 * 1024
    /// What the waiting batches may cost together (unless one alone costs more).
    static let queueBytes = 1024 * 1024

    /// One prepared line and its 1-based number (a struct, not a tuple: an array of tuples is
    /// copied and destroyed through the runtime's generic tuple routines, element by element).
    package struct Entry: Sendable {
        /// The line's number in its input (1-based).
        package let number: Int
        /// The line, scanned and ready to route.
        package let line: WireSession.PreparedLine
    }

    package typealias Batch = [Entry]

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
        /// Routed batches, for the reader to free.
        var routed: [Batch] = []
        /// What ``routed`` costs.
        var routedBytes = 0
        /// What the routed batches the reader took with its last send cost (it frees them
        /// before its next send; counted until then).
        var readerHeldBytes = 0
        /// What the batch ``next(beforeWaiting:)`` gave last costs (what ``recycle(_:)`` hands back).
        var lastBytes = 0
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
        /// Routed batches handed back, freed one line before each line prepared.
        @exclusivity(unchecked) var routed: [Batch] = []

        init() {
            lines.reserveCapacity(WireReadAhead.batchSize)
        }

        /// Frees one routed line, if any is left: just before a line is prepared, so that the
        /// blocks it frees are the ones the allocator hands out next.
        @inline(__always)
        func freeOneRouted() {
            guard let last = routed.indices.last else { return }
            routed[last].removeLast()
            if routed[last].isEmpty { routed.removeLast() }
        }

        /// Takes the routed batches handed back (freeing at once what is left of the last ones).
        func take(_ batches: consuming [Batch]) {
            routed = batches
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
                guard self.send(pending, readerWaiting: true) else { throw Cancelled() }
                if !pending.lines.isEmpty { pending.empty() }
            }
            try WireLineReader(maxLineBytes: maxLineBytes).forEachLine(in: &source, beforeWaiting: handOver) {
                (number, line) throws(Cancelled) in
                pending.freeOneRouted()
                let entry: Entry
                switch line {
                case .bytes(let bytes):
                    entry = Entry(
                        number: number, line: WireSession.prepare(bytes, maxLineBytes: maxLineBytes, maxDepth: maxDepth)
                    )
                    if case .blank = entry.line { return }
                case .oversized(let count):
                    entry = Entry(number: number, line: .oversized(count))
                }
                pending.cost += entry.line.memoryCost
                pending.lines.append(consume entry)
                if pending.lines.count == WireReadAhead.batchSize || pending.cost >= WireReadAhead.batchBytes {
                    guard send(pending) else { throw Cancelled() }
                    pending.empty()
                }
            }
        } catch {
            switch error {
            case .io(let readFailure): failure = readFailure
            case .body: cancelled = true
            }
        }
        if !cancelled, !pending.lines.isEmpty { _ = send(pending) }
        condition.lock()
        state.finished = true
        state.failure = failure
        // Routed lines handed back from now on are freed where they were routed.
        var routed: [Batch] = []
        swap(&routed, &state.routed)
        state.routedBytes = 0
        condition.broadcast()
        condition.unlock()
        routed.removeAll()  // freed here, not locked
        pending.routed = []
        ended.signal()
    }

    /// Sends the pending batch (none when it is empty), waiting until the waiting batches leave
    /// room for it (or none waits), records whether the reader is about to wait for input and
    /// takes the routed batch handed back, if any; `false` when the processing side has stopped.
    private func send(_ pending: Pending, readerWaiting: Bool = false) -> Bool {
        let bytes = pending.cost
        var routed: [Batch] = []
        pending.routed = []  // what is left of the routed lines taken last time, freed here, not locked
        condition.lock()
        state.readerHeldBytes = 0
        while !state.cancelled, !state.batches.isEmpty,
            state.queuedBytes + state.routedBytes + bytes > WireReadAhead.queueBytes
        {
            condition.wait()
        }
        guard !state.cancelled else {
            condition.unlock()
            return false
        }
        if !pending.lines.isEmpty {
            state.batches.append((pending.lines, bytes))
            state.queuedBytes += bytes
        }
        state.readerWaiting = readerWaiting
        swap(&routed, &state.routed)
        state.readerHeldBytes = state.routedBytes
        state.routedBytes = 0
        condition.broadcast()
        condition.unlock()
        // Not locked: what is left of the last routed batches is freed here.
        if !routed.isEmpty { pending.take(routed) }
        return true
    }

    /// Hands the batch ``next(beforeWaiting:)`` gave last, routed, back to the reading thread, which frees its lines as it prepares
    /// new ones (see the type's notes); freed here instead when the batches waiting (to be
    /// routed or to go back) leave no room for it under ``queueBytes``, or the reader has ended.
    package func recycle(_ batch: consuming Batch) {
        var batch = batch
        condition.lock()
        let bytes = state.lastBytes
        if !state.finished, !state.cancelled,
            state.routed.isEmpty && state.readerHeldBytes == 0
                || state.queuedBytes + state.routedBytes + state.readerHeldBytes + bytes <= WireReadAhead.queueBytes
        {
            state.routed.append(batch)
            state.routedBytes += bytes
            batch = []
        }
        condition.unlock()
        _ = consume batch  // what was not handed back is freed here, not locked
    }

    /// The processing side: the next batch, in order; `nil` at the end of the input.
    /// - Throws: the reading side's ``WireIOError``, after every line read before it.
    package func next() throws(WireIOError) -> Batch? {
        try take(beforeWaiting: { () throws(Never) in }).get()
    }

    /// The processing side: the next batch, in order; `nil` at the end of the input.
    ///
    /// When no batch is ready and the reader is waiting for input, `beforeWaiting` is called
    /// once (without the lock held) before this waits too: the moment to flush the outcomes
    /// of every line so far, so that a writer waiting for them gets them.
    /// - Throws: the reading side's ``WireIOError``, after every line read before it; what
    ///   `beforeWaiting` throws, as it threw it.
    package func next(beforeWaiting: () throws -> Void) throws -> Batch? {
        try take(beforeWaiting: beforeWaiting).get()
    }

    /// The next batch, `nil` at the end, or the reading side's failure; throws what `beforeWaiting` throws.
    private func take<Failure: Error>(
        beforeWaiting: () throws(Failure) -> Void
    ) throws(Failure) -> Result<Batch?, WireIOError> {
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
            state.lastBytes = bytes
            condition.broadcast()
            return .success(batch)
        }
        if let failure = state.failure { return .failure(failure) }
        return .success(nil)
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
