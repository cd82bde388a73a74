import Foundation

extension Router {
    /// Every channel's ``Route``, as an immutable snapshot.
    ///
    /// A persistent hash trie (32 ways per level, keyed by a byte hash of the
    /// channel name): changing one channel copies only the nodes on its path,
    /// O(log n), and leaves the table it came from intact. So a registration costs
    /// O(log n) however many channels there are, a lookup never waits on a
    /// rebuild, and the router keeps the table it replaced until it has unlocked,
    /// so that no route, handler or responder is released under its lock.
    ///
    /// Names are hashed as UTF-8 bytes (FNV-1a), much cheaper than `Hasher`; a
    /// name that is not ASCII is hashed in Unicode normalization form C, because
    /// ``Channel`` compares names as `String`s (canonical equivalence) and keys
    /// are compared the same way.
    struct RoutingTable: Sendable {
        private(set) var root: TrieNode?
        /// How many channels have a route.
        private(set) var count = 0

        /// The route of `channel`, or `nil` when it has none.
        func route(_ channel: Channel) -> Route? {
            route(named: channel.name, hash: RoutingTable.hash(channel.name))
        }

        /// The route of the channel named `name`, whose ``hash(_:)`` is `hash`.
        @inline(__always)
        func route(named name: String, hash: UInt64) -> Route? {
            guard var node = root else { return nil }
            var shift: UInt64 = 0
            while true {
                let bit = UInt32(1) &<< UInt32(truncatingIfNeeded: (hash &>> shift) & 31)
                guard node.bitmap & bit != 0 else { return nil }
                switch node.slots[(node.bitmap & (bit &- 1)).nonzeroBitCount] {
                case .leaf(let leaf):
                    return leaf.hash == hash && leaf.name == name ? leaf.route : nil
                case .node(let child):
                    node = child
                    shift &+= 5
                case .collision(let leaves):
                    return leaves.first { $0.hash == hash && $0.name == name }?.route
                }
            }
        }

        /// Sets (or, with `nil`, removes) the route of `channel`.
        mutating func set(_ channel: Channel, _ route: Route?) {
            let leaf = route.map { TrieLeaf(hash: RoutingTable.hash(channel.name), name: channel.name, route: $0) }
            let hash = leaf?.hash ?? RoutingTable.hash(channel.name)
            var delta = 0
            if let root {
                self.root = root.setting(hash: hash, name: channel.name, leaf: leaf, shift: 0, delta: &delta)
            } else if let leaf {
                self.root = TrieNode(bitmap: 0, slots: []).setting(
                    hash: hash, name: channel.name, leaf: leaf, shift: 0, delta: &delta)
            }
            count += delta
        }

        /// Calls `body` with every channel and its route (in no particular order).
        func forEachRoute(_ body: (Channel, Route) -> Void) {
            root?.forEachRoute(body)
        }

        /// FNV-1a over the name's UTF-8 bytes (over its NFC form when it is not ASCII); never 0.
        static func hash(_ name: String) -> UInt64 {
            if let (hash, ascii) = name.utf8.withContiguousStorageIfAvailable({ fnv($0) }) {
                if ascii { return hash }
            } else {
                let (hash, ascii) = fnv(name.utf8)
                if ascii { return hash }
            }
            return fnv(canonicalComposition(of: name).utf8).hash
        }

        @inline(__always)
        private static func fnv<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> (hash: UInt64, ascii: Bool) {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var high: UInt8 = 0
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                high |= byte
            }
            return (hash == 0 ? 1 : hash, high < 0x80)
        }
    }

    /// A channel's name, hash and route, as stored in the trie.
    struct TrieLeaf: Sendable {
        let hash: UInt64
        let name: String
        let route: Route
    }

    /// One slot of a trie node.
    enum TrieSlot: Sendable {
        case leaf(TrieLeaf)
        case node(TrieNode)
        /// Leaves whose 64-bit hashes are all equal.
        case collision([TrieLeaf])
    }

    /// A node of the routing trie: a bitmap of the 32 ways in use and their slots, in order.
    final class TrieNode: Sendable {
        let bitmap: UInt32
        let slots: [TrieSlot]

        init(bitmap: UInt32, slots: [TrieSlot]) {
            self.bitmap = bitmap
            self.slots = slots
        }

        /// This node with the leaf for `name` set to `leaf` (or removed when `nil`), or
        /// `nil` when nothing is left. `delta` gets +1 for an added channel, -1 for a removed one.
        func setting(hash: UInt64, name: String, leaf: TrieLeaf?, shift: UInt64, delta: inout Int) -> TrieNode? {
            let bit = UInt32(1) &<< UInt32(truncatingIfNeeded: (hash &>> shift) & 31)
            let index = (bitmap & (bit &- 1)).nonzeroBitCount
            guard bitmap & bit != 0 else {
                guard let leaf else { return self }
                delta = 1
                var slots = self.slots
                slots.insert(.leaf(leaf), at: index)
                return TrieNode(bitmap: bitmap | bit, slots: slots)
            }
            let replacement: TrieSlot?
            switch slots[index] {
            case .leaf(let existing):
                if existing.hash == hash && existing.name == name {
                    replacement = leaf.map { .leaf($0) }
                    if leaf == nil { delta = -1 }
                } else if let leaf {
                    delta = 1
                    replacement = TrieNode.joining(existing, leaf, shift: shift &+ 5)
                } else {
                    return self
                }
            case .node(let child):
                let changed = child.setting(hash: hash, name: name, leaf: leaf, shift: shift &+ 5, delta: &delta)
                replacement = changed.map { node -> TrieSlot in
                    // A node left with one leaf is folded into its parent.
                    if node.slots.count == 1, case .leaf = node.slots[0] { return node.slots[0] }
                    return .node(node)
                }
            case .collision(let leaves):
                guard
                    let slot = collisionSetting(leaves, hash: hash, name: name, leaf: leaf, shift: shift, delta: &delta)
                else { return self }
                replacement = slot
            }
            return with(replacement, at: index, bit: bit)
        }

        /// The slot that replaces a collision slot of this node (`.some(nil)`: none), or
        /// `nil` when nothing changes.
        private func collisionSetting(
            _ leaves: [TrieLeaf], hash: UInt64, name: String, leaf: TrieLeaf?, shift: UInt64, delta: inout Int
        ) -> TrieSlot?? {
            var leaves = leaves
            if let position = leaves.firstIndex(where: { $0.hash == hash && $0.name == name }) {
                if let leaf {
                    leaves[position] = leaf
                } else {
                    leaves.remove(at: position)
                    delta = -1
                }
                return .some(leaves.count > 1 ? .collision(leaves) : leaves.first.map { .leaf($0) })
            }
            guard let leaf else { return nil }
            delta = 1
            // Below the last level (or for equal hashes), a collision is a list.
            if shift &+ 5 >= 64 || leaves.first?.hash == hash {
                return .some(.collision(leaves + [leaf]))
            }
            // Another hash on this way: push the collision one level down, then add the leaf there.
            let first = leaves.first?.hash ?? hash
            let way = UInt32(truncatingIfNeeded: (first &>> (shift &+ 5)) & 31)
            var ignored = 0
            let below = TrieNode(bitmap: 1 &<< way, slots: [.collision(leaves)])
                .setting(hash: hash, name: name, leaf: leaf, shift: shift &+ 5, delta: &ignored)
            return .some(below.map { .node($0) })
        }

        /// This node with slot `index` (way `bit`) replaced, or removed when `slot` is `nil`.
        private func with(_ slot: TrieSlot?, at index: Int, bit: UInt32) -> TrieNode? {
            var slots = self.slots
            guard let slot else {
                slots.remove(at: index)
                return slots.isEmpty ? nil : TrieNode(bitmap: bitmap & ~bit, slots: slots)
            }
            slots[index] = slot
            return TrieNode(bitmap: bitmap, slots: slots)
        }

        /// The slot holding two leaves with different names, split at `shift` and below.
        private static func joining(_ first: TrieLeaf, _ second: TrieLeaf, shift: UInt64) -> TrieSlot {
            if first.hash == second.hash || shift >= 64 { return .collision([first, second]) }
            let firstWay = UInt32(truncatingIfNeeded: (first.hash &>> shift) & 31)
            let secondWay = UInt32(truncatingIfNeeded: (second.hash &>> shift) & 31)
            if firstWay == secondWay {
                return .node(TrieNode(bitmap: 1 &<< firstWay, slots: [joining(first, second, shift: shift &+ 5)]))
            }
            let slots: [TrieSlot] =
                firstWay < secondWay ? [.leaf(first), .leaf(second)] : [.leaf(second), .leaf(first)]
            return .node(TrieNode(bitmap: (1 &<< firstWay) | (1 &<< secondWay), slots: slots))
        }

        func forEachRoute(_ body: (Channel, Route) -> Void) {
            for slot in slots {
                switch slot {
                case .leaf(let leaf): body(Channel(uncheckedName: leaf.name), leaf.route)
                case .node(let node): node.forEachRoute(body)
                case .collision(let leaves):
                    for leaf in leaves { body(Channel(uncheckedName: leaf.name), leaf.route) }
                }
            }
        }
    }
}

/// `name` in Unicode normalization form C, so that canonically equivalent names hash alike.
private func canonicalComposition(of name: String) -> String {
    name.precomposedStringWithCanonicalMapping
}
