/// Which ``RouterBridge`` drives each ``HandlerScope`` now: the process-wide record
/// that keeps two bridges from adding the same handler names to one content controller.
///
/// A claim holds its bridge weakly, and beside it the way to take what that bridge
/// still has registered (its state and registry, never the bridge). A bridge
/// released off the main thread removes its handlers later, on the main actor;
/// until then the next bridge to claim the scope takes and removes them first.
/// Either way they are removed exactly once, on the main actor, before any other
/// bridge adds a name there, and never after it did.
enum BridgeClaims {
    /// What a bridge has to remove from its registry.
    struct Cleanup: Sendable {
        let registry: any ScriptMessageHandlerRegistry
        let names: [String]
        let hadScript: Bool

        @MainActor
        func run() {
            for name in names { registry.removeHandler(named: name) }
            if hadScript { registry.setUserScript(source: nil) }
        }
    }

    private struct Claim: Sendable {
        weak var bridge: RouterBridge?  // compared by identity only while alive: an address is reused
        let scope: HandlerScope
        /// Takes (once) what the bridge still has registered; `nil` when nothing is left.
        let take: @Sendable () -> Cleanup?
    }

    private static let claims = Locked<[HandlerScope: Claim]>([:])

    /// Makes `bridge` the owner of `scope`. A previous owner that is still alive is
    /// returned for the caller to stop; one that was released has its leftover
    /// handlers removed here, now.
    /// - Parameters:
    ///   - take: takes what `bridge` has registered, for when it is released.
    /// - Returns: the live bridge that owned `scope` until now, if any.
    @MainActor
    static func claim(
        _ scope: HandlerScope, for bridge: RouterBridge, take: @escaping @Sendable () -> Cleanup?
    ) -> RouterBridge? {
        // The claims of dead scopes leave under the lock but are released after it: their
        // `take` closures may hold the last reference to a user's registry (its deinit is user code).
        let (old, dropped) = claims.withLock { claims -> (Claim?, [HandlerScope: Claim]) in
            let old = claims[scope]
            let dropped = claims
            claims = claims.filter { $0.value.scope.isAlive }
            claims[scope] = Claim(bridge: bridge, scope: scope, take: take)
            return (old, dropped)
        }
        withExtendedLifetime(dropped) {}
        guard let old, old.scope.isAlive else { return nil }
        if let previous = old.bridge { return previous === bridge ? nil : previous }
        old.take()?.run()  // released, its removal still pending: do it before anything is added
        return nil
    }

    /// Gives `scope` up if `bridge` owns it.
    @MainActor
    static func release(_ scope: HandlerScope, by bridge: RouterBridge) {
        claims.withLock { claims in
            if let owner = claims[scope]?.bridge, owner === bridge { claims[scope] = nil }
        }
    }
}
