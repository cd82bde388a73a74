/// The keys of one of a stream's open objects with many members (``StreamSink``), by a hash of
/// their escaped bytes: whether a key repeats one of them is then found in about the same time
/// for the hundred-thousandth key as for the tenth, where a scan of all the object's keys would
/// make a large object (a `[String: T]` of 100,000 entries) take quadratic time.
///
/// An entry is a position in the sink's key spans; a match counts only when the caller finds the
/// bytes there the same as the new key's (hashes collide). Emptied when its object closes
/// (``removeAll()``), so it holds no more than the keys of that object.
final class StreamKeyIndex {
    /// Open addressing, linear probing: each slot a span position plus one (`0` when empty).
    private var positions: [Int] = []
    /// The hash of each slot's key.
    private var hashes: [Int] = []
    /// The number of slots in use.
    private var used = 0
    /// Where its object's keys begin in the sink's key spans.
    var keyStart = 0

    /// Forgets every entry (its object is closed); a large table is let go.
    func removeAll() {
        guard used > 0 else { return }
        if positions.count > 4096 {
            positions = []
            hashes = []
        } else {
            for index in positions.indices { positions[index] = 0 }
        }
        used = 0
    }

    /// The hash of a key's escaped bytes.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }

    /// Adds the key at span `position`, whose bytes hash to `hash`.
    func insert(position: Int, hash: Int) {
        if (used &+ 1) &* 2 > positions.count { grow() }
        place(position &+ 1, hash: hash)
        used &+= 1
    }

    /// Whether `matches` is true of a position listed with `hash`.
    func contains(hash: Int, where matches: (Int) -> Bool) -> Bool {
        guard used > 0 else { return false }
        let mask = positions.count &- 1
        var slot = hash & mask
        while positions[slot] != 0 {
            if hashes[slot] == hash, matches(positions[slot] &- 1) { return true }
            slot = (slot &+ 1) & mask
        }
        return false
    }

    private func place(_ entry: Int, hash: Int) {
        let mask = positions.count &- 1
        var slot = hash & mask
        while positions[slot] != 0 { slot = (slot &+ 1) & mask }
        positions[slot] = entry
        hashes[slot] = hash
    }

    private func grow() {
        let old = (positions, hashes)
        let size = Swift.max(64, positions.count &* 2)
        positions = Array(repeating: 0, count: size)
        hashes = Array(repeating: 0, count: size)
        for (entry, hash) in zip(old.0, old.1) where entry != 0 { place(entry, hash: hash) }
    }
}
