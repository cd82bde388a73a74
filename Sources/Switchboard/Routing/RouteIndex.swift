extension Router {
    /// Finds a route by the exact UTF-8 bytes of a channel name, with a cheap
    /// byte hash instead of `Hasher` (the largest single cost of routing a message
    /// when names are hashed as `String`s).
    ///
    /// A miss is not final: `Channel` compares names as `String`s (canonical
    /// equivalence), so the routing table's dictionary is asked next; only the
    /// spellings registered hit here.
    struct RouteIndex: Sendable {
        /// Open addressing, linear probing; `hashes[i] == 0` marks an empty slot.
        private let hashes: [UInt64]
        private let names: [String]
        private let routes: [Route?]
        private let mask: Int

        static let empty = RouteIndex([:])

        init(_ table: [Channel: Route]) {
            var capacity = 8
            while capacity < table.count * 2 { capacity *= 2 }
            var hashes = [UInt64](repeating: 0, count: capacity)
            var names = [String](repeating: "", count: capacity)
            var routes = [Route?](repeating: nil, count: capacity)
            for (channel, route) in table {
                let hash = RouteIndex.hash(channel.name)
                var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
                while hashes[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
                hashes[slot] = hash
                names[slot] = channel.name
                routes[slot] = route
            }
            self.hashes = hashes
            self.names = names
            self.routes = routes
            mask = capacity - 1
        }

        /// The route registered under exactly `name`, whose ``hash(_:)`` is `hash`.
        func route(named name: String, hash: UInt64) -> Route? {
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let stored = hashes[slot]
                if stored == 0 { return nil }
                if stored == hash, names[slot] == name { return routes[slot] }
                slot = (slot + 1) & mask
            }
        }

        /// FNV-1a over the name's UTF-8 bytes; never 0.
        static func hash(_ name: String) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            if let hashed = name.utf8.withContiguousStorageIfAvailable({ bytes -> UInt64 in
                var hash = hash
                for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
                return hash
            }) {
                hash = hashed
            } else {
                for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            }
            return hash == 0 ? 1 : hash
        }
    }
}
