extension Router {
    /// Everything a router changes when something registers, unregisters or is
    /// kept: the routing table, the middleware chain, the kept messages, the
    /// features and the manifest's observers. Lives in one `Locked`, changed only
    /// through ``Router/mutate(_:_:)``, which keeps what a change replaced alive
    /// until after unlocking (see ``Leftovers``).
    struct State: Sendable {
        /// The routes: a persistent snapshot, replaced (O(log n)) on every change.
        var table = RoutingTable()
        /// The live channels and their contract types, for the manifest (kept in step with `table`).
        var live = LiveChannels()
        /// The middleware chain, in registration order.
        var chain = MiddlewareChain.empty
        /// Messages kept for channels with no handler yet, and those queued behind their delivery.
        var buffer = KeptMessages()
        var features: [String: Feature] = [:]
        /// The push channels the app declared (``Router/declare(push:)``), with their body types.
        var pushes = DeclaredPushes()
        var manifest = ManifestNotices()
        /// Who may call a channel that has no ``OriginPolicy`` of its own (`nil`: anyone).
        var defaultOriginPolicy: OriginPolicy?
        private var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID &+= 1
            return nextID
        }

        func isLive(_ channel: Channel) -> Bool {
            table.route(channel)?.isLive ?? false
        }

        /// Changes the route of `channel`, removing it when it holds nothing. A change of
        /// whether the channel is live, or of the types it decodes, updates `live` and marks
        /// the manifest changed: O(log n).
        /// - Returns: the route before and after the change.
        @discardableResult
        mutating func updateRoute(_ channel: Channel, _ change: (inout Route.Parts) -> Void) -> (Route?, Route?) {
            let old = table.route(channel)
            var parts = old?.parts ?? Route.Parts()
            change(&parts)
            let route = Route(parts)
            let new = route.isVacant ? nil : route
            table.set(channel, new)
            if live.update(channel, from: old, to: new) { manifest.changed() }
            return (old, new)
        }
    }

    /// What a change to the state replaced, kept until the router has unlocked.
    ///
    /// The routing table is persistent and the chain and observer lists are
    /// copy-on-write: holding the values from before a change keeps every route,
    /// handler, responder, middleware and observer that the change removed alive
    /// until this is released, after unlocking. So the last release of anything a
    /// user gave the router, and any `deinit` that calls back into it, happens
    /// outside the lock, by construction. (Kept messages leave the state through
    /// the return values of ``KeptMessages``'s methods, released by the caller.)
    struct Leftovers: Sendable {
        let table: RoutingTable
        let chain: MiddlewareChain
        let observers: [ManifestNotices.Observer]

        init(_ state: State) {
            table = state.table
            chain = state.chain
            observers = state.manifest.observers
        }
    }

    /// Runs `body` under the lock, releases what it replaced after unlocking, then
    /// tells manifest observers about any change it made.
    ///
    /// Static, on the state: tokens and timers hold the state weakly, not the router
    /// (a weakly referenced object takes the slow path of every retain and release,
    /// and the router is retained on every message).
    static func mutate<R>(_ state: Locked<State>, _ body: (inout State) -> R) -> R {
        let (result, mustNotify, leftovers) = state.withLock { state -> (R, Bool, Leftovers) in
            let leftovers = Leftovers(state)
            let result = body(&state)
            return (result, state.manifest.startTelling(), leftovers)
        }
        withExtendedLifetime(leftovers) {}
        if mustNotify { notifyManifestObservers(state) }
        return result
    }

    func mutate<R>(_ body: (inout State) -> R) -> R {
        Router.mutate(state, body)
    }

    /// Tells observers the manifest, outside the lock, until they have seen the current one.
    ///
    /// One thread at a time does this (``ManifestNotices/startTelling()``), so
    /// observers see manifests in the order of the changes and the last one they
    /// see is the current one. A change made meanwhile (by an observer, or another
    /// thread) is told by the same loop; changes that come faster than observers
    /// are told may be told together, as the manifest after the last of them.
    ///
    /// A change costs O(log n) here: the manifest is a snapshot of the live channels,
    /// computed only when an observer reads it, and whether it differs from the last one
    /// told is found by comparing the two snapshots' changed paths (``Manifest/==``).
    static func notifyManifestObservers(_ state: Locked<State>) {
        var told: Manifest?
        while true {
            let next = state.withLock { state -> (Manifest, Manifest?, [ManifestNotices.Observer])? in
                guard state.manifest.takeChange(told: told) else { return nil }
                let manifest = Manifest(live: state.live, features: state.features, pushes: state.pushes)
                return (manifest, state.manifest.lastTold, state.manifest.observers)
            }
            guard let (manifest, last, observers) = next else { return }
            told = manifest
            // Outside the lock: comparing may derive a changed channel's contract part (user types' init(from:)).
            if let last, manifest == last { continue }
            for entry in observers where !entry.cancelled.isCancelled { entry.observer(manifest) }
        }
    }
}
