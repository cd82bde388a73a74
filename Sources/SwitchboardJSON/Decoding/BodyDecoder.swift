import Foundation

/// Options for ``BodyDecoder``.
public struct DecodingOptions: Sendable, Hashable {
    /// When `true`, numeric strings decode as numbers (`"42"` as `Int`, `"2.5"` as
    /// `Double`) and `"true"`/`"false"` as `Bool`. Off by default.
    public var lenient: Bool
    /// The deepest nesting of arrays and objects accepted. Deeper input fails with
    /// `DecodingError.dataCorrupted` at the container that goes one level too deep,
    /// before the decoder recurses into it.
    ///
    /// From 0 to ``maxDepthCeiling``: a value set outside is set to the nearer end, so that
    /// no setting lets input nest deeper than a thread's stack can take.
    public var maxDepth: Int {
        get { depthLimit }
        set { depthLimit = DecodingOptions.clampedDepth(newValue) }
    }

    /// ``maxDepth``'s storage, within `0 ... maxDepthCeiling`.
    private(set) var depthLimit: Int

    /// The deepest nesting any setting of ``maxDepth`` (or of ``JSONReader/maxDepth``,
    /// or `MessageBody(jsonBytes:maxDepth:)`'s) lets through: 5,000 levels. Some operations
    /// recurse once per level (building and releasing a ``JSONValue``, and
    /// a recursive `Decodable`'s own `init(from:)`); at this depth the library's own fit in
    /// about 4 MiB of stack in a debug build, half of a main thread's. (A value at the default
    /// of 512 fits in a 512 KiB secondary thread.)
    public static let maxDepthCeiling = 5_000

    /// The nesting limit every reader, decoder and encoder of the package uses unless told
    /// otherwise: 512 levels, deeper than any real message.
    public static let defaultMaxDepth = 512

    /// `depth` within `0 ... maxDepthCeiling`.
    static func clampedDepth(_ depth: Int) -> Int {
        min(max(0, depth), maxDepthCeiling)
    }

    /// Creates options.
    /// - Parameters:
    ///   - lenient: whether numeric strings and `"true"`/`"false"` decode as numbers and booleans.
    ///   - maxDepth: the deepest nesting of arrays and objects accepted (within `0 ... maxDepthCeiling`).
    public init(lenient: Bool = false, maxDepth: Int = DecodingOptions.defaultMaxDepth) {
        self.lenient = lenient
        self.depthLimit = DecodingOptions.clampedDepth(maxDepth)
    }

    /// The default options with ``lenient-swift.property`` switched on.
    public static var lenient: DecodingOptions { DecodingOptions(lenient: true) }
}

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
        do {
            return try JSONTape.parse(writer.bytes, maxDepth: Int.max)
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

/// A body that did not decode: the `DecodingError`, its key path and a message that says
/// what was expected and what was found.
///
/// ```
/// body.lines[2].quantity: expected an integer, found 2.5
/// body.attributes: required key missing
/// ```
public struct BodyDecodingError: Error, Sendable, CustomStringConvertible {
    /// The underlying error, with the full coding path.
    public var decodingError: DecodingError { box.error }

    /// The error, boxed: `DecodingError`'s layout is resilient, so a bare one would
    /// make every function that throws `BodyDecodingError` (the whole decoding and
    /// delivery path, even when nothing throws) look its size up at run time.
    private let box: Box

    private final class Box: Sendable {
        let error: DecodingError

        init(_ error: DecodingError) {
            self.error = error
        }
    }

    /// Wraps a decoding error.
    /// - Parameter error: the error, as any decoder throws it.
    package init(_ error: DecodingError) {
        box = Box(error)
    }

    /// The error's context (coding path, Foundation's description, underlying error).
    public var context: DecodingError.Context {
        switch decodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return context
        @unknown default:
            return DecodingError.Context(codingPath: [], debugDescription: "\(decodingError)")
        }
    }

    /// The coding path to the problem from the root; for a missing key it ends
    /// with that key.
    public var codingPath: [any CodingKey] {
        if case .keyNotFound(let key, let context) = decodingError {
            return context.codingPath + [key]
        }
        return context.codingPath
    }

    /// The key path rendered from the root, e.g. `body.lines[2].quantity`
    /// (`body` alone for the body itself; a name that is not a plain identifier is
    /// quoted: `body.attributes["first name"]`).
    public var path: String {
        // Rendered from the context's path and the missing key, without joining them into one array first.
        switch decodingError {
        case .keyNotFound(let key, let context):
            return CodingPathRendering.render(context.codingPath, then: key)
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return CodingPathRendering.render(context.codingPath)
        @unknown default:
            return CodingPathRendering.render(codingPath)
        }
    }

    /// What went wrong, for the person who reads it: what was expected and what was found
    /// (`expected an integer from 0 to 255, found 300`, `expected a string, found null`),
    /// `required key missing` for a missing key, or, for an error a type's own `init(from:)`
    /// threw, its description. ``decodingError`` keeps Foundation's wording for code that
    /// inspects it.
    public var message: String {
        switch decodingError {
        case .keyNotFound:
            return "required key missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            if let problem = context.underlyingError as? DecodingProblem { return problem.description }
            return context.debugDescription
        @unknown default:
            return context.debugDescription
        }
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

/// What a decoding failure expected and what it found, in a page developer's words
/// (`expected an integer`, `found 2.5`): attached by the body decoder as the
/// `underlyingError` of the `DecodingError`s it throws, whose `debugDescription` stays
/// Foundation's, and read by ``BodyDecodingError/message``.
struct DecodingProblem: Error, Sendable, CustomStringConvertible {
    /// What the type needs, e.g. `an integer`, `a string`, `an ISO 8601 date`.
    let expected: String
    /// What the body holds, e.g. `2.5`, `a string`, `null`, `"2024-13-01"`.
    let found: String

    /// `expected …, found …`.
    var description: String { "expected \(expected), found \(found)" }

    /// The longest text of a found number or string quoted in a message; longer ones are cut.
    static let quoteLimit = 40

    /// The words for what a value of `type` must be.
    static func expected(_ type: any Any.Type) -> String {
        if let integer = type as? any FixedWidthInteger.Type { return expectedInteger(integer) }
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self), ObjectIdentifier(Character.self): return "a string"
        case ObjectIdentifier(Bool.self): return "true or false"
        case ObjectIdentifier(Double.self), ObjectIdentifier(Float.self), ObjectIdentifier(Decimal.self):
            return "a number"
        case ObjectIdentifier([String: Any].self): return "an object"
        case ObjectIdentifier([Any].self): return "an array"
        case ObjectIdentifier(Date.self): return "an ISO 8601 date"
        case ObjectIdentifier(URL.self): return "a URL"
        case ObjectIdentifier(Data.self): return "Base64 data"
        case ObjectIdentifier(JSONValue.self): return "a JSON value"
        default: return "a value of type \(type)"
        }
    }

    /// `an integer`, with its range for the types narrower than 64 bits and `a non-negative
    /// integer` for the unsigned 64-bit ones.
    private static func expectedInteger<T: FixedWidthInteger>(_ type: T.Type) -> String {
        if T.bitWidth >= 64 { return T.isSigned ? "an integer" : "a non-negative integer" }
        return "an integer from \(T.min) to \(T.max)"
    }

    /// The words for a number that was found: its text, cut to ``quoteLimit`` characters.
    static func found(number text: String) -> String {
        text.count <= quoteLimit ? text : text.prefix(quoteLimit) + "…"
    }

    /// The words for a string that was found, quoted and cut to ``quoteLimit`` characters
    /// (only where the string's content is the problem: a date, a URL, Base64).
    static func found(quoting string: String) -> String {
        let shown = string.count <= quoteLimit ? string : string.prefix(quoteLimit) + "…"
        return String(reflecting: shown)
    }
}

extension DecodingKind {
    /// The words for what was found in a person-readable message: `null`, `true`, `2.5`,
    /// `a string`, `an array`, `an object`.
    var foundWords: String {
        switch self {
        case .null: return "null"
        case .bool(let bool): return bool ? "true" : "false"
        case .number(let number): return DecodingProblem.found(number: number.text)
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        case .date: return "a date"
        case .url: return "a URL"
        case .other(let type): return "a value of type \(type)"
        }
    }
}
