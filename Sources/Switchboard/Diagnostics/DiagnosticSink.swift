/// Fans diagnostics out to the router's observers, in the order they were added.
/// Observers run on the thread that caused the diagnostic, outside any lock.
///
/// The observer list is copy-on-write: emitting copies it out under the lock and
/// calls the observers after unlocking; removing one keeps the list from before
/// until after unlocking, so an observer's last release (and whatever its `deinit`
/// does) happens outside the lock.
final class DiagnosticSink: Sendable {
    typealias Observer = @Sendable (Diagnostic) -> Void

    struct Entry: Sendable {
        let id: UInt64
        let cancelled: CancelFlag
        let observer: Observer
    }

    /// In registration order (ids only grow), so emitting needs no sorting.
    private let observers = Locked<[Entry]>([])

    func add(_ entry: Entry) {
        let before = observers.withLock { observers -> [Entry] in
            defer { observers.append(entry) }
            return observers
        }
        withExtendedLifetime(before) {}
    }

    func remove(_ id: UInt64) {
        let before = observers.withLock { observers -> [Entry] in
            let before = observers
            observers.removeAll { $0.id == id }
            return before
        }
        withExtendedLifetime(before) {}
    }

    var isObserved: Bool { observers.withLock { !$0.isEmpty } }

    /// Tells every observer not cancelled; builds the diagnostic only when someone listens.
    func emit(_ diagnostic: @autoclosure () -> Diagnostic) {
        let current = observers.withLock { $0 }
        guard !current.isEmpty else { return }
        let value = diagnostic()
        for entry in current where !entry.cancelled.isCancelled { entry.observer(value) }
    }
}

extension Router {
    /// Calls `observer` with every ``Diagnostic``: unhandled and invalid messages,
    /// kept, expired and overflowing messages, failed handlers, duplicate, late and
    /// dropped replies, passed deadlines, channels whose contract differs from a page's
    /// (``checkContracts(_:from:)``). It runs on the thread where it happened.
    /// - Returns: the token that keeps the observer. Once ``Registration/cancel()``
    ///   returns, the observer is not called again.
    public func observeDiagnostics(_ observer: @escaping @Sendable (Diagnostic) -> Void) -> Registration {
        let id = state.withLock { $0.makeID() }
        let flag = CancelFlag()
        diagnostics.add(DiagnosticSink.Entry(id: id, cancelled: flag, observer: observer))
        // Like every router token: a second `cancel()` (or one racing the first on another
        // thread) removes again and sets the flag itself, so it too returns only once the
        // observer can no longer be called.
        return Registration.unregistering(flag) { [diagnostics] in diagnostics.remove(id) }
    }
}
