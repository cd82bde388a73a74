// Why the scanner (`JSONTapeParser`) stopped, and the `JSONReadError` users see for it.
// The scanner only records what and where; the words are put together here, on the
// error path, looking at no more of the input than the bytes they name.

/// Why a scan stopped and where (byte offsets into the input).
enum JSONScanFailure {
    /// What the scanner looked for where it found something else, or the end.
    enum Expected {
        case value, keyOrClose, key, colon, commaOrBrace, commaOrBracket

        var text: String {
            switch self {
            case .value: return "a value"
            case .keyOrClose: return "a string key or '}'"
            case .key: return "a string key"
            case .colon: return "':' after the key"
            case .commaOrBrace: return "',' or '}'"
            case .commaOrBracket: return "',' or ']'"
            }
        }
    }

    /// What is wrong with a number.
    enum NumberProblem {
        case digitAfterMinus, leadingZero, digitAfterDot, digitInExponent
    }

    /// A UTF-8 byte-order mark at the start.
    case byteOrderMark
    /// Empty, or only whitespace.
    case noValue
    /// Something else than `Expected`, or the end of the input.
    case unexpected(Expected, at: Int)
    /// A `,` (at the offset) directly before `]` or `}`.
    case trailingComma(at: Int)
    /// Something other than whitespace after the value.
    case trailingContent(at: Int)
    /// A container opening deeper than the limit.
    case nestingTooDeep(at: Int)
    /// The key entry (on the scratch tape) that repeats an earlier key of its object.
    case duplicateKey(entry: Int)
    /// A bare word that starts like a literal but is not one (`tru`, `nul`, `-Infinity`).
    case invalidWord(at: Int)
    /// A number outside the grammar.
    case invalidNumber(NumberProblem, at: Int)
    /// A string without its closing quote (the offset of its opening quote).
    case unterminatedString(at: Int)
    /// A backslash that is the input's last byte.
    case unterminatedEscape(at: Int)
    /// A backslash followed by a character JSON defines no escape for.
    case invalidEscape(at: Int)
    /// A `\u` (its backslash) without four hex digits.
    case invalidHexEscape(at: Int)
    /// A `\u` escape of a surrogate (the code unit) that is not part of a high-low pair.
    case loneSurrogate(UInt32, at: Int)
    /// A control character written into a string.
    case controlCharacter(at: Int)
    /// An ill-formed UTF-8 sequence starting at the offset.
    case invalidUTF8(at: Int)
}

extension JSONTapeParser {
    /// The error for the scratch's `failure`, with what and where.
    func error() -> JSONReadError {
        switch scratch.failure {
        case .byteOrderMark:
            return readError(
                .byteOrderMark, "unexpected byte-order mark (U+FEFF) at the start of the input; JSON text has none",
                at: 0)
        case .noValue:
            return readError(
                .unexpectedEndOfInput,
                count == 0 ? "empty input, expected a value" : "expected a value, found only whitespace", at: count)
        case .unexpected(let expected, let offset):
            if expected == .value { return invalidWord(at: offset) }
            return unexpected(at: offset, expected: expected.text)
        case .trailingComma(let offset):
            let closing = input[offset...].first { $0 == UInt8(ascii: "]") || $0 == UInt8(ascii: "}") }
            let bracket = closing == UInt8(ascii: "]") ? "]" : "}"
            return readError(.trailingComma, "unexpected ',' before '\(bracket)' (trailing comma)", at: offset)
        case .trailingContent(let offset):
            return readError(
                .trailingContent, "unexpected \(describe(at: offset)) after the value (trailing content)", at: offset)
        case .nestingTooDeep(let offset):
            return readError(
                .nestingTooDeep(limit: maxDepth), "arrays and objects nested deeper than the limit of \(maxDepth)",
                at: offset)
        case .duplicateKey(let entry):
            let key = keyString(entry)
            return readError(
                .duplicateKey(key), "duplicate key \(quoted(key)) in object",
                at: Int(scratch.entries[entry].offset) - 1)
        case .invalidWord(let offset):
            return invalidWord(at: offset)
        case .invalidNumber(let problem, let offset):
            let reason: String
            switch problem {
            case .digitAfterMinus: reason = "invalid number, expected a digit after '-'"
            case .leadingZero: reason = "invalid number, leading zeros are not allowed"
            case .digitAfterDot: reason = "invalid number, expected a digit after '.'"
            case .digitInExponent: reason = "invalid number, expected a digit in the exponent"
            }
            return readError(.invalidNumber, reason, at: offset)
        case .unterminatedString(let offset):
            return readError(.unexpectedEndOfInput, "unterminated string (missing closing '\"')", at: offset)
        case .unterminatedEscape(let offset):
            return readError(.unexpectedEndOfInput, "unterminated string (input ends inside an escape)", at: offset)
        case .invalidEscape(let offset):
            return readError(
                .invalidEscape, "invalid escape '\\\(describe(at: offset + 1).trimmingQuotes)' in string", at: offset)
        case .invalidHexEscape(let offset):
            return readError(.invalidEscape, "invalid \\u escape, expected 4 hex digits", at: offset)
        case .loneSurrogate(let unit, let offset):
            let which =
                unit >= 0xDC00
                ? "a low surrogate without a high surrogate" : "a high surrogate not followed by a low one"
            return readError(
                .loneSurrogate, "lone surrogate \\u\(hex(unit, digits: 4)) in string (\(which))", at: offset)
        case .controlCharacter(let offset):
            return readError(
                .controlCharacterInString,
                "unescaped control character U+\(hex(UInt32(input[offset]), digits: 4)) in string", at: offset)
        case .invalidUTF8(let offset):
            return readError(
                .invalidUTF8, "invalid UTF-8: \(utf8Problem(at: offset) ?? "truncated sequence")", at: offset)
        }
    }

    func readError(_ kind: JSONReadError.Kind, _ reason: String, at offset: Int) -> JSONReadError {
        JSONReadError(kind, reason, at: offset, in: input)
    }

    /// Describes the input at `offset` for a message: `'x'`, `U+201C '“'`, `byte 0xFF`.
    func describe(at offset: Int) -> String {
        guard offset < count else { return "end of input" }
        let byte = input[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return "control character U+\(hex(UInt32(byte), digits: 4))" }
        if let scalar = scalar(at: offset) {
            return "U+\(hex(scalar.value, digits: 4)) '\(Character(scalar))'"
        }
        return "byte 0x\(hex(UInt32(byte), digits: 2))"
    }

    /// An error for a byte that is wrong where it is, naming comments and single quotes.
    func unexpected(at offset: Int, expected: String) -> JSONReadError {
        guard offset < count else {
            return readError(.unexpectedEndOfInput, "unexpected end of input, expected \(expected)", at: offset)
        }
        let byte = input[offset]
        if byte == UInt8(ascii: "/"), offset + 1 < count,
            input[offset + 1] == UInt8(ascii: "/") || input[offset + 1] == UInt8(ascii: "*")
        {
            return readError(.comment, "comments are not allowed in JSON", at: offset)
        }
        if byte == UInt8(ascii: "'") {
            return readError(.singleQuotedString, "single-quoted strings are not allowed in JSON, use '\"'", at: offset)
        }
        return readError(.unexpectedCharacter, "unexpected \(describe(at: offset)), expected \(expected)", at: offset)
    }

    /// An error for what stands where a value should: names `NaN`, `Infinity` and friends.
    func invalidWord(at start: Int) -> JSONReadError {
        var end = start
        while end < count, end - start < 32 {
            let byte = input[end] | 0x20
            guard (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || input[end] == UInt8(ascii: "-") else {
                break
            }
            end += 1
        }
        let word = String(decoding: UnsafeBufferPointer(rebasing: input[start..<end]), as: UTF8.self)
        switch word {
        case "NaN", "Infinity", "-Infinity", "nan", "inf", "-inf":
            return readError(
                .invalidLiteral, "\(word) is not a JSON number (JSON has no non-finite numbers)", at: start)
        case "undefined":
            return readError(.invalidLiteral, "undefined is not a JSON value, use null", at: start)
        case "True", "False", "Null", "TRUE", "FALSE", "NULL":
            return readError(.invalidLiteral, "invalid literal '\(word)', JSON literals are lowercase", at: start)
        case "":
            return unexpected(at: start, expected: "a value")
        default:
            return readError(.invalidLiteral, "invalid literal '\(word)', expected a value", at: start)
        }
    }

    /// What is wrong with the UTF-8 sequence at `index` (Unicode's Table 3-7), or `nil` when it is well-formed.
    func utf8Problem(at index: Int) -> String? {
        let lead = input[index]
        guard let (length, low, high) = UTF8LeadByte.bounds(lead) else {
            switch lead {
            case 0x00...0x7F: return nil
            case 0x80...0xBF: return "unexpected continuation byte 0x\(hex(UInt32(lead), digits: 2))"
            case 0xC0, 0xC1: return "overlong encoding (lead byte 0x\(hex(UInt32(lead), digits: 2)))"
            default: return "byte 0x\(hex(UInt32(lead), digits: 2)) never appears in UTF-8"
            }
        }
        guard index + length <= count else { return "truncated sequence at end of input" }
        let second = input[index + 1]
        if second < low || second > high {
            guard second >= 0x80 && second <= 0xBF else { return "truncated sequence" }
            if lead == 0xED { return "encoded surrogate (U+D800 to U+DFFF)" }
            if lead == 0xF4 { return "code point above U+10FFFF" }
            return "overlong encoding"
        }
        for offset in 2..<length where input[index + offset] & 0xC0 != 0x80 {
            return "truncated sequence"
        }
        return nil
    }

    /// The scalar of the well-formed multi-byte sequence at `offset`, if it is one (for messages).
    func scalar(at offset: Int) -> Unicode.Scalar? {
        guard utf8Problem(at: offset) == nil, let (length, _, _) = UTF8LeadByte.bounds(input[offset]) else {
            return nil
        }
        var value = UInt32(input[offset]) & (0xFF >> (length + 1))
        for index in (offset + 1)..<(offset + length) {
            value = value << 6 | (UInt32(input[index]) & 0x3F)
        }
        return Unicode.Scalar(value)
    }
}

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
