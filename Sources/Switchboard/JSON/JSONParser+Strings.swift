// The strict reader's strings (`JSONParser`): plain runs, escapes, `\u` escapes with
// their surrogate pairs, and the UTF-8 they append.

extension JSONParser {
    /// Parses a string starting at its opening quote; leaves `position` after the closing quote.
    mutating func parseString() throws(JSONReadError) -> String {
        let opening = position
        let start = position + 1
        var index = start
        // Fast path: printable ASCII without escapes, made into a String straight from the input.
        while index < count {
            let byte = input[index]
            if byte == JSONASCII.quote {
                position = index + 1
                return String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
            }
            if byte == JSONASCII.backslash || byte < 0x20 || byte >= 0x80 { break }
            index += 1
        }
        return try parseStringSlowly(opening: opening, from: index)
    }

    /// Handles escapes and non-ASCII from `index` on (everything before it is plain ASCII).
    mutating func parseStringSlowly(opening: Int, from index: Int) throws(JSONReadError) -> String {
        let start = opening + 1
        var index = index
        var escaped = false
        var runStart = start
        while true {
            guard index < count else {
                throw fail(.unexpectedEndOfInput, "unterminated string (missing closing '\"')", at: opening)
            }
            let byte = input[index]
            if byte == JSONASCII.quote {
                position = index + 1
                if !escaped {
                    return String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<index]))
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == JSONASCII.backslash {
                if !escaped {
                    escaped = true
                    scratch.removeAll(keepingCapacity: true)
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: input[runStart..<index]))
                index = try parseEscape(at: index)
                runStart = index
            } else if byte < 0x20 {
                throw fail(
                    .controlCharacterInString,
                    "unescaped control character U+\(hex(UInt32(byte), digits: 4)) in string", at: index)
            } else if byte < 0x80 {
                index += 1
            } else {
                index = try validateUTF8Sequence(at: index)
            }
        }
    }

    /// Appends the escape at `index` (a backslash) to `scratch`; returns the index after it.
    mutating func parseEscape(at index: Int) throws(JSONReadError) -> Int {
        guard index + 1 < count else {
            throw fail(.unexpectedEndOfInput, "unterminated string (input ends inside an escape)", at: index)
        }
        let simple: UInt8
        switch input[index + 1] {
        case JSONASCII.quote: simple = JSONASCII.quote
        case JSONASCII.backslash: simple = JSONASCII.backslash
        case JSONASCII.slash: simple = JSONASCII.slash
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = JSONASCII.newline
        case UInt8(ascii: "r"): simple = JSONASCII.carriageReturn
        case UInt8(ascii: "t"): simple = JSONASCII.tab
        case UInt8(ascii: "u"):
            return try parseUnicodeEscape(at: index)
        default:
            throw fail(
                .invalidEscape, "invalid escape '\\\(describe(at: index + 1).trimmingQuotes)' in string", at: index)
        }
        scratch.append(simple)
        return index + 2
    }

    /// Reads the four hex digits of `\uXXXX` at `index` (the backslash).
    func hexQuad(at index: Int) throws(JSONReadError) -> UInt32 {
        guard index + 6 <= count else {
            throw fail(.invalidEscape, "invalid \\u escape, expected 4 hex digits", at: index)
        }
        var value: UInt32 = 0
        for offset in 2..<6 {
            let byte = input[index + offset]
            let digit: UInt8
            switch byte {
            case JSONASCII.zero...JSONASCII.nine: digit = byte - JSONASCII.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail(.invalidEscape, "invalid \\u escape, expected 4 hex digits", at: index)
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    mutating func parseUnicodeEscape(at index: Int) throws(JSONReadError) -> Int {
        let unit = try hexQuad(at: index)
        var scalarValue = unit
        var end = index + 6
        if unit >= 0xDC00 && unit <= 0xDFFF {
            throw fail(
                .loneSurrogate,
                "lone surrogate \\u\(hex(unit, digits: 4)) in string (a low surrogate without a high surrogate)",
                at: index)
        }
        if unit >= 0xD800 && unit <= 0xDBFF {
            guard end + 1 < count, input[end] == JSONASCII.backslash, input[end + 1] == UInt8(ascii: "u") else {
                throw fail(
                    .loneSurrogate,
                    "lone surrogate \\u\(hex(unit, digits: 4)) in string (a high surrogate not followed by a low one)",
                    at: index)
            }
            let low = try hexQuad(at: end)
            guard low >= 0xDC00 && low <= 0xDFFF else {
                throw fail(
                    .loneSurrogate,
                    "lone surrogate \\u\(hex(unit, digits: 4)) in string (a high surrogate not followed by a low one)",
                    at: index)
            }
            scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            end += 6
        }
        appendUTF8(scalarValue)
        return end
    }

    mutating func appendUTF8(_ value: UInt32) {
        switch value {
        case 0..<0x80:
            scratch.append(UInt8(truncatingIfNeeded: value))
        case 0x80..<0x800:
            scratch.append(UInt8(truncatingIfNeeded: 0xC0 | (value >> 6)))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | (value & 0x3F)))
        case 0x800..<0x10000:
            scratch.append(UInt8(truncatingIfNeeded: 0xE0 | (value >> 12)))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | ((value >> 6) & 0x3F)))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | (value & 0x3F)))
        default:
            scratch.append(UInt8(truncatingIfNeeded: 0xF0 | (value >> 18)))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | ((value >> 12) & 0x3F)))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | ((value >> 6) & 0x3F)))
            scratch.append(UInt8(truncatingIfNeeded: 0x80 | (value & 0x3F)))
        }
    }
}
