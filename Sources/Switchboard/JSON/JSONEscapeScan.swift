/// Finds the bytes of a string that JSON text must escape, eight bytes at a time
/// (the scan ``JSONWriter`` uses before copying a string whole).
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

    /// The last `remaining` (fewer than eight) bytes at `start` as one word, padded with spaces.
    @inline(__always)
    static func tailWord(_ start: UnsafePointer<UInt8>, _ remaining: Int) -> UInt64 {
        let raw = UnsafeRawPointer(start)
        var word: UInt64 = 0x2020_2020_2020_2020
        var offset = 0
        if remaining & 4 != 0 {
            word = word << 32 | UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            offset = 4
        }
        if remaining & 2 != 0 {
            word = word << 16 | UInt64(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
            offset &+= 2
        }
        if remaining & 1 != 0 {
            word = word << 8 | UInt64(raw.load(fromByteOffset: offset, as: UInt8.self))
        }
        return word
    }

    /// The index of the first byte of `utf8` that must be escaped, or its count: eight bytes at a time.
    @inline(__always)
    static func firstEscape(_ base: UnsafePointer<UInt8>, _ count: Int, separators: Bool) -> Int {
        var index = 0
        // Sixteen bytes at a time first (SSE2 compares), then words.
        let controlLimit = SIMD16<UInt8>(repeating: 0x20)
        let quotes = SIMD16<UInt8>(repeating: 0x22)
        let backslashes = SIMD16<UInt8>(repeating: 0x5C)
        let leads = SIMD16<UInt8>(repeating: separators ? 0xE2 : 0x22)
        while index &+ 16 <= count {
            let chunk = UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self)
            let special = (chunk .< controlLimit) .| (chunk .== quotes) .| (chunk .== backslashes) .| (chunk .== leads)
            if any(special) { break }
            index &+= 16
        }
        while true {
            while index &+ 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                if mayNeedEscape(word, separators: separators) { break }
                index &+= 8
            }
            // Fewer than eight bytes left, or eight of which one may need an escape: look closer.
            let stop: Int
            if index &+ 8 > count {
                if !mayNeedEscape(tailWord(base + index, count &- index), separators: separators) { return count }
                stop = count
            } else {
                stop = index &+ 8
            }
            while index < stop {
                if needsEscape(base, index, count, separators: separators) { return index }
                index &+= 1
            }
            if index >= count { return count }
        }
    }
}
