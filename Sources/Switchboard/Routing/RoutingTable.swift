extension Router {
    /// Every channel's ``Route``, as an immutable snapshot (a ``HashTrie``).
    ///
    /// Changing one channel copies only the nodes on its path, O(log n), and leaves
    /// the table it came from intact. So a registration costs O(log n) however many
    /// channels there are, a lookup never waits on a rebuild, and the router keeps
    /// the table it replaced until it has unlocked, so that no route, handler or
    /// responder is released under its lock.
    typealias RoutingTable = HashTrie<Route>
}

extension HashTrie where Value == Router.Route {
    /// The route of `channel`, or `nil` when it has none.
    func route(_ channel: Channel) -> Router.Route? {
        value(named: channel.name, hash: HashTrie.hash(channel.name))
    }

    /// The route of the channel named `name`, whose ``hash(_:)`` is `hash`.
    @inline(__always)
    func route(named name: String, hash: UInt64) -> Router.Route? {
        value(named: name, hash: hash)
    }

    /// Sets (or, with `nil`, removes) the route of `channel`.
    mutating func set(_ channel: Channel, _ route: Router.Route?) {
        set(channel.name, route)
    }

    /// Calls `body` with every channel and its route (in no particular order).
    func forEachRoute(_ body: (Channel, Router.Route) -> Void) {
        forEachEntry { name, route in body(Channel(uncheckedName: name), route) }
    }
}
