// The UTF-8 checks of the strict reader (`JSONParser`) and the helpers of its messages.

extension JSONParser {
    /// Checks the multi-byte sequence at `index` against Unicode's Table 3-7; returns the index after it.
    func validateUTF8Sequence(at index: Int) throws(JSONReadError) -> Int {
        let lead = input[index]
        guard let (length, low, high) = UTF8LeadByte.bounds(lead) else {
            switch lead {
            case 0x80...0xBF:
                throw fail(
                    .invalidUTF8, "invalid UTF-8: unexpected continuation byte 0x\(hex(UInt32(lead), digits: 2))",
                    at: index)
            case 0xC0, 0xC1:
                throw fail(
                    .invalidUTF8, "invalid UTF-8: overlong encoding (lead byte 0x\(hex(UInt32(lead), digits: 2)))",
                    at: index)
            default:
                throw fail(
                    .invalidUTF8, "invalid UTF-8: byte 0x\(hex(UInt32(lead), digits: 2)) never appears in UTF-8",
                    at: index)
            }
        }
        guard index + length <= count else {
            throw fail(.invalidUTF8, "invalid UTF-8: truncated sequence at end of input", at: index)
        }
        let second = input[index + 1]
        if second < low || second > high {
            if second >= 0x80 && second <= 0xBF {
                if lead == 0xED {
                    throw fail(.invalidUTF8, "invalid UTF-8: encoded surrogate (U+D800 to U+DFFF)", at: index)
                }
                if lead == 0xF4 {
                    throw fail(.invalidUTF8, "invalid UTF-8: code point above U+10FFFF", at: index)
                }
                throw fail(.invalidUTF8, "invalid UTF-8: overlong encoding", at: index)
            }
            throw fail(.invalidUTF8, "invalid UTF-8: truncated sequence", at: index)
        }
        var offset = 2
        while offset < length {
            let byte = input[index + offset]
            guard byte >= 0x80 && byte <= 0xBF else {
                throw fail(.invalidUTF8, "invalid UTF-8: truncated sequence", at: index)
            }
            offset += 1
        }
        return index + length
    }

    /// Decodes the scalar at `offset` if it is well-formed (for messages only).
    func decodeScalar(at offset: Int) -> (Unicode.Scalar, Int)? {
        guard let end = try? validateUTF8Sequence(at: offset) else { return nil }
        var value = UInt32(input[offset]) & (0xFF >> (end - offset + 1))
        for index in (offset + 1)..<end {
            value = value << 6 | (UInt32(input[index]) & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, end)
    }
}

// MARK: - Message helpers

/// `value` in upper-case hex, zero-padded to `digits`.
func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}

/// `text` in double quotes, escaped as JSON, shortened if long (for messages).
func quoted(_ text: String) -> String {
    var writer = JSONWriter()
    if text.unicodeScalars.count > 64 {
        writer.write(String(text.unicodeScalars.prefix(64)) + "…")
    } else {
        writer.write(text)
    }
    return String(decoding: writer.bytes, as: UTF8.self)
}

extension String {
    /// `'x'` → `x`, for splicing a described byte into an escape.
    var trimmingQuotes: String {
        if count >= 3 && hasPrefix("'") && hasSuffix("'") { return String(dropFirst().dropLast()) }
        return self
    }
}
