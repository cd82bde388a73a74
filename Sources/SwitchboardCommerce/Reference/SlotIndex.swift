/// A hash table from a hash its owner computed (``StoreHasher``, or a number) to a slot
/// of ``InsertionOrderedStore``: open addressing with linear probing, at most half full.
///
/// It holds hashes and slot numbers only; whether the element in a slot has the key looked
/// for is the caller's question (`where:`), asked only of slots whose hash is equal. No
/// `Hasher` runs: the bucket is the hash's Fibonacci product's top bits, which spreads
/// sequential numbers as well as hashes. Removal moves the following buckets back
/// (backward-shift deletion), so no tombstones accumulate.
struct SlotIndex {
    private struct Bucket {
        var hash: Int
        /// The slot, or -1 when the bucket is empty.
        var slot: Int
    }

    private static let empty = Bucket(hash: 0, slot: -1)

    private var buckets: [Bucket] = []
    /// 64 − log2(buckets.count): the bucket of a hash is its Fibonacci product shifted by this.
    private var shift = 64
    /// How many slots are indexed.
    private(set) var count = 0

    /// An empty index.
    init() {}

    @inline(__always)
    private func home(of hash: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: hash)) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// The first slot with `hash` for which `matches` is true, if any.
    func first(_ hash: Int, where matches: (Int) -> Bool) -> Int? {
        guard count > 0 else { return nil }
        return buckets.withUnsafeBufferPointer { buckets in
            let mask = buckets.count - 1
            var position = home(of: hash)
            while true {
                let bucket = buckets[position]
                if bucket.slot < 0 { return nil }
                if bucket.hash == hash && matches(bucket.slot) { return bucket.slot }
                position = (position + 1) & mask
            }
        }
    }

    /// Indexes `slot` under `hash`.
    mutating func insert(_ hash: Int, slot: Int) {
        if (count + 1) * 2 > buckets.count { resize(toHold: count + 1) }
        place(Bucket(hash: hash, slot: slot))
        count += 1
    }

    /// Removes `slot`, indexed under `hash`, from the index (nothing when it is not there).
    mutating func remove(_ hash: Int, slot: Int) {
        guard count > 0 else { return }
        let shift = shift
        buckets.withUnsafeMutableBufferPointer { buckets in
            let mask = buckets.count - 1
            func home(_ hash: Int) -> Int {
                Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: hash)) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
            }
            var hole = home(hash)
            while buckets[hole].slot != slot {
                if buckets[hole].slot < 0 { return }
                hole = (hole + 1) & mask
            }
            // Moves back each following bucket whose home is not between the hole and it.
            var next = (hole + 1) & mask
            while buckets[next].slot >= 0 {
                let distanceFromHome = (next - home(buckets[next].hash)) & mask
                if distanceFromHome >= (next - hole) & mask {
                    buckets[hole] = buckets[next]
                    hole = next
                }
                next = (next + 1) & mask
            }
            buckets[hole] = SlotIndex.empty
            count -= 1
        }
    }

    /// Empties the index, sized for `capacity` slots.
    mutating func removeAll(reservingFor capacity: Int) {
        count = 0
        buckets = []
        shift = 64
        if capacity > 0 { resize(toHold: capacity) }
    }

    /// Makes room for `needed` slots at most half full, moving every bucket to its new place.
    private mutating func resize(toHold needed: Int) {
        var size = 16
        while size < needed * 2 { size *= 2 }
        let old = buckets
        buckets = Array(repeating: SlotIndex.empty, count: size)
        shift = 64 - size.trailingZeroBitCount
        for bucket in old where bucket.slot >= 0 { place(bucket) }
    }

    /// Puts `bucket` in the first empty bucket from its home (there is one: the table is at most half full).
    private mutating func place(_ bucket: Bucket) {
        let home = home(of: bucket.hash)
        buckets.withUnsafeMutableBufferPointer { buckets in
            let mask = buckets.count - 1
            var position = home
            while buckets[position].slot >= 0 { position = (position + 1) & mask }
            buckets[position] = bucket
        }
    }
}
