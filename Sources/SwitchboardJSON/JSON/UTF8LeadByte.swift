/// Unicode's Table 3-7 (well-formed UTF-8) by lead byte: what the scanner
/// accepts, and what its error messages say about a sequence it refused.
enum UTF8LeadByte {
    /// The length of the sequence a lead byte starts and the allowed range of its
    /// second byte; `nil` for a byte that cannot start a multi-byte sequence
    /// (ASCII, a continuation byte, `C0`/`C1`, `F5`–`FF`).
    @inline(__always)
    static func bounds(_ lead: UInt8) -> (length: Int, low: UInt8, high: UInt8)? {
        switch lead {
        case 0xC2...0xDF: return (2, 0x80, 0xBF)
        case 0xE0: return (3, 0xA0, 0xBF)
        case 0xED: return (3, 0x80, 0x9F)
        case 0xE1...0xEF: return (3, 0x80, 0xBF)
        case 0xF0: return (4, 0x90, 0xBF)
        case 0xF4: return (4, 0x80, 0x8F)
        case 0xF1...0xF3: return (4, 0x80, 0xBF)
        default: return nil
        }
    }
}
