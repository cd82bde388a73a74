/// Writes JSON text into a reusable byte buffer.
///
/// Values go in with the `write` methods; arrays and objects with
/// ``beginArray()`` / ``endArray()`` and ``beginObject()`` / ``key(_:)`` /
/// ``endObject()``, or with the closure forms ``writeArray(_:)`` and
/// ``writeObject(_:)``. Commas are put in for you. The writer does not check
/// that the calls form a valid document (a value in an object with no key,
/// an unclosed array): that is the caller's part.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.writeObject { object in
///     object.key("name"); object.write("productCartUpdate")
///     object.key("quantity"); object.write(2)
/// }
/// // writer.bytes == Array(#"{"name":"productCartUpdate","quantity":2}"#.utf8)
/// writer.reset()   // empties the buffer, keeps its capacity
/// ```
///
/// Output rules:
/// - Strings: `"` and `\` are escaped, control characters as `\b \f \n \r \t`
///   or `\u00XX`; everything else stays UTF-8, except U+2028 and U+2029
///   (written `\u2028`, `\u2029` unless ``escapesLineSeparators`` is off) so
///   the text can be pasted into JavaScript source.
/// - `Double` and `Float`: the shortest text that reads back to the same value,
///   without a trailing `.0` (`2.0` is written `2`, as `JSONEncoder` does;
///   `0.1` is `0.1`, `1e+16` stays in exponent form). Non-finite values throw.
/// - ``JSONNumber``: its text, verbatim.
/// - ``JSONValue`` objects: keys in ascending order, for deterministic output.
public struct JSONWriter: Sendable {
    /// The JSON text written so far, as UTF-8.
    public var bytes: [UInt8]
    /// Whether U+2028 and U+2029 are written as `\u2028` and `\u2029` (on by default).
    public var escapesLineSeparators: Bool
    /// Whether the next value or key needs a comma before it.
    private var needsComma = false

    /// Creates a writer with an empty buffer.
    /// - Parameters:
    ///   - capacity: bytes to reserve up front.
    ///   - escapesLineSeparators: whether to escape U+2028 and U+2029.
    public init(capacity: Int = 256, escapesLineSeparators: Bool = true) {
        bytes = []
        bytes.reserveCapacity(capacity)
        self.escapesLineSeparators = escapesLineSeparators
    }

    /// Empties the buffer, keeping its capacity, to write the next document.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    /// Ends a top-level value with a newline (NDJSON): the next value starts a new line, without a comma.
    public mutating func writeNewline() {
        bytes.append(0x0A)
        needsComma = false
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    // MARK: Structure

    /// Opens an array: `[`.
    public mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes the innermost array: `]`.
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Opens an object: `{`.
    public mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Writes an object key and its colon; the next write is its value.
    /// - Parameter key: the key, escaped as a string.
    public mutating func key(_ key: String) {
        separate()
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Closes the innermost object: `}`.
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes an array whose elements `body` writes.
    /// - Parameter body: writes the elements into the writer it is given.
    public mutating func writeArray<Failure: Error>(_ body: (inout JSONWriter) throws(Failure) -> Void) throws(Failure) {
        beginArray()
        try body(&self)
        endArray()
    }

    /// Writes an object whose keys and values `body` writes.
    /// - Parameter body: writes `key(_:)` then a value, for each member.
    public mutating func writeObject<Failure: Error>(_ body: (inout JSONWriter) throws(Failure) -> Void) throws(Failure) {
        beginObject()
        try body(&self)
        endObject()
    }

    // MARK: Scalars

    /// Writes `null`.
    public mutating func writeNull() {
        separate()
        bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])
    }

    /// Writes `true` or `false`.
    /// - Parameter value: the Boolean.
    public mutating func write(_ value: Bool) {
        separate()
        if value {
            bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65])
        } else {
            bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65])
        }
    }

    /// Writes a string, escaped.
    /// - Parameter value: the string.
    public mutating func write(_ value: String) {
        separate()
        appendString(value)
    }

    /// Writes a string, escaped.
    /// - Parameter value: the string.
    public mutating func write(_ value: Substring) {
        write(String(value))
    }

    /// Writes a signed integer in decimal.
    /// - Parameter value: the integer.
    public mutating func write(_ value: Int) {
        separate()
        appendInteger(Int64(value))
    }

    /// Writes an integer of any width in decimal, without going through `String` when it fits 64 bits.
    /// - Parameter value: the integer.
    public mutating func write<Integer: BinaryInteger>(_ value: Integer) {
        separate()
        if let small = Int64(exactly: value) {
            appendInteger(small)
        } else if let unsigned = UInt64(exactly: value) {
            appendUnsigned(unsigned)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    /// Writes a `Double` as the shortest text that reads back to it (`2`, `0.1`, `1e+16`).
    /// - Parameter value: the number.
    /// - Throws: ``JSONWriteError`` when `value` is NaN or infinite; nothing is written then.
    public mutating func write(_ value: Double) throws(JSONWriteError) {
        guard value.isFinite else { throw JSONWriteError(nonFinite: value.description) }
        separate()
        appendDouble(value)
    }

    /// Writes a `Float` as the shortest text that reads back to it as a `Float` (`0.1`, not `0.10000000149011612`).
    /// - Parameter value: the number.
    /// - Throws: ``JSONWriteError`` when `value` is NaN or infinite; nothing is written then.
    public mutating func write(_ value: Float) throws(JSONWriteError) {
        guard value.isFinite else { throw JSONWriteError(nonFinite: value.description) }
        separate()
        if value == 0 && value.sign == .minus {
            bytes.append(contentsOf: [UInt8(ascii: "-"), UInt8(ascii: "0")])
        } else if value == value.rounded(), abs(value) < 16_777_216 {
            appendInteger(Int64(value))
        } else {
            appendTrimmed(value.description)
        }
    }

    /// Writes a number's text verbatim.
    /// - Parameter value: the number.
    public mutating func write(_ value: JSONNumber) {
        separate()
        bytes.append(contentsOf: value.text.utf8)
    }

    /// Writes pre-formatted JSON text verbatim (the caller vouches that it is one valid JSON value).
    /// - Parameter json: UTF-8 JSON text of one value.
    public mutating func writeRaw<Bytes: Sequence<UInt8>>(_ json: Bytes) {
        separate()
        bytes.append(contentsOf: json)
    }

    /// Writes a value; object keys in ascending order.
    /// - Parameter value: the value.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: writeNull()
        case .bool(let flag): write(flag)
        case .number(let number): write(number)
        case .string(let string): write(string)
        case .array(let elements):
            beginArray()
            for element in elements { write(element) }
            endArray()
        case .object(let members):
            beginObject()
            for key in members.keys.sorted() {
                self.key(key)
                if let member = members[key] { write(member) }
            }
            endObject()
        }
    }

    // MARK: Formatting

    private mutating func appendInteger(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendUnsigned(value.magnitude)
        } else {
            appendUnsigned(UInt64(value))
        }
    }

    private mutating func appendUnsigned(_ value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        // Up to 20 digits, written backwards into a fixed-size tuple: no allocation.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = 24
            while rest > 0 {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index..<24]))
        }
    }

    private mutating func appendDouble(_ value: Double) {
        // Integral values below 2^53 print exactly as integers.
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            if value == 0 && value.sign == .minus {
                bytes.append(contentsOf: [UInt8(ascii: "-"), UInt8(ascii: "0")])
            } else {
                appendInteger(Int64(value))
            }
            return
        }
        appendTrimmed(value.description)
    }

    /// Appends Swift's shortest round-trip text, dropping a trailing `.0`.
    private mutating func appendTrimmed(_ text: String) {
        var text = text
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            let count = utf8.count
            while index < count {
                let byte = utf8[index]
                if byte >= 0x20 && byte != 0x22 && byte != 0x5C && (byte != 0xE2 || !escapesLineSeparators) {
                    index += 1
                    continue
                }
                if byte == 0xE2 {
                    // U+2028 is E2 80 A8, U+2029 is E2 80 A9.
                    guard index + 2 < count, utf8[index + 1] == 0x80, utf8[index + 2] & 0xFE == 0xA8 else {
                        index += 1
                        continue
                    }
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                    bytes.append(contentsOf: [0x5C, 0x75, 0x32, 0x30, 0x32, utf8[index + 2] == 0xA8 ? 0x38 : 0x39])
                    index += 3
                    runStart = index
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                switch byte {
                case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
                case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
                case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
                case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
                case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                default:
                    bytes.append(contentsOf: [
                        0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                        Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0x0F)],
                    ])
                }
                index += 1
                runStart = index
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A value JSON cannot represent (a NaN or infinite number).
public struct JSONWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What could not be written, e.g. `cannot encode non-finite number nan`.
    public let message: String

    /// Creates an error.
    /// - Parameter message: what could not be written.
    public init(message: String) {
        self.message = message
    }

    init(nonFinite text: String) {
        self.message = "cannot encode non-finite number \(text)"
    }

    /// The message.
    public var description: String { message }
}
