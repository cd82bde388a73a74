/// A schema as ``SchemaComparison`` reads it: `$ref`s followed, `true` and `false` told apart,
/// a nullable `anyOf` (`[X, {"type": "null"}]`, as the deriver writes an optional member)
/// unwrapped into `X` that also takes `null`, annotations set aside.
struct SchemaNode {
    /// What the schema is.
    enum Shape {
        /// A schema with keywords (`{}` takes anything).
        case keywords([String: JSONValue])
        /// `false`: takes nothing.
        case never
        /// Marked `x-switchboard-underivable`, with the reason.
        case underivable(String)
        /// Cannot be read (a `$ref` that points nowhere), with the reason.
        case unreadable(String)
    }

    /// The JSON types, in the order JSON Schema names them.
    static let allTypes = ["array", "boolean", "integer", "null", "number", "object", "string"]

    /// Keywords that say nothing about which values are valid.
    static let annotations: Set<String> = [
        "title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly",
        "$schema", "$id", "$anchor", "$dynamicAnchor",
    ]

    /// The shape, once references and a nullable `anyOf` are followed.
    let shape: Shape
    /// Whether a nullable `anyOf` added `null` to it.
    let nullable: Bool
    /// Whether reading it followed a `$ref` (so the comparison of this pair may recur).
    let followedReference: Bool

    /// Reads `schema`, following `$ref`s into `definitions`.
    init(_ schema: JSONValue, definitions: [String: JSONValue]) {
        var current = schema
        var nullable = false
        var followed = false
        var result: Shape?
        // A chain of references longer than this is a loop (`A` → `B` → `A`).
        for _ in 0..<64 {
            guard case .object(let keywords) = current else {
                result = current == .bool(false) ? .never : .keywords([:])
                break
            }
            if let reason = keywords[ContractKeyword.underivable] {
                result = .underivable(reason.stringValue ?? "\(reason)")
                break
            }
            let constraints = keywords.filter { !SchemaNode.annotations.contains($0.key) && !$0.key.hasPrefix("x-") }
            if let reference = keywords["$ref"] {
                guard constraints.count == 1 else {
                    result = .unreadable("$ref beside other keywords is not compared")
                    break
                }
                guard let name = reference.stringValue, name.hasPrefix("#/$defs/"),
                    let target = definitions[String(name.dropFirst("#/$defs/".count))]
                else {
                    result = .unreadable("$ref \(reference) points at no definition")
                    break
                }
                followed = true
                current = target
                continue
            }
            if constraints.count == 1, let branches = (constraints["anyOf"] ?? constraints["oneOf"])?.arrayValue {
                let others = branches.filter { !SchemaNode.isNullOnly($0) }
                if others.count == 1, !branches.isEmpty {
                    nullable = nullable || others.count < branches.count
                    current = others[0]
                    continue
                }
            }
            result = .keywords(constraints)
            break
        }
        self.shape = result ?? .unreadable("$ref loops")
        self.nullable = nullable
        self.followedReference = followed
    }

    /// Whether `schema` takes `null` and nothing else (`{"type": "null"}`, `{"const": null}`).
    static func isNullOnly(_ schema: JSONValue) -> Bool {
        guard case .object(let keywords) = schema else { return false }
        let constraints = keywords.filter { !annotations.contains($0.key) }
        if constraints == ["type": "null"] { return true }
        if constraints == ["const": .null] || constraints == ["enum": [.null]] { return true }
        return false
    }

    /// The keywords (empty for a shape that has none).
    var keywords: [String: JSONValue] {
        if case .keywords(let keywords) = shape { return keywords }
        return [:]
    }

    /// The values `enum` or `const` allow (with `null` when nullable), `nil` when neither is there.
    var allowedValues: [JSONValue]? {
        var values: [JSONValue]
        if let constant = keywords["const"] {
            values = [constant]
            if let listed = keywords["enum"]?.arrayValue {
                values = values.filter { value in listed.contains { SchemaValidator.equal($0, value) } }
            }
        } else if let listed = keywords["enum"]?.arrayValue {
            values = listed
        } else {
            return nil
        }
        if nullable, !values.contains(.null) { values.append(.null) }
        return values
    }

    /// The JSON types the schema takes: those `type` names (all when absent) and `null` when
    /// nullable, narrowed to those of the `enum` or `const` values when there are some.
    var types: Set<String> {
        var declared: Set<String>
        switch keywords["type"] {
        case .string(let name)?: declared = [name]
        case .array(let names)?: declared = Set(names.compactMap(\.stringValue))
        default: declared = Set(SchemaNode.allTypes)
        }
        if declared.contains("number") { declared.insert("integer") }
        if nullable { declared.insert("null") }
        if let values = allowedValues {
            return Set(values.map(SchemaNode.typeName).filter { declared.contains($0) })
        }
        return declared
    }

    /// The JSON type of a value (`integer` for a number without a fraction).
    static func typeName(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): SchemaValidator.isIntegral(number) ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
