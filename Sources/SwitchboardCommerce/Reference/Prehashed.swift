/// A key hashed once, when it is made: a dictionary keyed by it hashes one `Int` on each
/// lookup and when it grows, instead of every string (and every attribute) of the key again.
/// Equal keys have equal hashes, so equality compares the hashes first, then the keys.
struct Prehashed<Base: Hashable>: Hashable {
    let base: Base
    private let hash: Int

    init(_ base: Base) {
        self.base = base
        hash = base.hashValue
    }

    static func == (lhs: Prehashed, rhs: Prehashed) -> Bool {
        lhs.hash == rhs.hash && lhs.base == rhs.base
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(hash)
    }
}
