/// A JSON Schema (draft 2020-12), as JSON: what a ``Contract`` says a body or a reply looks like.
///
/// A schema is a ``JSONValue`` object (or `true`) with the keywords Switchboard
/// derives: `type`, `properties`, `required`, `items`, `prefixItems`, `minItems`,
/// `additionalProperties`, `propertyNames`, `enum`, `minimum`, `maximum`, `pattern`, `anyOf`, `allOf`,
/// `$ref`, and the annotations `title` and `format`. A part that cannot be derived
/// exactly carries `"x-switchboard-underivable"` with the reason, and accepts anything.
///
/// A type supplies or refines its own schema through ``ContractDescribable``:
/// ```swift
/// extension Money: ContractDescribable {
///     static var contractSchema: JSONSchema? {
///         JSONSchema(["type": "string", "pattern": "^[0-9]+\\.[0-9]{2}$"])
///     }
/// }
/// ```
public struct JSONSchema: Sendable, Hashable, CustomStringConvertible {
    /// The schema as JSON.
    public var json: JSONValue

    /// Wraps a schema written as JSON.
    /// - Parameter json: the schema.
    public init(_ json: JSONValue) {
        self.json = json
    }

    /// The schema that accepts any JSON value (`{}`).
    public static var any: JSONSchema { JSONSchema([:]) }

    /// A string.
    public static var string: JSONSchema { JSONSchema(["type": "string"]) }

    /// A boolean.
    public static var boolean: JSONSchema { JSONSchema(["type": "boolean"]) }

    /// JSON `null`.
    public static var null: JSONSchema { JSONSchema(["type": "null"]) }

    /// An integer from `minimum` to `maximum` (both included).
    /// - Parameters:
    ///   - minimum: the smallest value accepted.
    ///   - maximum: the largest value accepted.
    /// - Returns: the schema.
    public static func integer(minimum: Int64, maximum: UInt64) -> JSONSchema {
        JSONSchema([
            "type": "integer", "minimum": .number(JSONNumber(minimum)), "maximum": .number(JSONNumber(maximum)),
        ])
    }

    /// One of `values` (`enum`), each a string or a number, with their common type.
    /// - Parameter values: the values accepted.
    /// - Returns: the schema.
    public static func enumeration(_ values: [JSONValue]) -> JSONSchema {
        var types: [String] = []
        for value in values {
            let type: String
            switch value {
            case .string: type = "string"
            case .bool: type = "boolean"
            case .null: type = "null"
            case .number(let number): type = number.int64Value != nil ? "integer" : "number"
            case .array: type = "array"
            case .object: type = "object"
            }
            if !types.contains(type) { types.append(type) }
        }
        if types.count == 2, types.contains("integer"), types.contains("number") { types = ["number"] }
        let type: JSONValue = types.count == 1 ? .string(types[0]) : .array(types.map { .string($0) })
        return JSONSchema(["type": type, "enum": .array(values)])
    }

    /// An array whose elements all match `element`.
    /// - Parameter element: the schema of every element.
    /// - Returns: the schema.
    public static func array(of element: JSONSchema) -> JSONSchema {
        JSONSchema(["type": "array", "items": element.json])
    }

    /// An object whose members all match `value` (a `[String: Value]` dictionary).
    /// - Parameter value: the schema of every member.
    /// - Returns: the schema.
    public static func dictionary(of value: JSONSchema) -> JSONSchema {
        if value.json == [:] { return JSONSchema(["type": "object"]) }
        return JSONSchema(["type": "object", "additionalProperties": value.json])
    }

    /// An object whose keys are integers' text and whose members all match `value` (an
    /// `[Int: Value]` dictionary): `0` or up to 15 digits with an optional `-`, no leading zero
    /// (the keys TypeScript's `{ [key: number]: V }` takes; the decoder also takes `+1`, `007`).
    static func integerKeyed(of value: JSONSchema) -> JSONSchema {
        var schema = dictionary(of: value).json.objectValue ?? [:]
        schema["propertyNames"] = integerKeyNames
        return JSONSchema(.object(schema))
    }

    /// The `propertyNames` of ``integerKeyed(of:)``: the TypeScript export writes `number` keys
    /// for exactly this (a user's own `propertyNames` keeps `string` keys).
    static let integerKeyNames: JSONValue = ["pattern": .string("^(0|-?[1-9][0-9]{0,14})" + LeafType.end)]

    /// A schema that accepts anything and says why the shape could not be derived.
    /// - Parameter reason: why (names the type).
    /// - Returns: the schema.
    public static func underivable(_ reason: String) -> JSONSchema {
        JSONSchema([ContractKeyword.underivable: .string(reason)])
    }

    /// This schema, also accepting JSON `null`.
    public var nullable: JSONSchema {
        guard case .object(var members) = json, !members.isEmpty else { return self }
        if members[ContractKeyword.underivable] != nil || acceptsNull { return self }
        if members.count <= 3, members["anyOf"] == nil, members["allOf"] == nil, members["$ref"] == nil,
            case .string(let type)? = members["type"],
            members.keys.allSatisfy({ $0 == "type" || $0 == "enum" })
        {
            members["type"] = [.string(type), "null"]
            if case .array(let values)? = members["enum"] { members["enum"] = .array(values + [.null]) }
            return JSONSchema(.object(members))
        }
        return JSONSchema(["anyOf": [json, ["type": "null"]]])
    }

    /// Whether the schema says outright that it takes `null` (a `type` naming `null`, or an
    /// `anyOf` with such a branch).
    var acceptsNull: Bool {
        guard case .object(let members) = json else { return true }
        if members.isEmpty { return true }
        switch members["type"] {
        case .string("null")?: return true
        case .array(let types)?: return types.contains(.string("null"))
        default: break
        }
        if case .array(let branches)? = members["anyOf"] {
            return branches.contains { JSONSchema($0).acceptsNull }
        }
        return false
    }

    /// Whether the schema, or any part of it, is marked underivable.
    public var isExact: Bool { !json.containsKey(ContractKeyword.underivable) }

    /// The schema as JSON text, keys sorted.
    public var description: String { json.description }
}

/// The keywords of Switchboard's own in a schema.
enum ContractKeyword {
    /// Marks a part whose shape could not be derived exactly; the value says why.
    static let underivable = "x-switchboard-underivable"
}

extension JSONValue {
    /// Whether an object anywhere in this value has the member `key`.
    func containsKey(_ key: String) -> Bool {
        containsObject { $0[key] != nil }
    }

}

/// A type that supplies or refines the schema the ``Contract`` gives it.
///
/// Conform a type whose `init(from:)` decides by value (Switchboard marks such a type
/// underivable rather than guess), or to narrow a derived schema (a pattern, a range).
/// What you supply is what the contract says: keep it in agreement with your decoding.
///
/// Deriving a schema runs a type's `init(from:)` on placeholder values (`"x"`, `1`, keys
/// present then absent). An `init(from:)` that traps on a value it did not expect (a
/// force-unwrap, a `precondition`) traps there too: throw instead, or supply
/// ``contractSchema`` (such a type is not probed) or ``contractExample``.
///
/// ```swift
/// enum Shape: Decodable, ContractDescribable {
///     case circle(radius: Double), square(side: Double)
///     init(from decoder: any Decoder) throws { … }   // decodes by a "kind" member
///     static var contractSchema: JSONSchema? {
///         JSONSchema(["anyOf": [
///             ["type": "object", "properties": ["kind": ["enum": ["circle"]], "radius": ["type": "number"]],
///              "required": ["kind", "radius"]],
///             ["type": "object", "properties": ["kind": ["enum": ["square"]], "side": ["type": "number"]],
///              "required": ["kind", "side"]],
///         ]])
///     }
///     static var contractExample: Shape? { .circle(radius: 1) }
/// }
/// ```
public protocol ContractDescribable {
    /// The type's whole schema; `nil` (the default) derives it from the type.
    static var contractSchema: JSONSchema? { get }

    /// Refines the derived schema (the default returns it unchanged). Not called when
    /// ``contractSchema`` supplies one.
    /// - Parameter derived: the schema derived from the type's decoding.
    /// - Returns: the schema the contract gives the type.
    static func refineContractSchema(_ derived: JSONSchema) -> JSONSchema

    /// A value of the type, used when the type is a member of another one being derived
    /// and its own `init(from:)` cannot run on the probe (the default, `nil`, runs it).
    static var contractExample: Self? { get }
}

extension ContractDescribable {
    /// Derived: `nil`.
    public static var contractSchema: JSONSchema? { nil }

    /// The derived schema, unchanged.
    /// - Parameter derived: the derived schema.
    /// - Returns: `derived`.
    public static func refineContractSchema(_ derived: JSONSchema) -> JSONSchema { derived }

    /// None: the type's `init(from:)` runs on the probe.
    public static var contractExample: Self? { nil }
}
