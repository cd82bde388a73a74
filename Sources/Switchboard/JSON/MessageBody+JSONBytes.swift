extension MessageBody {
    /// Parses JSON text (UTF-8 bytes) into a body that decodes straight from the
    /// bytes: the strict reader records where each value is, and the decoder
    /// reads fields from there (no `Any` boxes, no ``JSONValue`` tree).
    ///
    /// The rules are ``JSONReader``'s (RFC 8259, strict: trailing commas,
    /// ill-formed UTF-8, lone surrogates, duplicate keys and a leading byte-order
    /// mark are errors), and so is the error when the text is rejected.
    /// ```swift
    /// let body = try MessageBody(jsonBytes: Array(#"{"merchandiseId":"gid://shopify/ProductVariant/1","quantity":1}"#.utf8))
    /// let line = try body.decode(AddCartLine.self)
    /// ```
    /// - Parameters:
    ///   - bytes: the whole JSON text; only whitespace may follow the value.
    ///   - maxDepth: the deepest nesting of arrays and objects accepted.
    /// - Throws: ``JSONReadError`` saying what is wrong and where.
    public init(jsonBytes bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 512) throws(JSONReadError) {
        if let tape = JSONTape.parse(bytes, maxDepth: maxDepth) {
            self.init(storage: .tape(tape, index: 0))
            return
        }
        // Rejected: the reader says why (it rejects exactly what the tape rejects).
        let value = try JSONReader(maxDepth: maxDepth).read(bytes)
        self.init(storage: .json(value))
    }

    /// Parses JSON text into a body that decodes straight from the bytes.
    /// See ``init(jsonBytes:maxDepth:)-(UnsafeBufferPointer<UInt8>,_)``.
    /// - Parameters:
    ///   - bytes: the whole JSON text.
    ///   - maxDepth: the deepest nesting accepted.
    /// - Throws: ``JSONReadError``.
    public init(jsonBytes bytes: [UInt8], maxDepth: Int = 512) throws(JSONReadError) {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONReadError) -> MessageBody in try MessageBody(jsonBytes: buffer, maxDepth: maxDepth) }
        }
        self = try result.get()
    }

    /// A body that is entry `index` of `tape` (the member of a wire message, say).
    package init(tape: JSONTape, index: Int) {
        self.init(storage: .tape(tape, index: index))
    }

    /// The body as a ``JSONValue``, or `nil` when absent (converted when the body holds another form).
    package var jsonValue: JSONValue? {
        switch storage {
        case .absent: return nil
        case .json(let value): return value
        case .tape(let tape, let index): return tape.jsonValue(index)
        case .foundation(let value): return try? JSONValue(foundation: value)
        }
    }
}
