/// A persistent map from channel names to values: an immutable snapshot that a
/// change replaces, copying only the nodes on the changed name's path.
///
/// A hash trie (32 ways per level, keyed by a byte hash of the name): changing one
/// name copies O(log n) nodes and leaves the map it came from intact. Two snapshots
/// of one map share every node a change did not touch, so ``diff(from:to:same:_:)``
/// finds what changed between them in time proportional to the changes, not the size.
///
/// Names are hashed as UTF-8 bytes (FNV-1a), much cheaper than `Hasher`; a
/// name that is not ASCII is hashed as ``CanonicalText`` says (as the ASCII it
/// equals, or through `Hasher`), because ``Channel`` compares names as `String`s
/// (canonical equivalence) and keys are compared the same way.
struct HashTrie<Value: Sendable>: Sendable {
    private(set) var root: TrieNode<Value>?
    /// How many names have a value.
    private(set) var count = 0

    /// The value of the name `name`, whose ``hash(_:)`` is `hash`, or `nil` when it has none.
    @inline(__always)
    func value(named name: String, hash: UInt64) -> Value? {
        leaf(named: name, hash: hash)?.value
    }

    /// The name of the entry named `name` (equal to it, `==`), as the trie stores it; `nil` when it has none.
    func storedName(_ name: String, hash: UInt64) -> String? {
        leaf(named: name, hash: hash)?.name
    }

    /// The entry named `name`, whose ``hash(_:)`` is `hash`, or `nil` when it has none.
    @inline(__always)
    private func leaf(named name: String, hash: UInt64) -> TrieLeaf<Value>? {
        guard var node = root else { return nil }
        var shift: UInt64 = 0
        while true {
            let bit = UInt32(1) &<< UInt32(truncatingIfNeeded: (hash &>> shift) & 31)
            guard node.bitmap & bit != 0 else { return nil }
            switch node.slots[(node.bitmap & (bit &- 1)).nonzeroBitCount] {
            case .leaf(let leaf):
                return leaf.hash == hash && leaf.name == name ? leaf : nil
            case .node(let child):
                node = child
                shift &+= 5
            case .collision(let leaves):
                return leaves.first { $0.hash == hash && $0.name == name }
            }
        }
    }

    /// Sets (or, with `nil`, removes) the value of `name`.
    mutating func set(_ name: String, _ value: Value?) {
        let hash = HashTrie.hash(name)
        let leaf = value.map { TrieLeaf(hash: hash, name: name, value: $0) }
        var delta = 0
        if let root {
            self.root = root.setting(hash: hash, name: name, leaf: leaf, shift: 0, delta: &delta)
        } else if let leaf {
            self.root = TrieNode(bitmap: 0, slots: []).setting(
                hash: hash, name: name, leaf: leaf, shift: 0, delta: &delta)
        }
        count += delta
    }

    /// Calls `body` with every name and its value (in no particular order).
    func forEachEntry(_ body: (String, Value) -> Void) {
        root?.forEachEntry(body)
    }

    /// Calls `body` with each name whose value differs between `old` and `new`, and its
    /// value in each (`nil` where it has none), until `body` returns `false`. Nodes the two
    /// share are skipped, so two snapshots of one map a few changes apart are compared in
    /// O(changes × log n). `same` tells whether two values of one name count as equal.
    /// - Returns: `false` when `body` stopped the walk.
    @discardableResult
    static func diff(
        from old: HashTrie, to new: HashTrie, same: (Value, Value) -> Bool,
        _ body: (String, Value?, Value?) -> Bool
    ) -> Bool {
        TrieSlot.diff(old.root.map { .node($0) }, new.root.map { .node($0) }, same: same, body)
    }

    /// FNV-1a over the name's UTF-8 bytes when it is ASCII (or equal to ASCII text), else
    /// `Hasher`'s hash, which agrees with `==` (see CanonicalText); never 0.
    static func hash(_ name: String) -> UInt64 {
        if let (hash, ascii) = name.utf8.withContiguousStorageIfAvailable({ fnv($0) }) {
            if ascii { return hash }
        } else {
            let (hash, ascii) = fnv(name.utf8)
            if ascii { return hash }
        }
        // Canonically equivalent names are equal (`==`) and must hash alike (CanonicalText).
        if let ascii = CanonicalText.asciiEquivalent(of: name) { return fnv(ascii).hash }
        let hash = CanonicalText.hasherHash(of: name)
        return hash == 0 ? 1 : hash
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

/// A name, its hash and its value, as stored in the trie.
struct TrieLeaf<Value: Sendable>: Sendable {
    let hash: UInt64
    let name: String
    let value: Value
}

/// One slot of a trie node.
enum TrieSlot<Value: Sendable>: Sendable {
    case leaf(TrieLeaf<Value>)
    case node(TrieNode<Value>)
    /// Leaves whose 64-bit hashes are all equal.
    case collision([TrieLeaf<Value>])

    /// See ``HashTrie/diff(from:to:same:_:)``.
    static func diff(
        _ old: TrieSlot?, _ new: TrieSlot?, same: (Value, Value) -> Bool, _ body: (String, Value?, Value?) -> Bool
    ) -> Bool {
        switch (old, new) {
        case (.node(let old), .node(let new)):
            if old === new { return true }
            var ways = old.bitmap | new.bitmap
            while ways != 0 {
                let bit = ways & (~ways &+ 1)
                ways &= ways &- 1
                let before = old.bitmap & bit == 0 ? nil : old.slots[(old.bitmap & (bit &- 1)).nonzeroBitCount]
                let after = new.bitmap & bit == 0 ? nil : new.slots[(new.bitmap & (bit &- 1)).nonzeroBitCount]
                guard diff(before, after, same: same, body) else { return false }
            }
            return true
        case (.leaf(let old), .leaf(let new)) where old.hash == new.hash && old.name == new.name:
            return same(old.value, new.value) || body(new.name, old.value, new.value)
        default:
            // Different shapes (a leaf against a node, collisions, or one side empty): compare the
            // leaves below. Such a slot holds few leaves unless as many changed.
            var before: [TrieLeaf<Value>] = []
            var after: [TrieLeaf<Value>] = []
            old?.forEachLeaf { before.append($0) }
            new?.forEachLeaf { after.append($0) }
            for leaf in before {
                let match = after.first { $0.hash == leaf.hash && $0.name == leaf.name }
                if let match, same(leaf.value, match.value) { continue }
                guard body(leaf.name, leaf.value, match?.value) else { return false }
            }
            for leaf in after where !before.contains(where: { $0.hash == leaf.hash && $0.name == leaf.name }) {
                guard body(leaf.name, nil, leaf.value) else { return false }
            }
            return true
        }
    }

    func forEachLeaf(_ body: (TrieLeaf<Value>) -> Void) {
        switch self {
        case .leaf(let leaf): body(leaf)
        case .node(let node): for slot in node.slots { slot.forEachLeaf(body) }
        case .collision(let leaves): for leaf in leaves { body(leaf) }
        }
    }
}

/// A node of the trie: a bitmap of the 32 ways in use and their slots, in order.
final class TrieNode<Value: Sendable>: Sendable {
    let bitmap: UInt32
    let slots: [TrieSlot<Value>]

    init(bitmap: UInt32, slots: [TrieSlot<Value>]) {
        self.bitmap = bitmap
        self.slots = slots
    }

    /// This node with the leaf for `name` set to `leaf` (or removed when `nil`), or
    /// `nil` when nothing is left. `delta` gets +1 for an added name, -1 for a removed one.
    func setting(hash: UInt64, name: String, leaf: TrieLeaf<Value>?, shift: UInt64, delta: inout Int) -> TrieNode? {
        let bit = UInt32(1) &<< UInt32(truncatingIfNeeded: (hash &>> shift) & 31)
        let index = (bitmap & (bit &- 1)).nonzeroBitCount
        guard bitmap & bit != 0 else {
            guard let leaf else { return self }
            delta = 1
            var slots = self.slots
            slots.insert(.leaf(leaf), at: index)
            return TrieNode(bitmap: bitmap | bit, slots: slots)
        }
        let replacement: TrieSlot<Value>?
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
            replacement = changed.map { node -> TrieSlot<Value> in
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
        _ leaves: [TrieLeaf<Value>], hash: UInt64, name: String, leaf: TrieLeaf<Value>?, shift: UInt64,
        delta: inout Int
    ) -> TrieSlot<Value>?? {
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
    private func with(_ slot: TrieSlot<Value>?, at index: Int, bit: UInt32) -> TrieNode? {
        var slots = self.slots
        guard let slot else {
            slots.remove(at: index)
            return slots.isEmpty ? nil : TrieNode(bitmap: bitmap & ~bit, slots: slots)
        }
        slots[index] = slot
        return TrieNode(bitmap: bitmap, slots: slots)
    }

    /// The slot holding two leaves with different names, split at `shift` and below.
    private static func joining(_ first: TrieLeaf<Value>, _ second: TrieLeaf<Value>, shift: UInt64) -> TrieSlot<Value> {
        if first.hash == second.hash || shift >= 64 { return .collision([first, second]) }
        let firstWay = UInt32(truncatingIfNeeded: (first.hash &>> shift) & 31)
        let secondWay = UInt32(truncatingIfNeeded: (second.hash &>> shift) & 31)
        if firstWay == secondWay {
            return .node(TrieNode(bitmap: 1 &<< firstWay, slots: [joining(first, second, shift: shift &+ 5)]))
        }
        let slots: [TrieSlot<Value>] =
            firstWay < secondWay ? [.leaf(first), .leaf(second)] : [.leaf(second), .leaf(first)]
        return .node(TrieNode(bitmap: (1 &<< firstWay) | (1 &<< secondWay), slots: slots))
    }

    func forEachEntry(_ body: (String, Value) -> Void) {
        for slot in slots {
            switch slot {
            case .leaf(let leaf): body(leaf.name, leaf.value)
            case .node(let node): node.forEachEntry(body)
            case .collision(let leaves):
                for leaf in leaves { body(leaf.name, leaf.value) }
            }
        }
    }
}
