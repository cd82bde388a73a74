/// What hashing text consistently with `String`'s `==` needs: `==` is canonical
/// equivalence, by the standard library's Unicode tables, so a hash made from a string's
/// bytes must give canonically equivalent spellings the same bytes. ASCII is its own
/// only spelling but for three characters; any other text is hashed through `Hasher`,
/// which agrees with `==` by definition. (Not through Foundation's NFC,
/// `precomposedStringWithCanonicalMapping`: on Linux its tables can be older than the
/// standard library's, e.g. without Unicode 16's Kirat Rai compositions, which `==`
/// knows, and two equal strings would then hash apart.)
package enum CanonicalText {
    /// The ASCII bytes `string` is canonically equivalent to, if any: its own when it is
    /// ASCII, with U+037E GREEK QUESTION MARK, U+1FEF GREEK VARIA and U+212A KELVIN SIGN
    /// read as `;`, `` ` `` and `K` (the only scalars equal to ASCII text: checked over every
    /// scalar against `==`); `nil` when it has any other non-ASCII scalar.
    package static func asciiEquivalent(of string: String) -> [UInt8]? {
        // Refused before anything is allocated when another non-ASCII scalar is there (the usual case).
        guard mayHaveASCIIEquivalent(string.utf8) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0..<0x80: bytes.append(UInt8(truncatingIfNeeded: scalar.value))
            case 0x037E: bytes.append(UInt8(ascii: ";"))
            case 0x1FEF: bytes.append(UInt8(ascii: "`"))
            case 0x212A: bytes.append(UInt8(ascii: "K"))
            default: return nil
            }
        }
        return bytes
    }

    /// Whether every non-ASCII scalar of `utf8` is one of the three with an ASCII equivalent
    /// (U+037E is CD BE in UTF-8, U+1FEF is E1 BF AF, U+212A is E2 84 AA).
    private static func mayHaveASCIIEquivalent(_ utf8: String.UTF8View) -> Bool {
        // Native strings: their bytes in place (the iterator below costs several times as much a byte).
        if let answer = utf8.withContiguousStorageIfAvailable(mayHaveASCIIEquivalent(bytes:)) { return answer }
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case 0..<0x80: continue
            case 0xCD: guard iterator.next() == 0xBE else { return false }
            case 0xE1: guard iterator.next() == 0xBF, iterator.next() == 0xAF else { return false }
            case 0xE2: guard iterator.next() == 0x84, iterator.next() == 0xAA else { return false }
            default: return false
            }
        }
        return true
    }

    /// ``mayHaveASCIIEquivalent(_:)`` over contiguous UTF-8 bytes.
    private static func mayHaveASCIIEquivalent(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                index &+= 1
                continue
            }
            switch byte {
            case 0xCD:
                guard index &+ 1 < count, bytes[index &+ 1] == 0xBE else { return false }
                index &+= 2
            case 0xE1:
                guard index &+ 2 < count, bytes[index &+ 1] == 0xBF, bytes[index &+ 2] == 0xAF else { return false }
                index &+= 3
            case 0xE2:
                guard index &+ 2 < count, bytes[index &+ 1] == 0x84, bytes[index &+ 2] == 0xAA else { return false }
                index &+= 3
            default:
                return false
            }
        }
        return true
    }

    /// `Hasher`'s hash of `string` (per process), for text with no ASCII equivalent.
    package static func hasherHash(of string: String) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(string)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}
