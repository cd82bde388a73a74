/// What a probe run recorded at one position of a value: the container asked for
/// there and what was decoded from it. Turned into a schema by ``schema()``.
final class ProbeNode {
    /// A member's or an element's schema: known, or a nested container still being recorded.
    enum Part {
        case known(JSONValue)
        case node(ProbeNode)

        var schema: JSONValue {
            switch self {
            case .known(let schema): return schema
            case .node(let node): return node.schema()
            }
        }
    }

    /// One member of an object: its schemas (one per `decode` of the key) and whether
    /// any of them requires the key.
    struct Member {
        var parts: [Part] = []
        var required = false
    }

    /// What an array container was asked, in order.
    enum ArrayStep: Equatable {
        case atEnd(Bool)
        case element
        case nilCheck
        /// `count` was read (the probe does not know it: `nil`).
        case count
    }

    enum Kind {
        case none
        case object
        case array
        case single
    }

    private(set) var kind = Kind.none
    private var requests = 0
    /// Why the value cannot be described (a second kind of container, `allKeys`, …).
    private var problem: String?

    private var members: [String: Member] = [:]
    private var order: [String] = []

    private var steps: [ArrayStep] = []
    private var elements: [Part] = []

    private var singles: [Part] = []

    /// Records that a container of `kind` was asked for here.
    func request(_ kind: Kind) throws {
        requests += 1
        // A type that asks again and again (one that decodes itself from the same decoder) stops here.
        if requests > 32 { throw ProbeFailure.budget }
        if self.kind == .none {
            self.kind = kind
        } else if self.kind != kind {
            problem = "asks for two kinds of container"
        }
    }

    /// Marks the value as one the contract cannot describe.
    func cannotDescribe(_ reason: String) {
        if problem == nil { problem = reason }
    }

    func addMember(_ key: String, _ part: Part, required: Bool) {
        if members[key] == nil { order.append(key) }
        members[key, default: Member()].parts.append(part)
        if required { members[key, default: Member()].required = true }
    }

    func addStep(_ step: ArrayStep) {
        steps.append(step)
    }

    func addElement(_ part: Part) {
        steps.append(.element)
        elements.append(part)
    }

    func addSingle(_ part: Part) {
        singles.append(part)
    }

    /// The schema of what was recorded.
    func schema() -> JSONValue {
        if let problem { return JSONSchema.underivable(problem).json }
        switch kind {
        case .none:
            return [:]
        case .object:
            var properties: [String: JSONValue] = [:]
            var required: [JSONValue] = []
            for key in order {
                guard let member = members[key] else { continue }
                properties[key] = ProbeNode.all(member.parts.map(\.schema))
                if member.required { required.append(.string(key)) }
            }
            var schema: [String: JSONValue] = ["type": "object"]
            if !properties.isEmpty { schema["properties"] = .object(properties) }
            if !required.isEmpty { schema["required"] = .array(required) }
            return .object(schema)
        case .single:
            let schema = ProbeNode.all(singles.map(\.schema))
            return steps.contains(.nilCheck) ? JSONSchema(schema).nullable.json : schema
        case .array:
            return arraySchema()
        }
    }

    /// The schema of an array container: a loop that reads until `isAtEnd` (every element
    /// alike), or a fixed run of elements read without asking (a tuple).
    private func arraySchema() -> JSONValue {
        let schemas = elements.map(\.schema)
        let nullable = steps.contains(.nilCheck)
        let asked = steps.filter { $0 != .nilCheck && $0 != .count }
        let loops = asked.contains { if case .atEnd = $0 { return true } else { return false } }
        // Read by its count (the probe's is unknown): how many elements, and of what, is not seen.
        if steps.contains(.count), !loops { return JSONSchema.underivable("reads an array by its count").json }
        if asked.isEmpty { return ["type": "array"] }
        if !loops {
            if nullable { return JSONSchema.underivable("checks a fixed array's elements for null").json }
            let items = schemas
            return ["type": "array", "prefixItems": .array(items), "minItems": .number(JSONNumber(items.count))]
        }
        // The loop `while !isAtEnd { decode }`: the probe says "not at end" until one element is read.
        if asked == [.atEnd(false), .element, .atEnd(true)] || asked == [.atEnd(true)] {
            guard let element = schemas.first else { return ["type": "array"] }
            return JSONSchema.array(of: nullable ? JSONSchema(element).nullable : JSONSchema(element)).json
        }
        return JSONSchema.underivable("reads an array by its length or position").json
    }

    /// One schema that takes what every one of `schemas` takes.
    private static func all(_ schemas: [JSONValue]) -> JSONValue {
        var distinct: [JSONValue] = []
        for schema in schemas where !distinct.contains(schema) { distinct.append(schema) }
        if distinct.count == 1 { return distinct[0] }
        if distinct.isEmpty { return [:] }
        return ["allOf": .array(distinct)]
    }
}
