/// Why ``JSONReader`` rejected its input, and where.
///
/// The ``description`` says what and where in one line, for example
/// `unexpected ',' before '}' (trailing comma) at byte 6 (column 7)`.
/// ``offset`` is the 0-based byte offset of the problem; ``line`` and
/// ``column`` are 1-based, the column counted in Unicode scalars.
/// One-line input (an NDJSON line) names the column; multi-line input names
/// line and column.
public struct JSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of problem, for callers that act on them (a CLI that strips a
    /// leading byte-order mark, for example).
    public enum Kind: Sendable, Hashable {
        /// The input ended before the value did (or was empty).
        case unexpectedEndOfInput
        /// A byte that cannot start or continue the value at that point.
        case unexpectedCharacter
        /// A `,` directly before `]` or `}`.
        case trailingComma
        /// Something other than whitespace after the complete value.
        case trailingContent
        /// Bytes that are not well-formed UTF-8 (overlong, encoded surrogate, truncated, above U+10FFFF).
        case invalidUTF8
        /// A backslash escape that JSON does not define, or a malformed `\u` escape.
        case invalidEscape
        /// A `\u` escape of a surrogate that is not part of a high-low pair.
        case loneSurrogate
        /// A control character (U+0000 to U+001F) written into a string without escaping.
        case controlCharacterInString
        /// A number outside RFC 8259's grammar (leading zero, missing digits).
        case invalidNumber
        /// A bare word that is not `true`, `false` or `null` (`NaN`, `Infinity`, `undefined`, `tru`).
        case invalidLiteral
        /// A `//` or `/* */` comment.
        case comment
        /// A string in single quotes.
        case singleQuotedString
        /// A UTF-8 byte-order mark (EF BB BF) at the start of the input.
        case byteOrderMark
        /// The same key twice in one object; the payload is the key.
        case duplicateKey(String)
        /// Arrays and objects nested deeper than the limit; the payload is the limit.
        case nestingTooDeep(limit: Int)
        /// The input is longer than the limit, in bytes; the payload is the limit.
        case tooLarge(limit: Int)
    }

    /// What kind of problem this is.
    public let kind: Kind
    /// What went wrong, without the position, e.g. `duplicate key "id" in object`.
    public let reason: String
    /// The 0-based byte offset of the problem in the input.
    public let offset: Int
    /// The 1-based line of the problem.
    public let line: Int
    /// The 1-based column of the problem within its line, in Unicode scalars.
    public let column: Int
    /// Whether the input held more than one line (decides how ``description`` names the position).
    public let isMultiline: Bool

    /// Creates an error; ``JSONReader`` fills in the position from the input.
    package init(kind: Kind, reason: String, offset: Int, line: Int, column: Int, isMultiline: Bool) {
        self.kind = kind
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
        self.isMultiline = isMultiline
    }

    /// What went wrong and where, e.g. `unexpected ',' before '}' (trailing comma) at byte 41 (column 42)`.
    public var description: String {
        if isMultiline {
            return "\(reason) at byte \(offset) (line \(line), column \(column))"
        }
        return "\(reason) at byte \(offset) (column \(column))"
    }
}

extension JSONReadError {
    /// Builds an error, working out line and column by scanning `input` (only on the error path).
    init(_ kind: Kind, _ reason: String, at offset: Int, in input: UnsafeBufferPointer<UInt8>) {
        let offset = max(0, min(offset, input.count))
        var line = 1
        var column = 1
        var index = 0
        while index < offset {
            let byte = input[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        var multiline = line > 1
        if !multiline {
            var rest = offset
            while rest < input.count {
                let byte = input[rest]
                // A final newline (NDJSON line with its terminator) still counts as one line.
                if byte == UInt8(ascii: "\n") && rest + 1 < input.count {
                    multiline = true
                    break
                }
                rest += 1
            }
        }
        self.init(kind: kind, reason: reason, offset: offset, line: line, column: column, isMultiline: multiline)
    }
}
