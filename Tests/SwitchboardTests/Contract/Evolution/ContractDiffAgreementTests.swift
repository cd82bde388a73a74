import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// The agreement property: for random bodies valid under OLD, a NEW judged compatible for what
/// the page sends accepts them (checked with the router's own validator), and a NEW judged
/// breaking comes with an example body OLD accepts and NEW refuses.
@Suite struct ContractDiffAgreementTests {
    typealias F = DiffFixtures

    /// Base schemas the mutations start from: a cart line, a recursive category, a nullable offer.
    static let bases: [(schema: JSONValue, definitions: [String: JSONValue])] = [
        (
            F.object(
                [
                    "merchandiseId": ["type": "string", "minLength": 1],
                    "quantity": ["type": "integer", "minimum": 1, "maximum": 99],
                    "price": ["type": "number", "minimum": 0],
                    "kind": ["type": "string", "enum": ["gift", "sale", "regular"]],
                    "note": ["type": ["string", "null"], "maxLength": 40],
                    "attributes": ["type": "object", "additionalProperties": ["type": "string"]],
                    "tags": ["type": "array", "items": ["type": "string"], "maxItems": 4],
                    "sku": ["type": "string", "pattern": "^[A-Z]{2}-[0-9]{3}$"],
                ], required: ["merchandiseId", "quantity"]), [:]
        ),
        (
            ["$ref": "#/$defs/Category"],
            [
                "Category": F.object(
                    [
                        "id": ["type": "integer", "minimum": 0],
                        "name": ["type": "string"],
                        "children": ["type": "array", "items": ["$ref": "#/$defs/Category"]],
                    ], required: ["id", "name"])
            ]
        ),
        (
            F.object(
                [
                    "offer": [
                        "anyOf": [
                            F.object(
                                ["offerId": ["type": "string"], "availability": ["type": "integer"]],
                                required: ["offerId"]),
                            ["type": "null"],
                        ]
                    ],
                    "flag": ["type": "boolean"],
                ], required: ["offer"]), [:]
        ),
    ]

    /// One random change somewhere in `schema`'s objects and scalars.
    static func mutate(_ schema: JSONValue, _ random: inout SeededRandom, depth: Int = 0) -> JSONValue {
        guard case .object(var keywords) = schema else { return schema }
        var properties = keywords["properties"]?.objectValue
        if let keys = properties?.keys.sorted(), !keys.isEmpty, depth < 3, random.below(3) > 0 {
            let key = keys[random.below(keys.count)]
            let member = properties?[key] ?? [:]
            properties?[key] = mutate(member, &random, depth: depth + 1)
            keywords["properties"] = properties.map(JSONValue.object)
            return .object(keywords)
        }
        if case .array(var branches)? = keywords["anyOf"], !branches.isEmpty, random.oneIn(2) {
            let index = random.below(branches.count)
            branches[index] = mutate(branches[index], &random, depth: depth + 1)
            keywords["anyOf"] = .array(branches)
            return .object(keywords)
        }
        var required = keywords["required"]?.arrayValue ?? []
        switch random.below(14) {
        case 0: properties?["added\(depth)"] = ["type": "string"]
        case 1:
            properties?["added\(depth)"] = ["type": "integer"]
            required.append(.string("added\(depth)"))
        case 2: if !required.isEmpty { required.remove(at: random.below(required.count)) }
        case 3:
            if let key = properties?.keys.sorted().first, !required.contains(.string(key)) {
                required.append(.string(key))
            }
        case 4: keywords["minimum"] = .number(JSONNumber(Int64(random.below(5))))
        case 5: keywords["maximum"] = .number(JSONNumber(Int64(50 + random.below(100))))
        case 6: keywords["maxLength"] = .number(JSONNumber(Int64(random.below(6))))
        case 7: keywords["minLength"] = .number(JSONNumber(Int64(random.below(3))))
        case 8:
            if case .string(let type)? = keywords["type"] { keywords["type"] = [.string(type), "null"] }
        case 9:
            if case .array(let types)? = keywords["type"], let first = types.first { keywords["type"] = first }
        case 10:
            if case .array(var values)? = keywords["enum"] {
                if random.oneIn(2) { values.append("extra") } else if values.count > 1 { values.removeLast() }
                keywords["enum"] = .array(values)
            }
        case 11: if properties != nil { keywords["additionalProperties"] = random.oneIn(2) ? false : true }
        case 12: if keywords["type"] == "integer" { keywords["type"] = "number" }
        default: if keywords["type"] == "number" { keywords["type"] = "integer" }
        }
        if properties != nil {
            keywords["properties"] = properties.map(JSONValue.object)
            keywords["required"] = required.isEmpty ? nil : .array(required)
        }
        return .object(keywords)
    }

    /// Up to `count` bodies valid under `schema`, from seeds.
    static func bodies(_ schema: JSONValue, _ definitions: [String: JSONValue], count: Int) -> [JSONValue] {
        let validator = SchemaValidator(definitions: definitions)
        return (0..<UInt64(count * 2)).compactMap { seed -> JSONValue? in
            var generator = SchemaValueGenerator(definitions: definitions, seed: seed, minimal: seed == 0)
            return generator.value(for: schema).flatMap { validator.problem($0, schema) == nil ? $0 : nil }
        }
    }

    @Test func theGeneratorMakesValidBodiesForEachBase() {
        for base in Self.bases {
            let made = Self.bodies(base.schema, base.definitions, count: 60)
            #expect(made.count >= 60, "\(base.schema)")
            #expect(Set(made).count > 10)
        }
    }

    @Test(arguments: 0..<3)
    func compatibleMeansAcceptedAndBreakingComesWithAnExample(base: Int) {
        let (schema, definitions) = Self.bases[base]
        var random = SeededRandom(seed: UInt64(base) &* 7919 &+ 1)
        var judged: [ContractChange.Severity: Int] = [:]
        for _ in 0..<60 {
            var new = schema
            var newDefinitions = definitions
            if case .object(let root) = schema, root["$ref"] != nil, let category = definitions["Category"] {
                newDefinitions["Category"] = Self.mutate(category, &random)
            } else {
                new = Self.mutate(schema, &random)
                if random.oneIn(3) { new = Self.mutate(new, &random) }
            }
            let diff = F.bodies(schema, new, definitions: (definitions, newDefinitions))
            let newValidator = SchemaValidator(definitions: newDefinitions)
            if diff.isBreaking {
                judged[.breaking, default: 0] += 1
                let examples = diff.breaking.compactMap(\.example)
                let onlyPatterns = diff.breaking.allSatisfy {
                    $0.change.contains("pattern") || $0.change.contains("format")
                }
                #expect(!examples.isEmpty || onlyPatterns, "no example for \(diff.text)")
                for example in examples {
                    #expect(SchemaValidator(definitions: definitions).problem(example, schema) == nil, "\(example)")
                    #expect(newValidator.problem(example, new) != nil, "\(example) for \(diff.text)")
                }
            } else if diff.unknown.isEmpty {
                judged[.compatible, default: 0] += 1
                for body in Self.bodies(schema, definitions, count: 40) {
                    #expect(newValidator.problem(body, new) == nil, "\(body) refused after \(diff.text)")
                }
            }
        }
        // Both outcomes are exercised.
        #expect(judged[.breaking, default: 0] >= 3 && judged[.compatible, default: 0] >= 3, "\(judged)")
    }
}
