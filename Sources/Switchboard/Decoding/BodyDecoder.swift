import Foundation

// PLACEHOLDER (skeleton): the real decoder replaces this file. The signatures are the contract.

/// Options for ``BodyDecoder``.
public struct DecodingOptions: Sendable, Hashable {
    /// When `true`, numeric strings decode as numbers and `"true"`/`"false"` as `Bool`. Off by default.
    public var lenient: Bool
    /// The deepest nesting of arrays and objects accepted.
    public var maxDepth: Int

    /// Creates options.
    public init(lenient: Bool = false, maxDepth: Int = 512) {
        self.lenient = lenient
        self.maxDepth = maxDepth
    }
}

/// Decodes `Decodable` values straight from loosely typed message bodies.
public struct BodyDecoder: Sendable {
    /// The options in effect.
    public var options: DecodingOptions

    /// Creates a decoder.
    public init(options: DecodingOptions = DecodingOptions()) {
        self.options = options
    }

    /// Decodes `type` from a Foundation tree (`nil` means the body is absent).
    public func decode<T: Decodable>(_ type: T.Type, from body: Any?) throws(BodyDecodingError) -> T {
        do {
            let data = try JSONSerialization.data(withJSONObject: body ?? NSNull(), options: .fragmentsAllowed)
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw BodyDecodingError(error)
        } catch {
            throw BodyDecodingError(DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(error)")))
        }
    }

    /// Decodes `type` from a ``JSONValue``.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(BodyDecodingError) -> T {
        throw BodyDecodingError(DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "unimplemented")))
    }

    /// Decodes `type` from the value under `key` of an object body (path `body.<key>…`).
    public func decode<T: Decodable>(_ type: T.Type, from body: Any?, at key: String) throws(BodyDecodingError) -> T {
        try decode(type, from: (body as? [String: Any])?[key])
    }

    /// Decodes `type` from the value under `key` of an object ``JSONValue``.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, at key: String) throws(BodyDecodingError) -> T {
        try decode(type, from: value.foundationValue)
    }
}

extension JSONValue {
    /// This value as a Foundation tree.
    public var foundationValue: Any { NSNull() }
}

/// A body that did not decode: the `DecodingError`, its key path and Foundation's message.
public struct BodyDecodingError: Error, Sendable, CustomStringConvertible {
    /// The underlying error, with the full coding path.
    public let decodingError: DecodingError

    /// Wraps a decoding error.
    public init(_ error: DecodingError) {
        self.decodingError = error
    }

    /// The key path rendered from the root, e.g. `body.lines[2].quantity`.
    public var path: String { "body" }

    /// Foundation's message, e.g. `Expected to decode String but found a number instead.`
    public var message: String { "\(decodingError)" }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}
