extension Router {
    /// The manifest's observers and what they have been told, inside the router's state.
    ///
    /// A change that may alter the manifest (a channel becoming live or not, a
    /// feature declared) only counts a generation here, O(1): the manifest itself is
    /// computed outside the lock, by the one thread telling observers, and only
    /// when there are observers (or when someone reads ``Router/manifest``).
    struct ManifestNotices: Sendable {
        /// One observer: its id (for its token), the flag its token sets, and the closure.
        struct Observer: Sendable {
            let id: UInt64
            let cancelled: CancelFlag
            let observer: @Sendable (Manifest) -> Void
        }

        /// In registration order (ids only grow).
        private(set) var observers: [Observer] = []
        /// Counts changes; observers have been told up to `toldGeneration`.
        private var generation: UInt64 = 0
        private var toldGeneration: UInt64 = 0
        /// Whether a thread is telling observers.
        private var telling = false
        /// The manifest last computed for observers (`nil` when none yet, or nobody listened).
        private(set) var lastTold: Manifest?

        /// Something changed that may change the manifest.
        mutating func changed() {
            generation &+= 1
        }

        /// Called after every change: whether the caller must now tell observers
        /// (there is an untold change, there are observers, and no thread is telling them).
        mutating func startTelling() -> Bool {
            guard generation != toldGeneration else { return false }
            guard !observers.isEmpty else {
                toldGeneration = generation
                lastTold = nil
                return false
            }
            guard !telling else { return false }
            telling = true
            return true
        }

        /// For the telling thread: records the manifest it computed last, and takes the
        /// next change to tell. `false` when there is none; the thread then stops telling.
        mutating func takeChange(told: Manifest?) -> Bool {
            if let told { lastTold = told }
            guard generation != toldGeneration, !observers.isEmpty else {
                telling = false
                return false
            }
            toldGeneration = generation
            return true
        }

        mutating func add(_ observer: Observer) {
            if observers.isEmpty {
                // The first observer hears of changes from now on.
                toldGeneration = generation
                lastTold = nil
            }
            observers.append(observer)
        }

        /// Removes an observer (the caller's ``Leftovers`` keep it alive until after unlocking).
        mutating func remove(id: UInt64) {
            guard let index = observers.firstIndex(where: { $0.id == id }) else { return }
            observers.remove(at: index)
        }
    }
}
