import Foundation

// PLACEHOLDER (skeleton): the real encoder replaces this file. The signatures are the contract.

/// Encodes `Encodable` values to JSON-compatible Foundation trees (for WebKit) and to JSON bytes.
public struct BodyEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes `value` to a tree of `NSNull`, `Bool`, `NSNumber`, `String`, `[Any]` and `[String: Any]`.
    public func encodeFoundationObject<T: Encodable>(_ value: T) throws(BodyEncodingError) -> Any {
        do {
            let data = try JSONEncoder().encode(value)
            return try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        } catch {
            throw BodyEncodingError(message: "\(error)")
        }
    }

    /// Encodes `value` to UTF-8 JSON bytes.
    public func encodeJSON<T: Encodable>(_ value: T) throws(BodyEncodingError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(value))
        } catch {
            throw BodyEncodingError(message: "\(error)")
        }
    }
}

/// A value that could not be encoded (a non-finite number, for example).
public struct BodyEncodingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, and where.
    public let message: String

    /// Creates an error.
    public init(message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
