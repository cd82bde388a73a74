extension MessageBody {
    /// The longest JSON text ``init(jsonBytes:maxDepth:maxBytes:)-(UnsafeBufferPointer<UInt8>,_,_)``
    /// accepts by default: 1 MiB, the same as the CLI's `--max-line-bytes` default.
    public static let defaultMaxJSONBytes = 1 << 20

    /// Parses JSON text (UTF-8 bytes) into a body that decodes straight from the
    /// bytes: the strict scanner records where each value is, and the decoder
    /// reads fields from there (no `Any` boxes, no ``JSONValue`` tree).
    ///
    /// The scanner is ``JSONReader``'s (RFC 8259, strict: trailing commas,
    /// ill-formed UTF-8, lone surrogates, duplicate keys and a leading byte-order
    /// mark are errors), and so is the error when the text is rejected.
    /// ```swift
    /// let body = try MessageBody(jsonBytes: Array(#"{"merchandiseId":"gid://shopify/ProductVariant/1","quantity":1}"#.utf8))
    /// let line = try BodyDecoder().decode(AddCartLine.self, from: body)
    /// ```
    /// - Parameters:
    ///   - bytes: the whole JSON text; only whitespace may follow the value.
    ///   - maxDepth: the deepest nesting of arrays and objects accepted (at most
    ///     ``DecodingOptions/maxDepthCeiling`` applies).
    ///   - maxBytes: the longest text accepted, in bytes (``defaultMaxJSONBytes``, 1 MiB, as the CLI's line limit).
    /// - Throws: ``JSONReadError`` saying what is wrong and where; a text over
    ///   `maxBytes` is ``JSONReadError/Kind/tooLarge(limit:)`` and is not read at all.
    public init(
        jsonBytes bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = DecodingOptions.defaultMaxDepth,
        maxBytes: Int = MessageBody.defaultMaxJSONBytes
    ) throws(JSONReadError) {
        if bytes.count > maxBytes {
            let limit = max(0, maxBytes)
            throw JSONReadError(
                .tooLarge(limit: limit), "the text is \(bytes.count) bytes long; the limit is \(limit) (maxBytes)",
                at: limit, in: bytes)
        }
        self.init(storage: .tape(try JSONTape.read(bytes, maxDepth: maxDepth), index: 0))
    }

    /// Parses JSON text into a body that decodes straight from the bytes.
    /// See ``init(jsonBytes:maxDepth:maxBytes:)-(UnsafeBufferPointer<UInt8>,_,_)``.
    /// - Parameters:
    ///   - bytes: the whole JSON text.
    ///   - maxDepth: the deepest nesting accepted.
    ///   - maxBytes: the longest text accepted, in bytes.
    /// - Throws: ``JSONReadError``.
    public init(
        jsonBytes bytes: [UInt8], maxDepth: Int = DecodingOptions.defaultMaxDepth,
        maxBytes: Int = MessageBody.defaultMaxJSONBytes
    )
        throws(JSONReadError)
    {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONReadError) -> MessageBody in
                try MessageBody(jsonBytes: buffer, maxDepth: maxDepth, maxBytes: maxBytes)
            }
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
        case .foundation(let tree): return try? JSONValue(foundation: tree.value)
        }
    }

    /// The body as it is held, not converted: its Foundation tree, or its ``JSONValue`` (boxed
    /// as `Any`); `nil` when absent. For a walk that converts one level at a time and stops at a
    /// depth limit, where ``foundationValue`` would first build a Foundation tree as deep as a
    /// `JSONValue` built in code (which Swift then releases by recursion, once per level).
    package var heldValue: Any? {
        switch storage {
        case .absent: return nil
        case .foundation(let tree): return tree.value
        case .json(let value): return value
        case .tape(let tape, let index): return tape.jsonValue(index)
        }
    }
}
