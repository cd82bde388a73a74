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

    /// `Hasher`'s hash of `string` (per process), for text with no ASCII equivalent.
    package static func hasherHash(of string: String) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(string)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }
}
