import Foundation

/// Decodes `Decodable` values straight from loosely typed message bodies.
///
/// A Foundation tree (what `JSONSerialization` or `WKScriptMessage.body` gives, or a
/// hand-built `[String: Any]`) and JSON bytes are read in place, never re-serialised;
/// a ``JSONValue`` is written onto a tape of JSON bytes first, so that it follows the
/// bytes' rules exactly. The rules, in short:
///
/// - types are exact: `true` is not `1`, `1` is not `true`, `"1"` is not `1`
///   (unless ``DecodingOptions/lenient-swift.property``);
/// - an integer type takes an integral number in its range (`2.0` → `2`), and
///   rejects `2.5`, `1e30`, `-1` for `UInt`, `300` for `UInt8`; `Double` and
///   `Float` take any number of their magnitude; `Decimal` keeps the digits;
/// - `URL` decodes from a string, `Date` from a date object or an ISO 8601
///   string, `Data` from Base64;
/// - null, missing and optional follow `JSONDecoder`: `decodeIfPresent` of a
///   null or missing key is `nil`, `decode` of a null is `valueNotFound`, of a
///   missing key `keyNotFound`; unknown keys are ignored;
/// - errors are `DecodingError`s with the full coding path and Foundation's
///   texts, wrapped in ``BodyDecodingError``.
///
/// See `docs/decoding.md` for the full table.
public struct BodyDecoder: Sendable {
    /// The options in effect.
    public var options: DecodingOptions

    /// Creates a decoder.
    /// - Parameter options: decoding options (lenient numbers, depth limit).
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
    }

    /// Decodes `type` from a Foundation tree.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - body: the tree; `nil` means the body is absent and reads as JSON `null`
    ///     (so an optional decodes as `nil` and a struct without members decodes).
    /// - Returns: the decoded value.
    /// - Throws: ``BodyDecodingError`` with the key path of the first problem.
    public func decode<T: Decodable>(_ type: T.Type, from body: Any?) throws(BodyDecodingError) -> T {
        if let wrapped = BodyDecoder.wrappedBody(body) { return try wrapped.decode(T.self, options: options) }
        let root: Any = body ?? NSNull()
        return try BodyDecoder.run {
            try DecodingFoundationDecoder(
                source: DecodingFoundationSource(), value: root, node: .root, options: options
            )
            .decodeValue(T.self, root, .root, .none)
        }
    }

    /// Decodes `type` from a ``JSONValue``, with the same rules.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - value: the value.
    /// - Returns: the decoded value.
    /// - Throws: ``BodyDecodingError`` with the key path of the first problem.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(BodyDecodingError) -> T {
        try decode(T.self, fromTape: try BodyDecoder.tape(of: value), at: 0)
    }

    /// Decodes `type` from the value under `key` of an object body; errors name
    /// the path from the root (`body.customData.isPersonalisable`).
    ///
    /// A missing key, or a body that is not an object, decodes as `nil` when `T`
    /// is optional. Otherwise a missing key is `keyNotFound`, a null or absent body
    /// `valueNotFound` and any other body `typeMismatch`.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - body: the tree; `nil` means the body is absent.
    ///   - key: the member of the body to decode.
    /// - Returns: the decoded value.
    /// - Throws: ``BodyDecodingError`` with the key path of the first problem.
    public func decode<T: Decodable>(
        _ type: T.Type,
        from body: Any?,
        at key: String
    ) throws(BodyDecodingError) -> T {
        if let wrapped = BodyDecoder.wrappedBody(body) { return try wrapped.decode(T.self, at: key, options: options) }
        let root: Any = body ?? NSNull()
        return try BodyDecoder.run {
            try BodyDecoder.member(
                T.self, at: key, of: root, in: DecodingFoundationSource(), decoder: DecodingFoundationDecoder.self,
                options: options)
        }
    }

    /// Decodes `type` from the value under `key` of an object ``JSONValue``, as
    /// ``decode(_:from:at:)-(_,Any?,_)`` does for a Foundation tree.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - value: the value.
    ///   - key: the member of the value to decode.
    /// - Returns: the decoded value.
    /// - Throws: ``BodyDecodingError`` with the key path of the first problem.
    public func decode<T: Decodable>(
        _ type: T.Type,
        from value: JSONValue,
        at key: String
    ) throws(BodyDecodingError) -> T {
        try decode(T.self, fromTape: try BodyDecoder.tape(of: value), at: 0, member: key)
    }

    /// A ``JSONValue`` written onto a tape, so that it decodes by the tape's decoder (one
    /// decoder for JSON, off the hot path: the wire and the CLI decode their tapes directly).
    /// Read with no depth limit of the scanner's: the decoder applies `options.maxDepth` as
    /// it does to any body, so a value too deep fails with a path, as from the other sources.
    static func tape(of value: JSONValue) throws(BodyDecodingError) -> JSONTape {
        var writer = JSONWriter(capacity: 256, escapesLineSeparators: false)
        writer.write(value)
        // The tape copies the text it parses: read it where the writer holds it.
        let parsed = writer.withUnsafeBytes { text in
            Result { () throws(JSONReadError) -> JSONTape in
                try JSONTape.parse(text.assumingMemoryBound(to: UInt8.self), maxDepth: Int.max)
            }
        }
        do {
            return try parsed.get()
        } catch {
            // Only a value whose text is 4 GiB or more (a tape's offsets are 32-bit) gets here.
            throw BodyDecodingError(
                DecodingError.dataCorrupted(
                    .init(codingPath: [], debugDescription: "the value is too large to decode: \(error)")))
        }
    }

    /// A ``MessageBody`` or a ``JSONValue`` passed where a Foundation tree is expected (`Any?`),
    /// as a body of its own, so it decodes as itself and not as a value no type matches.
    /// Compared by type first (a metadata check), so a Foundation tree pays no dynamic cast.
    static func wrappedBody(_ body: Any?) -> MessageBody? {
        guard let body else { return nil }
        let type = ObjectIdentifier(Swift.type(of: body))
        guard type == ObjectIdentifier(MessageBody.self) || type == ObjectIdentifier(JSONValue.self) else { return nil }
        return MessageBody(body)
    }

    static func member<T: Decodable, Decoder: DecodingFrontEnd>(
        _ type: T.Type,
        at key: String,
        of root: Decoder.Source.Value,
        in source: Decoder.Source,
        decoder _: Decoder.Type,
        options: DecodingOptions
    ) throws -> T {
        let front = Decoder(source: source, value: root, node: .root, options: options)
        let decoder = front.core
        let optional = T.self as? any OptionalValue.Type
        guard let object = source.object(root) else {
            if let optional, let none = optional.noneValue as? T { return none }
            _ = try decoder.objectContainer(root, .root)
            throw decoder.mismatch([String: Any].self, root, .root, .none)
        }
        let nameKey = DecodingMemberKey(key)
        var hint = DecodingMemberHint()
        guard let value = source.value(in: object, forKey: key, hint: &hint) else {
            if let optional, let none = optional.noneValue as? T { return none }
            throw DecodingError.keyNotFound(
                nameKey,
                .init(codingPath: [], debugDescription: "No value associated with key \(nameKey) (\"\(key)\").")
            )
        }
        return try front.decodeValue(T.self, value, .root, .key(nameKey))
    }

    /// Runs a decode, turning whatever it throws into a ``BodyDecodingError``.
    static func run<T>(_ body: () throws -> T) throws(BodyDecodingError) -> T {
        do {
            return try body()
        } catch let error as DecodingError {
            throw BodyDecodingError(error)
        } catch let error as BodyDecodingError {
            throw error
        } catch {
            throw BodyDecodingError(
                DecodingError.dataCorrupted(
                    .init(codingPath: [], debugDescription: "\(error)", underlyingError: error)
                )
            )
        }
    }
}
