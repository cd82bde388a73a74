extension Router {
    /// The manifest's view of the routing table: each live channel (one with a handler or
    /// a responder) and the types its contract entry is derived from, as an immutable
    /// snapshot beside the table (a ``HashTrie``, replaced in O(log n) on a change).
    ///
    /// It holds names and metatypes only, never a handler, responder or anything else a
    /// user gave the router: a ``Manifest`` keeps it to compute its channels, features
    /// and contract when first read, and a manifest an app keeps must not keep cancelled
    /// handlers alive. Two snapshots a few changes apart are compared in O(changes × log n)
    /// (``sameManifest(_:_:)``), which is how the router tells whether a change changed the
    /// manifest without listing every channel.
    struct LiveChannels: Sendable {
        /// A live channel: the key of its contract entry and the types it is derived from.
        struct Entry: Sendable, Equatable {
            let key: ContractDigests.ChannelKey
            let types: ContractChannelTypes

            init(name: String, route: Route) {
                key = ContractDigests.ChannelKey(name: name, route: route)
                types = ContractChannelTypes(route: route)
            }

            /// Equal when they have the same name and types (the key).
            static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.key == rhs.key }
        }

        private var trie = HashTrie<Entry>()

        /// How many channels are live.
        var count: Int { trie.count }

        /// Whether `channel` has a handler or a responder.
        func contains(_ channel: Channel) -> Bool {
            trie.value(named: channel.name, hash: HashTrie<Entry>.hash(channel.name)) != nil
        }

        /// Calls `body` with every live channel's entry (in no particular order).
        func forEachChannel(_ body: (Entry) -> Void) {
            trie.forEachEntry { _, entry in body(entry) }
        }

        /// Brings `channel`'s entry in line with its route changing from `old` to `new`.
        /// - Returns: whether the entry changed (the channel became live or not, or its types changed).
        mutating func update(_ channel: Channel, from old: Route?, to new: Route?) -> Bool {
            let wasLive = old?.isLive ?? false
            guard let new, new.isLive else {
                if wasLive { trie.set(channel.name, nil) }
                return wasLive
            }
            if wasLive, let old, LiveChannels.sameTypes(old, new) { return false }
            let entry = Entry(name: channel.name, route: new)
            if wasLive, trie.value(named: channel.name, hash: HashTrie<Entry>.hash(channel.name)) == entry {
                return false
            }
            trie.set(channel.name, entry)
            return true
        }

        /// Whether two routes have the same handler types in the same order and the same responder type.
        private static func sameTypes(_ old: Route, _ new: Route) -> Bool {
            guard old.handlers.count == new.handlers.count else { return false }
            for (before, after) in zip(old.handlers, new.handlers) where before.eventType != after.eventType {
                return false
            }
            switch (old.responder, new.responder) {
            case (nil, nil): return true
            case (let before?, let after?): return type(of: before.responder) == type(of: after.responder)
            default: return false
            }
        }

        /// Whether the two snapshots give the same manifest: the same live channels, each with the
        /// same part of the contract document (so the same digest); `nil` when that depends on how
        /// the definitions of all channels merge (a changed channel writes the same part but with
        /// other definitions). O(changes × log n) for two snapshots of one router; deriving a changed
        /// channel's part may run its types' `init(from:)`, so this is called outside every lock.
        static func sameManifest(_ old: LiveChannels, _ new: LiveChannels) -> Bool? {
            var undecided = false
            let same = HashTrie.diff(from: old.trie, to: new.trie, same: ==) { _, before, after in
                guard let before, let after else { return false }
                // Other types on the same channel: the same manifest only if they derive the same part.
                let (first, second) = (ContractDigests.part(of: before), ContractDigests.part(of: after))
                guard first.bytes == second.bytes else { return false }
                if first.definitions != second.definitions { undecided = true }
                return true
            }
            return same ? (undecided ? nil : true) : false
        }

        /// The names that became live (`added`) and those that stopped being live (`removed`)
        /// from `old` to `new`, in no particular order. O(changes × log n) for two snapshots of one router.
        static func changes(from old: LiveChannels, to new: LiveChannels) -> (added: [String], removed: [String]) {
            var added: [String] = []
            var removed: [String] = []
            HashTrie.diff(from: old.trie, to: new.trie, same: ==) { name, before, after in
                if before == nil { added.append(name) } else if after == nil { removed.append(name) }
                return true
            }
            return (added, removed)
        }
    }
}
