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
/// integers are fine. Nesting is limited (512 by default, 5,000 at most) and parsed
/// without recursion, so deep input is rejected cleanly, never by a stack overflow.
/// Input of 4 GiB or more is refused (``JSONReadError/Kind/tooLarge(limit:)``).
///
/// The reader is the package's one JSON scanner (the one the wire format and
/// ``MessageBody/init(jsonBytes:maxDepth:maxBytes:)-(UnsafeBufferPointer<UInt8>,_,_)``
/// use) with a ``JSONValue`` built from what it found: they accept, reject and
/// report exactly alike.
///
/// ```swift
/// let value = try JSONReader().read(Array(#"{"name":"sdkReady"}"#.utf8))
/// ```
///
/// Keys are compared as Swift `String`s, that is, up to Unicode canonical
/// equivalence: `"é"` and `"e\u0301"` are the same key (and so a duplicate).
public struct JSONReader: Sendable {
    /// The deepest nesting of arrays and objects accepted; `[[1]]` is 2 deep.
    ///
    /// The parser itself never recurses, but a ``JSONValue`` is built, compared and
    /// destroyed recursively, so a document nested deeper than
    /// ``DecodingOptions/maxDepthCeiling`` (5,000) is refused whatever this says
    /// (`nestingTooDeep(limit: 5000)`, after the whole text is scanned).
    public var maxDepth: Int

    /// Creates a reader.
    /// - Parameter maxDepth: the deepest nesting of arrays and objects accepted
    ///   (``DecodingOptions/defaultMaxDepth`` by default; at most ``DecodingOptions/maxDepthCeiling`` applies).
    public init(maxDepth: Int = DecodingOptions.defaultMaxDepth) {
        self.maxDepth = maxDepth
    }

    /// Parses one JSON value from UTF-8 bytes.
    /// - Parameter bytes: the whole document; only whitespace may follow the value.
    /// - Returns: the value.
    /// - Throws: ``JSONReadError`` saying what is wrong and where.
    package func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONReadError) -> JSONValue {
        try JSONTape.read(bytes, maxDepth: maxDepth).jsonValue(0)
    }

    /// Parses one JSON value from UTF-8 bytes.
    /// - Parameter bytes: the whole document.
    /// - Returns: the value.
    /// - Throws: ``JSONReadError``.
    package func read(_ bytes: UnsafeRawBufferPointer) throws(JSONReadError) -> JSONValue {
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
