/// Which ``RouterBridge`` drives each ``HandlerScope`` now: the process-wide record
/// that keeps two bridges from adding the same handler names to one content controller.
///
/// Bridges are held weakly: a released bridge's claim disappears with it, and so
/// does the claim on a controller that is gone.
@MainActor
enum BridgeClaims {
    private struct Claim {
        weak var bridge: RouterBridge?
        let scope: HandlerScope
    }

    private static var claims: [HandlerScope: Claim] = [:]

    /// Makes `bridge` the owner of `scope`.
    /// - Returns: the live bridge that owned `scope` until now, if any.
    static func claim(_ scope: HandlerScope, for bridge: RouterBridge) -> RouterBridge? {
        claims = claims.filter { $0.value.bridge != nil && $0.value.scope.isAlive }
        let previous = claims[scope]?.bridge
        claims[scope] = Claim(bridge: bridge, scope: scope)
        return previous === bridge ? nil : previous
    }

    /// Gives `scope` up if `bridge` owns it.
    static func release(_ scope: HandlerScope, by bridge: RouterBridge) {
        if claims[scope]?.bridge === bridge { claims[scope] = nil }
    }

    /// The bridge that owns `scope` now.
    static func owner(of scope: HandlerScope) -> RouterBridge? {
        guard let claim = claims[scope], claim.scope.isAlive else { return nil }
        return claim.bridge
    }
}
