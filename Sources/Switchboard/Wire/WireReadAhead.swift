import Dispatch

/// Lines read and prepared ahead by ``WirePipeline``'s reading thread, handed to
/// the processing thread in order, in batches (one lock round trip per batch, not
/// per line). At most ``maxBatches`` batches wait at a time, so memory stays flat
/// however far the reader could run ahead.
final class WireReadAhead: Sendable {
    /// Lines per batch.
    static let batchSize = 256
    /// Batches waiting at most.
    static let maxBatches = 4

    typealias Batch = [(number: Int, line: WireSession.PreparedLine)]

    private struct State {
        var batches: [Batch] = []
        /// The reader has sent its last batch.
        var finished = false
        /// Why the reader stopped early, when reading failed.
        var failure: WireIOError?
        /// The processing side has stopped: the reader should too.
        var cancelled = false
    }

    private let state = Locked(State())
    /// Signalled once per batch sent, and once at the end.
    private let ready = DispatchSemaphore(value: 0)
    /// Free places for batches. Made with 0 and signalled up: a semaphore must not be freed
    /// below the value it was made with, and one the reader stopped waiting on may be.
    private let room = DispatchSemaphore(value: 0)
    /// Signalled when the reader has returned.
    private let ended = DispatchSemaphore(value: 0)

    init() {
        for _ in 0..<WireReadAhead.maxBatches { room.signal() }
    }

    /// Why the reader stops when the processing side has stopped.
    private struct Cancelled: Error {}

    /// The reading side: reads `source` to its end, preparing each line, then signals the end.
    func fill<Source: WireByteSource>(from source: Source, maxLineBytes: Int, maxDepth: Int) {
        var source = source
        var batch: Batch = []
        batch.reserveCapacity(WireReadAhead.batchSize)
        var failure: WireIOError?
        var cancelled = false
        do {
            try WireLineReader(maxLineBytes: maxLineBytes).forEachLine(in: &source) {
                (number, line) throws(Cancelled) in
                switch line {
                case .bytes(let bytes):
                    let prepared = WireSession.prepare(bytes, maxLineBytes: maxLineBytes, maxDepth: maxDepth)
                    if case .blank = prepared { return }
                    batch.append((number, prepared))
                case .oversized(let count):
                    batch.append((number, .oversized(count)))
                }
                if batch.count == WireReadAhead.batchSize {
                    guard send(batch) else { throw Cancelled() }
                    batch = []
                    batch.reserveCapacity(WireReadAhead.batchSize)
                }
            }
        } catch {
            switch error {
            case .io(let readFailure): failure = readFailure
            case .body: cancelled = true
            }
        }
        if !cancelled, !batch.isEmpty { _ = send(batch) }
        state.withLock { state in
            state.finished = true
            state.failure = failure
        }
        ready.signal()
        ended.signal()
    }

    /// Sends one batch, waiting for room; `false` when the processing side has stopped.
    private func send(_ batch: Batch) -> Bool {
        room.wait()
        let sent = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.batches.append(batch)
            return true
        }
        if sent { ready.signal() }
        return sent
    }

    /// The processing side: the next batch, in order; `nil` at the end of the input.
    /// - Throws: the reading side's ``WireIOError``, after every line read before it.
    func next() throws(WireIOError) -> Batch? {
        ready.wait()
        let taken = state.withLock { state -> Result<Batch?, WireIOError> in
            if !state.batches.isEmpty { return .success(state.batches.removeFirst()) }
            if let failure = state.failure { return .failure(failure) }
            return .success(nil)
        }
        let batch = try taken.get()
        if batch != nil { room.signal() } else { ready.signal() }
        return batch
    }

    /// Stops the reading side at its next batch (a reader waiting for room wakes and stops).
    func cancel() {
        state.withLock { $0.cancelled = true }
        room.signal()
    }

    /// Waits until the reading side has returned (at once after ``next()`` gave `nil` or threw).
    func waitUntilEnded() {
        ended.wait()
        ended.signal()
    }
}
