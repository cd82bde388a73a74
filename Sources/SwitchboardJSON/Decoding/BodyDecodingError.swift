import Foundation

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
