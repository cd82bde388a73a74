import Foundation

/// A strict RFC 8259 JSON parser of UTF-8 bytes into ``JSONValue``.
///
/// Strict means it rejects what `JSONSerialization` lets through: trailing
/// commas, ill-formed UTF-8 (overlong forms, encoded surrogates, truncated
/// sequences, bytes above F4), lone surrogate escapes, unescaped control
/// characters in strings, leading zeros, `NaN` and `Infinity`, comments,
/// single quotes, anything after the value, a leading byte-order mark, and
/// the same key twice in one object (a message router sits on a trust
/// boundary: two readers must not see two different values).
///
/// Numbers keep their exact text (``JSONNumber``), so `1e400` and 30-digit
/// integers are fine. Nesting is limited (512 by default) and parsed without
/// recursion, so deep input is rejected cleanly, never by a stack overflow.
///
/// ```swift
/// let value = try JSONReader().read(Array(#"{"name":"sdkReady"}"#.utf8))
/// ```
///
/// Keys are compared as Swift `String`s, that is, up to Unicode canonical
/// equivalence: `"é"` and `"e\u0301"` are the same key (and so a duplicate).
public struct JSONReader: Sendable {
    /// Limits for ``JSONReader``.
    public struct Options: Sendable, Hashable {
        /// The deepest nesting of arrays and objects accepted; `[[1]]` is 2 deep.
        ///
        /// The parser itself never recurses, but a very deep ``JSONValue`` is
        /// compared, decoded and destroyed recursively, so keep this in the
        /// hundreds or low thousands.
        public var maxDepth: Int

        /// Creates options.
        /// - Parameter maxDepth: the deepest nesting accepted (512 by default).
        public init(maxDepth: Int = 512) {
            self.maxDepth = maxDepth
        }
    }

    /// The limits in effect.
    public var options: Options

    /// Creates a reader.
    /// - Parameter options: limits (nesting depth).
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Creates a reader with a nesting limit.
    /// - Parameter maxDepth: the deepest nesting of arrays and objects accepted.
    public init(maxDepth: Int) {
        self.options = Options(maxDepth: maxDepth)
    }

    /// Parses one JSON value from UTF-8 bytes.
    /// - Parameter bytes: the whole document; only whitespace may follow the value.
    /// - Returns: the value.
    /// - Throws: ``JSONReadError`` saying what is wrong and where.
    public func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONReadError) -> JSONValue {
        var parser = JSONParser(input: bytes, maxDepth: options.maxDepth)
        return try parser.parseDocument()
    }

    /// Parses one JSON value from UTF-8 bytes.
    /// - Parameter bytes: the whole document.
    /// - Returns: the value.
    /// - Throws: ``JSONReadError``.
    public func read(_ bytes: UnsafeRawBufferPointer) throws(JSONReadError) -> JSONValue {
        try read(bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Parses one JSON value from UTF-8 bytes.
    /// - Parameter bytes: the whole document.
    /// - Returns: the value.
    /// - Throws: ``JSONReadError``.
    public func read(_ bytes: [UInt8]) throws(JSONReadError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONReadError) -> JSONValue in try read(buffer) }
    }

    /// Parses one JSON value from UTF-8 bytes.
    /// - Parameter bytes: the whole document.
    /// - Returns: the value.
    /// - Throws: ``JSONReadError``.
    public func read(_ bytes: ArraySlice<UInt8>) throws(JSONReadError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONReadError) -> JSONValue in try read(buffer) }
    }

    /// Parses one JSON value from `Data`.
    /// - Parameter data: the whole document.
    /// - Returns: the value.
    /// - Throws: ``JSONReadError``.
    public func read(_ data: Data) throws(JSONReadError) -> JSONValue {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(JSONReadError) -> JSONValue in try read(raw) }
        }
        return try result.get()
    }

    /// Parses one JSON value from the UTF-8 of a string.
    /// - Parameter text: the whole document.
    /// - Returns: the value.
    /// - Throws: ``JSONReadError``.
    public func read(_ text: String) throws(JSONReadError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(JSONReadError) -> JSONValue in try read(buffer) }
        }
        return try result.get()
    }
}

// MARK: - The parser

enum JSONASCII {
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let dot = UInt8(ascii: ".")
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let apostrophe = UInt8(ascii: "'")
}

/// An open array or object.
struct JSONParserFrame {
    let isObject: Bool
    let valueStart: Int
    let keyStart: Int
}

/// One parse: an explicit stack of open containers instead of recursion.
struct JSONParser {
    let input: UnsafeBufferPointer<UInt8>
    let count: Int
    let maxDepth: Int
    var position = 0

    /// Open containers, innermost last: whether it is an object, and where its
    /// elements start in `values` (and, for an object, its keys in `keys`).
    var frames: [JSONParserFrame] = []
    /// Elements and member values of all open containers, in document order.
    var values: [JSONValue] = []
    /// Keys of all open objects, in document order, with their byte offsets.
    var keys: [String] = []
    var keyOffsets: [Int] = []
    /// Reused buffer for strings with escapes.
    var scratch: [UInt8] = []

    init(input: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.input = input
        self.count = input.count
        self.maxDepth = max(0, maxDepth)
    }

    // MARK: Errors

    func fail(_ kind: JSONReadError.Kind, _ reason: String, at offset: Int) -> JSONReadError {
        JSONReadError(kind, reason, at: offset, in: input)
    }

    /// Describes the input at `offset` for a message: `'x'`, `U+201C '“'`, `byte 0xFF`.
    func describe(at offset: Int) -> String {
        guard offset < count else { return "end of input" }
        let byte = input[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return "control character U+\(hex(UInt32(byte), digits: 4))" }
        if let (scalar, _) = decodeScalar(at: offset) {
            return "U+\(hex(scalar.value, digits: 4)) '\(Character(scalar))'"
        }
        return "byte 0x\(hex(UInt32(byte), digits: 2))"
    }

    /// An error for a byte that is wrong where it is, naming comments and single quotes.
    func unexpected(at offset: Int, expected: String) -> JSONReadError {
        guard offset < count else {
            return fail(.unexpectedEndOfInput, "unexpected end of input, expected \(expected)", at: offset)
        }
        let byte = input[offset]
        if byte == JSONASCII.slash, offset + 1 < count,
            input[offset + 1] == JSONASCII.slash || input[offset + 1] == 0x2A
        {
            return fail(.comment, "comments are not allowed in JSON", at: offset)
        }
        if byte == JSONASCII.apostrophe {
            return fail(.singleQuotedString, "single-quoted strings are not allowed in JSON, use '\"'", at: offset)
        }
        return fail(.unexpectedCharacter, "unexpected \(describe(at: offset)), expected \(expected)", at: offset)
    }

    // MARK: Document

    @inline(__always)
    mutating func skipWhitespace() {
        while position < count {
            let byte = input[position]
            guard
                byte == JSONASCII.space || byte == JSONASCII.newline || byte == JSONASCII.carriageReturn
                    || byte == JSONASCII.tab
            else { return }
            position += 1
        }
    }

    mutating func parseDocument() throws(JSONReadError) -> JSONValue {
        if count >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF {
            throw fail(
                .byteOrderMark, "unexpected byte-order mark (U+FEFF) at the start of the input; JSON text has none",
                at: 0)
        }
        skipWhitespace()
        if position >= count {
            throw fail(
                .unexpectedEndOfInput,
                count == 0 ? "empty input, expected a value" : "expected a value, found only whitespace", at: position)
        }
        nextValue: while true {
            skipWhitespace()
            guard position < count else {
                throw fail(.unexpectedEndOfInput, "unexpected end of input, expected a value", at: position)
            }
            var value: JSONValue
            let byte = input[position]
            switch byte {
            case JSONASCII.openBrace:
                try checkDepth()
                position += 1
                skipWhitespace()
                if position < count && input[position] == JSONASCII.closeBrace {
                    position += 1
                    value = .object([:])
                } else {
                    frames.append(JSONParserFrame(isObject: true, valueStart: values.count, keyStart: keys.count))
                    try parseKey(afterComma: nil)
                    continue nextValue
                }
            case JSONASCII.openBracket:
                try checkDepth()
                position += 1
                skipWhitespace()
                if position < count && input[position] == JSONASCII.closeBracket {
                    position += 1
                    value = .array([])
                } else {
                    frames.append(JSONParserFrame(isObject: false, valueStart: values.count, keyStart: keys.count))
                    continue nextValue
                }
            case JSONASCII.quote:
                value = .string(try parseString())
            case JSONASCII.minus, JSONASCII.zero...JSONASCII.nine:
                value = .number(try parseNumber())
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                value = .bool(true)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                value = .bool(false)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                value = .null
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                throw invalidWord(at: position)
            default:
                throw unexpected(at: position, expected: "a value")
            }

            // A value is complete: hand it to the open container, closing as many as end here.
            while true {
                guard let frame = frames.last else {
                    skipWhitespace()
                    if position < count {
                        throw fail(
                            .trailingContent,
                            "unexpected \(describe(at: position)) after the value (trailing content)", at: position)
                    }
                    return value
                }
                let isObject = frame.isObject
                values.append(value)
                skipWhitespace()
                guard position < count else {
                    throw fail(
                        .unexpectedEndOfInput,
                        "unexpected end of input, expected ',' or '\(isObject ? "}" : "]")'", at: position)
                }
                let next = input[position]
                if next == JSONASCII.comma {
                    let comma = position
                    position += 1
                    skipWhitespace()
                    if isObject {
                        try parseKey(afterComma: comma)
                    } else if position < count && input[position] == JSONASCII.closeBracket {
                        throw fail(.trailingComma, "unexpected ',' before ']' (trailing comma)", at: comma)
                    }
                    continue nextValue
                }
                if isObject && next == JSONASCII.closeBrace {
                    position += 1
                    frames.removeLast()
                    value = .object(try closeObject(frame))
                } else if !isObject && next == JSONASCII.closeBracket {
                    position += 1
                    frames.removeLast()
                    value = .array(Array(values[frame.valueStart...]))
                    values.removeSubrange(frame.valueStart...)
                } else {
                    throw unexpected(at: position, expected: isObject ? "',' or '}'" : "',' or ']'")
                }
            }
        }
    }

    func checkDepth() throws(JSONReadError) {
        if frames.count >= maxDepth {
            throw fail(
                .nestingTooDeep(limit: maxDepth),
                "arrays and objects nested deeper than the limit of \(maxDepth)", at: position)
        }
    }

    /// Builds the dictionary of the object `frame` closes, hashing each key once;
    /// a key seen twice is an error at its second occurrence.
    mutating func closeObject(_ frame: JSONParserFrame) throws(JSONReadError) -> [String: JSONValue] {
        let count = keys.count - frame.keyStart
        var members = [String: JSONValue](minimumCapacity: count)
        for index in 0..<count {
            let key = keys[frame.keyStart + index]
            if members.updateValue(values[frame.valueStart + index], forKey: key) != nil {
                throw fail(
                    .duplicateKey(key), "duplicate key \(quoted(key)) in object", at: keyOffsets[frame.keyStart + index]
                )
            }
        }
        keys.removeSubrange(frame.keyStart...)
        keyOffsets.removeSubrange(frame.keyStart...)
        values.removeSubrange(frame.valueStart...)
        return members
    }

    /// Parses `"key" :` at the current position (whitespace skipped) into `keys`.
    mutating func parseKey(afterComma comma: Int?) throws(JSONReadError) {
        guard position < count, input[position] == JSONASCII.quote else {
            if let comma, position < count, input[position] == JSONASCII.closeBrace {
                throw fail(.trailingComma, "unexpected ',' before '}' (trailing comma)", at: comma)
            }
            throw unexpected(at: position, expected: comma == nil ? "a string key or '}'" : "a string key")
        }
        let keyOffset = position
        let key = try parseString()
        skipWhitespace()
        guard position < count, input[position] == JSONASCII.colon else {
            throw unexpected(at: position, expected: "':' after the key")
        }
        position += 1
        keys.append(key)
        keyOffsets.append(keyOffset)
    }

    // MARK: Literals

    mutating func expectLiteral(_ word: StaticString) throws(JSONReadError) {
        let length = word.utf8CodeUnitCount
        let start = position
        if count - start >= length {
            let bytes = word.utf8Start
            var index = 0
            while index < length && input[start + index] == bytes[index] { index += 1 }
            if index == length {
                position += length
                return
            }
        }
        throw invalidWord(at: start)
    }

    /// An error for a bare word: names `NaN`, `Infinity` and friends.
    func invalidWord(at start: Int) -> JSONReadError {
        var end = start
        while end < count, end - start < 32 {
            let byte = input[end] | 0x20
            guard (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || input[end] == JSONASCII.minus else {
                break
            }
            end += 1
        }
        let word = String(decoding: UnsafeBufferPointer(rebasing: input[start..<end]), as: UTF8.self)
        switch word {
        case "NaN", "Infinity", "-Infinity", "nan", "inf", "-inf":
            return fail(.invalidLiteral, "\(word) is not a JSON number (JSON has no non-finite numbers)", at: start)
        case "undefined":
            return fail(.invalidLiteral, "undefined is not a JSON value, use null", at: start)
        case "True", "False", "Null", "TRUE", "FALSE", "NULL":
            return fail(.invalidLiteral, "invalid literal '\(word)', JSON literals are lowercase", at: start)
        case "":
            return unexpected(at: start, expected: "a value")
        default:
            return fail(.invalidLiteral, "invalid literal '\(word)', expected a value", at: start)
        }
    }

    // MARK: Numbers

    @inline(__always)
    func isDigit(at index: Int) -> Bool {
        index < count && input[index] >= JSONASCII.zero && input[index] <= JSONASCII.nine
    }

    mutating func parseNumber() throws(JSONReadError) -> JSONNumber {
        let start = position
        if input[position] == JSONASCII.minus {
            position += 1
            if position < count && input[position] == UInt8(ascii: "I") { throw invalidWord(at: start) }
            guard isDigit(at: position) else {
                throw fail(.invalidNumber, "invalid number, expected a digit after '-'", at: position)
            }
        }
        if input[position] == JSONASCII.zero {
            position += 1
            if isDigit(at: position) {
                throw fail(.invalidNumber, "invalid number, leading zeros are not allowed", at: start)
            }
        } else {
            while isDigit(at: position) { position += 1 }
        }
        if position < count && input[position] == JSONASCII.dot {
            position += 1
            guard isDigit(at: position) else {
                throw fail(.invalidNumber, "invalid number, expected a digit after '.'", at: position)
            }
            while isDigit(at: position) { position += 1 }
        }
        if position < count && (input[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            if position < count && (input[position] == JSONASCII.plus || input[position] == JSONASCII.minus) {
                position += 1
            }
            guard isDigit(at: position) else {
                throw fail(.invalidNumber, "invalid number, expected a digit in the exponent", at: position)
            }
            while isDigit(at: position) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<position]), as: UTF8.self)
        return JSONNumber(unchecked: text)
    }
}
