import Foundation

/// The hash the reference stores find their lines and entries by: one pass over each
/// string's UTF-8 bytes, eight at a time, with a seed drawn once per process. `Hasher`
/// (SipHash) costs several times as much over the same strings, and a `[String: String]`
/// of attributes hashed as a dictionary pays it, plus a finalization, once per pair.
///
/// Equal keys must hash equally, and `String` equality is canonical equivalence: two strings
/// are equal when their NFC forms are. So a string's NFC bytes are hashed. Most strings are
/// in NFC already and known to be from their characters alone: ASCII, and text whose
/// every character is its own NFC form and composes with nothing before it (`isKnownNFC`:
/// Latin, Greek, Cyrillic, CJK, currency signs, emoji…). Those bytes are hashed as they
/// are; any other string (decomposed accents, Hangul jamo, some Indic vowel signs, U+212A
/// KELVIN SIGN…) is hashed as its NFC form (`precomposedStringWithCanonicalMapping`, slower).
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

    /// Mixes in a string's NFC bytes (their count first, so two strings never run together).
    mutating func combine(_ string: String) {
        let start = state
        let known = string.utf8.withContiguousStorageIfAvailable { bytes in
            StoreHasher.hash(bytes, from: start, onlyIfNFC: true)
        }
        if let known, let hash = known {
            state = hash
            return
        }
        // Not known to be NFC, or not stored as contiguous UTF-8 (a bridged string): its NFC form.
        let normalized = Array(string.precomposedStringWithCanonicalMapping.utf8)
        state = normalized.withUnsafeBufferPointer { StoreHasher.hash($0, from: start, onlyIfNFC: false) } ?? start
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

    /// The state after mixing in `bytes` from `start`; `nil` when `onlyIfNFC` and the bytes
    /// are not known to be NFC (see the type's comment).
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, from start: UInt64, onlyIfNFC: Bool) -> UInt64? {
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
        if onlyIfNFC && seen & 0x8080_8080_8080_8080 != 0 && !isKnownNFC(bytes) { return nil }
        return state
    }

    /// Whether the (valid UTF-8) `bytes` are their own NFC form, as their characters show:
    /// each is a starter (combining class 0) that is its own NFC form (not a composition
    /// exclusion) and composes with no character before it (not a mark, but for variation
    /// selectors, nor a Hangul vowel or final jamo). U+0080–U+02FF and U+2002–U+20C0 (but the
    /// unassigned U+2065) are all such characters, known without looking their properties up.
    private static func isKnownNFC(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = UInt32(bytes[index])
            if lead < 0x80 {
                index += 1
                continue
            }
            if lead >= 0xC2 && lead <= 0xCB {
                index += 2
                continue
            }
            let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            guard index + length <= count else { return false }
            var value = lead & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
            for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
            index += length
            if value >= 0x2002 && value <= 0x20C0 && value != 0x2065 { continue }
            guard let scalar = Unicode.Scalar(value), !(0x1100...0x11FF).contains(value) else { return false }
            let properties = scalar.properties
            guard properties.canonicalCombiningClass == .notReordered, !properties.isFullCompositionExclusion else {
                return false
            }
            switch properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                guard (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) else { return false }
            default:
                break
            }
        }
        return true
    }
}
