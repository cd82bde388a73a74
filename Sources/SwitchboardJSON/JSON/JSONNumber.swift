/// A JSON number, kept as its exact decimal text so that no digit is lost
/// (`12345678901234567890`, `10.50`, `1e400` all survive).
///
/// Two numbers are equal when their texts are equal: `1` and `1.0` differ, as
/// they do in the JSON text they came from.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as JSON text, for example `-12.50` or `1e30`.
    public let text: String

    /// Creates a number from JSON number text, or `nil` if `text` is not a JSON number
    /// (RFC 8259 grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`).
    public init?(_ text: String) {
        guard JSONNumber.isValid(text.utf8) else { return nil }
        self.text = text
    }

    /// Creates a number from text the caller has already checked against the grammar.
    package init(unchecked text: String) {
        self.text = text
    }

    /// The number's JSON text.
    public var description: String { text }

    /// Whether `bytes` is a number in RFC 8259's grammar.
    package static func isValid<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var index = bytes.startIndex
        func peek() -> UInt8? { index < bytes.endIndex ? bytes[index] : nil }
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if peek() == 0x2D { index = bytes.index(after: index) }
        guard let first = peek(), isDigit(first) else { return false }
        index = bytes.index(after: index)
        if first != 0x30 {
            while isDigit(peek()) { index = bytes.index(after: index) }
        }
        if peek() == 0x2E {
            index = bytes.index(after: index)
            guard isDigit(peek()) else { return false }
            while isDigit(peek()) { index = bytes.index(after: index) }
        }
        if peek() == 0x65 || peek() == 0x45 {
            index = bytes.index(after: index)
            if peek() == 0x2B || peek() == 0x2D { index = bytes.index(after: index) }
            guard isDigit(peek()) else { return false }
            while isDigit(peek()) { index = bytes.index(after: index) }
        }
        return index == bytes.endIndex
    }
}
