/// Finds the bytes of a string that JSON text must escape, eight bytes at a time
/// (the scan ``JSONWriter`` makes while it copies a string).
enum JSONEscapeScan {
    /// Whether any byte of `word` may need escaping: a control character, `"`, `\\`, or
    /// (when `separators`) `0xE2`, the lead byte of U+2028 and U+2029. Exact for "none":
    /// a `false` is never wrong; a `true` may be (borrows), and the bytes are then looked at one by one.
    @inline(__always)
    static func mayNeedEscape(_ word: UInt64, separators: Bool) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        var hits = (word &- ones &* 0x20) & ~word
        hits |= (quote &- ones) & ~quote
        hits |= (backslash &- ones) & ~backslash
        if separators {
            let lead = word ^ (ones &* 0xE2)
            hits |= (lead &- ones) & ~lead
        }
        return hits & high != 0
    }

    /// Whether the byte at `index` must be escaped (for `0xE2`: whether it starts U+2028 or U+2029).
    @inline(__always)
    static func needsEscape(
        _ base: UnsafePointer<UInt8>, _ index: Int, _ count: Int, separators: Bool
    ) -> Bool {
        let byte = base[index]
        if byte >= 0x20 && byte != 0x22 && byte != 0x5C && (byte != 0xE2 || !separators) { return false }
        if byte != 0xE2 { return true }
        // U+2028 is E2 80 A8, U+2029 is E2 80 A9.
        return index &+ 2 < count && base[index &+ 1] == 0x80 && base[index &+ 2] & 0xFE == 0xA8
    }

    /// The last `remaining` (one to seven) bytes at `start` as one little-endian word, in order
    /// (the first byte lowest), the bytes after them spaces: a word to scan and to store whole.
    @inline(__always)
    static func orderedTailWord(_ start: UnsafePointer<UInt8>, _ remaining: Int) -> UInt64 {
        let raw = UnsafeRawPointer(start)
        var word: UInt64 = 0
        var offset = 0
        if remaining & 4 != 0 {
            word = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            offset = 4
        }
        if remaining & 2 != 0 {
            let pair = UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
            word |= pair &<< UInt64(truncatingIfNeeded: offset &* 8)
            offset &+= 2
        }
        if remaining & 1 != 0 {
            word |= UInt64(raw.load(fromByteOffset: offset, as: UInt8.self)) &<< UInt64(truncatingIfNeeded: offset &* 8)
        }
        // Spaces above the string's bytes (`remaining` is below eight, so the shift is too).
        let spaces: UInt64 = 0x2020_2020_2020_2020
        return word | (spaces &<< UInt64(truncatingIfNeeded: remaining &* 8))
    }
}
