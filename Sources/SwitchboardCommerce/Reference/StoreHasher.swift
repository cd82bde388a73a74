import Switchboard

/// The hash the reference stores find their lines and entries by: one pass over each
/// ASCII string's bytes, eight at a time, with a seed drawn once per process. `Hasher`
/// (SipHash) costs several times as much over the same strings, and a `[String: String]`
/// of attributes hashed as a dictionary pays it, plus a finalization, once per pair.
///
/// Equal keys must hash equally, and `String` equality is canonical equivalence, by the
/// standard library's Unicode tables. So:
/// - An ASCII string (most IDs and attribute keys) is hashed by its bytes.
/// - A string that is ASCII but for U+037E GREEK QUESTION MARK, U+1FEF GREEK VARIA or
///   U+212A KELVIN SIGN, the only characters canonically equivalent to ASCII (`;`, `` ` ``,
///   `K`: checked over every scalar against the standard library's `==`), is hashed as the
///   ASCII it equals.
/// - Any other string goes through `Hasher`, which agrees with `==` by definition. (Not
///   through Foundation's NFC: on Linux its tables can be older than the standard
///   library's, e.g. without Unicode 16's Kirat Rai compositions, which `==` knows.)
///
/// A store's hash table spreads the values it gets over its buckets itself (``SlotIndex``);
/// distinct keys with equal hashes are told apart by comparing the keys.
struct StoreHasher {
    /// Drawn once per process, so that which keys collide cannot be known in advance.
    private static let seed = UInt64.random(in: .min ... .max)

    private var state: UInt64

    /// A hasher at its seed.
    init() {
        state = StoreHasher.seed
    }

    /// Mixes in an integer.
    mutating func combine(_ value: Int) {
        state = StoreHasher.mix(state ^ UInt64(bitPattern: Int64(value)), StoreHasher.wordFactor)
    }

    /// Mixes in a string (its count first, so two strings never run together); canonically
    /// equivalent strings, which `==` finds equal, mix in the same (see the type's comment).
    mutating func combine(_ string: String) {
        let start = state
        let ascii = string.utf8.withContiguousStorageIfAvailable { bytes in
            StoreHasher.hash(bytes, from: start, onlyIfASCII: true)
        }
        if let ascii, let hash = ascii {
            state = hash
            return
        }
        if let equivalent = CanonicalText.asciiEquivalent(of: string) {
            let hash = equivalent.withUnsafeBufferPointer { StoreHasher.hash($0, from: start, onlyIfASCII: false) }
            state = hash ?? start
            return
        }
        state = StoreHasher.mix(start ^ CanonicalText.hasherHash(of: string), StoreHasher.wordFactor)
    }

    /// Mixes in an optional string (`nil` apart from every string, the empty one included).
    mutating func combine(_ string: String?) {
        if let string {
            combine(1)
            combine(string)
        } else {
            combine(0)
        }
    }

    /// The hash of everything combined.
    func finalize() -> Int {
        Int(bitPattern: UInt(truncatingIfNeeded: StoreHasher.mix(state, StoreHasher.finalFactor) ^ state))
    }

    private static let wordFactor: UInt64 = 0xA076_1D64_78BD_642F
    private static let tailFactor: UInt64 = 0xE703_7ED1_A0B4_28DB
    private static let lengthFactor: UInt64 = 0x8EBC_6AF0_9C88_C6E3
    private static let finalFactor: UInt64 = 0x5899_65CC_7537_4CC3

    /// The 128-bit product of `a` and `b`, its halves folded together.
    @inline(__always)
    private static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return high ^ low
    }

    /// The state after mixing in `bytes` from `start`; `nil` when `onlyIfASCII` and the bytes
    /// are not all ASCII.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, from start: UInt64, onlyIfASCII: Bool) -> UInt64? {
        let count = bytes.count
        var state = mix(start ^ UInt64(truncatingIfNeeded: count), lengthFactor)
        guard let base = bytes.baseAddress, count > 0 else { return state }
        let raw = UnsafeRawPointer(base)
        // The high bit of every byte seen: all clear for ASCII.
        var seen: UInt64 = 0
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                seen |= word
                state = mix(state ^ word, wordFactor)
                offset += 8
            }
            // The last eight bytes, overlapping the word before when the count is not a multiple of 8.
            let last = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            seen |= last
            state = mix(state ^ last, tailFactor)
        } else {
            // One to seven bytes in one word (with the count, which was mixed in first, they are told apart).
            let word: UInt64
            if count >= 4 {
                let first = UInt64(raw.loadUnaligned(as: UInt32.self))
                word = first | UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)) << 32
            } else {
                word = UInt64(base[0]) | UInt64(base[count / 2]) << 8 | UInt64(base[count - 1]) << 16
            }
            seen |= word
            state = mix(state ^ word, tailFactor)
        }
        if onlyIfASCII && seen & 0x8080_8080_8080_8080 != 0 { return nil }
        return state
    }
}
