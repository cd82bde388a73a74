/// The observers of a router's pushes (``Router/observePushes(_:)``), behind their own lock:
/// a push never waits on the routing state.
final class PushObservers: Sendable {
    struct Entry: Sendable {
        let id: UInt64
        let cancelled: CancelFlag
        let observer: @Sendable (PushMessage) -> Void
    }

    private struct State: Sendable {
        var nextID: UInt64 = 0
        var entries: [Entry] = []
    }

    private let state = Locked(State())

    /// Adds an observer; returns its id.
    func add(_ observer: @escaping @Sendable (PushMessage) -> Void, cancelled: CancelFlag) -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            state.entries.append(Entry(id: state.nextID, cancelled: cancelled, observer: observer))
            return state.nextID
        }
    }

    /// Removes the observer `id`; what it held is released after the lock.
    func remove(id: UInt64) {
        let removed = state.withLock { state -> [Entry] in
            let removed = state.entries.filter { $0.id == id }
            state.entries.removeAll { $0.id == id }
            return removed
        }
        withExtendedLifetime(removed) {}
    }

    /// Whether any observer is registered.
    var isObserved: Bool { state.withLock { !$0.entries.isEmpty } }

    /// Tells every observer not cancelled, in registration order, outside the lock.
    /// - Returns: how many observers were told.
    func tell(_ message: PushMessage) -> Int {
        let entries = state.withLock { $0.entries }
        var told = 0
        for entry in entries where !entry.cancelled.isCancelled {
            entry.observer(message)
            told += 1
        }
        return told
    }
}
