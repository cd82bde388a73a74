/// Writes JSON text into a reusable byte buffer.
///
/// Values go in with the `write` methods; arrays and objects with
/// ``beginArray()`` / ``endArray()`` and ``beginObject()`` / ``key(_:)`` /
/// ``endObject()``. Commas are put in for you. The writer does not check
/// that the calls form a valid document (a value in an object with no key,
/// an unclosed array): that is the caller's part.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("name")
/// writer.write("productCartUpdate")
/// writer.key("quantity")
/// writer.write(2)
/// writer.endObject()
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
    /// Where the bytes go (copied on write when the writer was copied).
    var storage: JSONWriterStorage

    /// The JSON text written so far, as UTF-8 (a copy; see ``withUnsafeBytes(_:)`` and ``byteCount`` to avoid one).
    public var bytes: [UInt8] {
        get { Array(storage.written) }
        set {
            storage = newValue.withUnsafeBufferPointer { JSONWriterStorage(copying: $0, capacity: storage.capacity) }
        }
    }

    /// The number of bytes written so far.
    public var byteCount: Int { storage.count }

    /// The number of bytes the buffer holds without growing.
    public var capacity: Int { storage.capacity }

    /// Calls `body` with the bytes written so far (valid only during the call).
    /// - Parameter body: reads the bytes.
    /// - Returns: what `body` returns.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withExtendedLifetime(storage) { () throws(Failure) -> Result in
            try body(UnsafeRawBufferPointer(storage.written))
        }
    }
    /// Whether U+2028 and U+2029 are written as `\u2028` and `\u2029` (on by default).
    public var escapesLineSeparators: Bool
    /// Whether the next value or key needs a comma before it.
    var needsComma = false

    /// Creates a writer with an empty buffer.
    /// - Parameters:
    ///   - capacity: bytes to reserve up front.
    ///   - escapesLineSeparators: whether to escape U+2028 and U+2029.
    public init(capacity: Int = 256, escapesLineSeparators: Bool = true) {
        storage = JSONWriterStorage(capacity: capacity)
        self.escapesLineSeparators = escapesLineSeparators
    }

    /// Where the writer is (its byte count and whether a comma is due), to go back to with ``rewind(to:)``.
    package var mark: (count: Int, needsComma: Bool) { (storage.count, needsComma) }

    /// Drops what was written after `mark` (from ``mark``), as if it never was.
    package mutating func rewind(to mark: (count: Int, needsComma: Bool)) {
        if storage.count > mark.count {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy(adding: 0) }
            storage.count = mark.count
        }
        needsComma = mark.needsComma
    }

    /// Empties the buffer, keeping its capacity, to write the next document.
    public mutating func reset() {
        if isKnownUniquelyReferenced(&storage) {
            storage.count = 0
        } else {
            storage = JSONWriterStorage(capacity: storage.capacity)
        }
        needsComma = false
    }

    // MARK: Appending

    /// Room for `extra` more bytes, in storage this writer alone holds; returns where the next byte goes.
    /// Write at most `extra` bytes there, then add their number to `storage.count`.
    @inline(__always)
    mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if _slowPath(!isKnownUniquelyReferenced(&storage)) {
            storage = storage.copy(adding: extra)
        } else if _slowPath(storage.capacity &- storage.count < extra) {
            storage.grow(adding: extra)
        }
        return storage.base + storage.count
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1).pointee = byte
        storage.count &+= 1
    }

    @inline(__always)
    mutating func append(_ first: UInt8, _ second: UInt8) {
        let target = reserve(2)
        target[0] = first
        target[1] = second
        storage.count &+= 2
    }

    mutating func append(_ source: UnsafeRawBufferPointer) {
        guard let start = source.baseAddress, source.count > 0 else { return }
        let target = reserve(source.count)
        JSONWriter.copy(start, to: UnsafeMutableRawPointer(target), count: source.count)
        storage.count &+= source.count
    }

    /// Copies `count` bytes from `source` to `target` (which do not overlap): up to sixteen with
    /// two loads and two stores (overlapping when fewer), more with `memcpy`. The short texts
    /// written most (keys, literals, numbers) then cost a few instructions, not a library call.
    @inline(__always)
    static func copy(_ source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        if count >= 8 {
            guard count <= 16 else { return target.copyMemory(from: source, byteCount: count) }
            let first = source.loadUnaligned(as: UInt64.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            target.storeBytes(of: first, as: UInt64.self)
            target.storeBytes(of: last, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 {
            let first = source.loadUnaligned(as: UInt32.self)
            let last = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            target.storeBytes(of: first, as: UInt32.self)
            target.storeBytes(of: last, toByteOffset: count &- 4, as: UInt32.self)
        } else if count > 0 {
            target.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
            if count > 1 {
                let last = source.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)
                target.storeBytes(of: last, toByteOffset: count &- 2, as: UInt16.self)
            }
        }
    }

    mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(source))
    }

    mutating func append(_ text: StaticString) {
        // `withUTF8Buffer`, not `utf8Start`: a one-scalar literal has no pointer representation.
        text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) }
    }

    private mutating func append<Bytes: Sequence<UInt8>>(contentsOf sequence: Bytes) {
        if let done: Void = sequence.withContiguousStorageIfAvailable({ append($0) }) { return done }
        for byte in sequence { append(byte) }
    }

    /// Ends a top-level value with a newline (NDJSON): the next value starts a new line, without a comma.
    public mutating func writeNewline() {
        append(0x0A)
        needsComma = false
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { append(UInt8(ascii: ",")) }
        needsComma = true
    }

    // MARK: Structure

    /// Opens an array: `[`.
    public mutating func beginArray() {
        separate()
        append(UInt8(ascii: "["))
        needsComma = false
    }

    /// Closes the innermost array: `]`.
    public mutating func endArray() {
        append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Opens an object: `{`.
    public mutating func beginObject() {
        separate()
        append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Writes an object key and its colon; the next write is its value.
    /// - Parameter key: the key, escaped as a string.
    public mutating func key(_ key: String) {
        appendString(key, comma: needsComma, colon: true)
        needsComma = false
    }

    /// Writes an object key known when the program is compiled, and its colon;
    /// the next write is its value. Cheaper than ``key(_:)`` for the usual
    /// plain ASCII keys, which are copied without being scanned for escapes twice.
    /// - Parameter key: the key, escaped as a string when it needs to be.
    public mutating func key(literal key: StaticString) {
        guard key.hasPointerRepresentation else {
            self.key(key.description)
            return
        }
        // The bytes as they are, scanned once: a clean key is copied whole, quotes and colon included.
        appendEscaped(
            UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), comma: needsComma, colon: true)
        needsComma = false
    }

    /// Writes an object key known when the program is compiled to need no escaping
    /// (plain ASCII letters, digits, `_`, `-`), and its colon: the bytes are copied as
    /// they are, without the scan of ``key(literal:)``. A key with anything else takes
    /// the escaping path, so the output is the same either way.
    /// - Parameter key: the key.
    package mutating func key(plain key: StaticString) {
        guard key.hasPointerRepresentation, key.isASCII else {
            self.key(literal: key)
            return
        }
        writeQuoted(plain: key, colon: true)
        needsComma = false
        assert(JSONWriter.isPlain(key), "key(plain:) given a key that needs escaping")
    }

    /// Writes a string value known when the program is compiled to need no escaping
    /// (plain ASCII letters, digits, `_`, `-`), copied as it is. See ``key(plain:)``.
    /// - Parameter value: the string.
    package mutating func write(plain value: StaticString) {
        guard value.hasPointerRepresentation, value.isASCII else {
            write(value.description)
            return
        }
        writeQuoted(plain: value, colon: false)
        needsComma = true
        assert(JSONWriter.isPlain(value), "write(plain:) given a string that needs escaping")
    }

    /// Copies `text` (ASCII with a pointer) between quotes, after a comma when one is due,
    /// and a colon after it for a key; leaves `needsComma` to the caller.
    private mutating func writeQuoted(plain text: StaticString, colon: Bool) {
        let count = text.utf8CodeUnitCount
        let target = reserve(count &+ 4)
        var written = 0
        if needsComma {
            target[0] = UInt8(ascii: ",")
            written = 1
        }
        target[written] = UInt8(ascii: "\"")
        JSONWriter.copy(text.utf8Start, to: target + (written &+ 1), count: count)
        written &+= count &+ 1
        target[written] = UInt8(ascii: "\"")
        written &+= 1
        if colon {
            target[written] = UInt8(ascii: ":")
            written &+= 1
        }
        storage.count &+= written
    }

    /// Whether every byte of `key` is a letter, digit, `_` or `-`.
    package static func isPlain(_ key: StaticString) -> Bool {
        key.withUTF8Buffer { bytes in
            bytes.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte == 0x5F
                    || byte == 0x2D
            }
        }
    }

    /// Closes the innermost object: `}`.
    public mutating func endObject() {
        append(UInt8(ascii: "}"))
        needsComma = true
    }

    // MARK: Scalars

    /// Writes `null`.
    public mutating func writeNull() {
        separate()
        append("null")
    }

    /// Writes `true` or `false`.
    /// - Parameter value: the Boolean.
    public mutating func write(_ value: Bool) {
        separate()
        if value {
            append("true")
        } else {
            append("false")
        }
    }

    /// Writes a string, escaped.
    /// - Parameter value: the string.
    public mutating func write(_ value: String) {
        appendString(value, comma: needsComma, colon: false)
        needsComma = true
    }

    /// Writes a string, escaped.
    /// - Parameter value: the string.
    public mutating func write(_ value: Substring) {
        write(String(value))
    }

    /// Writes a signed integer in decimal.
    /// - Parameter value: the integer.
    public mutating func write(_ value: Int) {
        appendInteger(Int64(value), comma: needsComma)
        needsComma = true
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
            append(contentsOf: String(value).utf8)
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
            append(UInt8(ascii: "-"), UInt8(ascii: "0"))
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
        var text = value.text
        text.withUTF8 { append($0) }
    }

    /// Writes pre-formatted JSON text verbatim (the caller vouches that it is one valid JSON value).
    /// - Parameter json: UTF-8 JSON text of one value.
    package mutating func writeRaw<Bytes: Sequence<UInt8>>(_ json: Bytes) {
        separate()
        append(contentsOf: json)
    }

    /// Writes pre-formatted JSON text verbatim (the caller vouches that it is one valid JSON value).
    /// The same as the generic ``writeRaw(_:)-(Bytes)``, for an array, without generic dispatch.
    /// - Parameter json: UTF-8 JSON text of one value.
    package mutating func writeRaw(_ json: [UInt8]) {
        separate()
        json.withUnsafeBufferPointer { append($0) }
    }

    /// Writes a value; object keys in ascending order.
    ///
    /// A value nested any number of levels deep is written without recursing that deep: past
    /// the first levels the rest is written by a walk that keeps its own stack.
    /// - Parameter value: the value.
    public mutating func write(_ value: JSONValue) {
        write(value, levelsLeft: JSONWriter.recursionLevels)
    }

    /// The levels of a ``JSONValue`` written by recursion (cheapest for the usual shallow
    /// value); deeper ones are written by ``JSONValueWalk``.
    static let recursionLevels = 32

    private mutating func write(_ value: JSONValue, levelsLeft: Int) {
        switch value {
        case .null: writeNull()
        case .bool(let flag): write(flag)
        case .number(let number): write(number)
        case .string(let string): write(string)
        case .array(let elements):
            guard levelsLeft > 0 else { return writeWalking(value) }
            beginArray()
            for element in elements { write(element, levelsLeft: levelsLeft - 1) }
            endArray()
        case .object(let members):
            guard levelsLeft > 0 else { return writeWalking(value) }
            beginObject()
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                self.key(key)
                write(member, levelsLeft: levelsLeft - 1)
            }
            endObject()
        }
    }

    /// Writes `value` with a walk that keeps its own stack (the same text as the recursion).
    private mutating func writeWalking(_ value: JSONValue) {
        var walk = JSONValueWalk(value, sortsKeys: true)
        while let event = walk.next() {
            switch event {
            case .scalar(let scalar): write(scalar, levelsLeft: 0)
            case .beginArray: beginArray()
            case .beginObject: beginObject()
            case .key(let key): self.key(key)
            case .endArray: endArray()
            case .endObject: endObject()
            }
        }
    }

    // MARK: Formatting

    /// Appends `value` in decimal, after a comma when `comma`: one capacity check for all of it.
    @inline(__always)
    mutating func appendInteger(_ value: Int64, comma: Bool = false) {
        // A comma, a sign and at most 19 digits.
        let target = reserve(21)
        var written = 0
        if comma {
            target[0] = UInt8(ascii: ",")
            written = 1
        }
        if value < 0 {
            target[written] = UInt8(ascii: "-")
            written &+= 1
        }
        written &+= JSONWriter.writeDigits(value.magnitude, to: target + written)
        storage.count &+= written
    }

    private mutating func appendUnsigned(_ value: UInt64) {
        // Reserved first: `reserve` may replace the storage whose count is then updated.
        let target = reserve(20)
        storage.count &+= JSONWriter.writeDigits(value, to: target)
    }

    /// Writes the decimal digits of `value` (at most 20) at `target`, which has room for them; returns their number.
    @inline(__always)
    private static func writeDigits(_ value: UInt64, to target: UnsafeMutablePointer<UInt8>) -> Int {
        // The number of digits, then the digits written backwards.
        var digits = 1
        var limit: UInt64 = 10
        while digits < 20 && value >= limit {
            digits &+= 1
            limit = limit &* 10
        }
        var rest = value
        var index = digits
        repeat {
            index &-= 1
            target[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while index > 0
        return digits
    }

    private mutating func appendDouble(_ value: Double) {
        // Integral values below 2^53 print exactly as integers.
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
            if value == 0 && value.sign == .minus {
                append(UInt8(ascii: "-"), UInt8(ascii: "0"))
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
        text.withUTF8 { append($0) }
    }
}

/// A value JSON cannot represent (a NaN or infinite number).
public struct JSONWriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What could not be written, e.g. `cannot encode non-finite number nan`.
    public let message: String

    /// Creates an error.
    /// - Parameter message: what could not be written.
    package init(message: String) {
        self.message = message
    }

    init(nonFinite text: String) {
        self.message = "cannot encode non-finite number \(text)"
    }

    /// The message.
    public var description: String { message }
}
