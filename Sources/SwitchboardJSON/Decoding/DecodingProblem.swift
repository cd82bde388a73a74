import Foundation

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

extension SourceKind {
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
