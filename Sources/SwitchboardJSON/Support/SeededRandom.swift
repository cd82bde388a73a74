/// A small deterministic random number generator (SplitMix64): the same seed gives the same
/// values on every platform, so generated bodies and examples are reproducible.
///
/// The package's one seeded generator: the contract's example bodies (Switchboard) and every
/// test that makes its input at random use it. It lives in the codec, the module every other
/// one depends on, so that the codec's tests reach it without linking the router.
package struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator.
    /// - Parameter seed: the seed.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    /// - Returns: the bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }

    /// A number from 0 to `count - 1` (0 when `count` is not positive).
    /// - Parameter count: how many numbers to choose from.
    /// - Returns: the number.
    package mutating func below(_ count: Int) -> Int {
        count <= 1 ? 0 : Int(next() % UInt64(count))
    }

    /// `true` with probability 1 / `odds`.
    /// - Parameter odds: one in how many.
    /// - Returns: whether it came up.
    package mutating func oneIn(_ odds: Int) -> Bool {
        below(odds) == 0
    }
}
