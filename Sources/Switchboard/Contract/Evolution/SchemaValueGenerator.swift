import Foundation

/// Makes JSON values a schema accepts, from a seed: the same seed and schema give the same
/// value. Used to find a body that shows a breaking change (``ContractDiff``'s examples) and by
/// the agreement tests; what it makes is checked with ``SchemaValidator`` by its callers (it
/// aims at valid values but does not promise them: `oneOf`, `uniqueItems`, conflicting
/// `allOf` parts).
///
/// Objects get their required keys, optional keys at random (none in ``minimal`` mode), and
/// members of their `additionalProperties` schema when one is given; keys a schema does not
/// list are never added otherwise (a page sends the keys its contract names).
package struct SchemaValueGenerator {
    /// What to do at the end of a ``Plan``'s path.
    package enum Directive: Sendable, Hashable {
        /// Put this value there.
        case value(JSONValue)
        /// Make a value of the schema there without this key.
        case without(String)
        /// Make a value of the schema there with this key.
        case with(String)
        /// Make a value of the schema there with one member its `properties` do not list.
        case extraMember
        /// Make a value of this JSON type there.
        case type(String)
        /// Make an array of this many elements there (all the same element).
        case count(Int)
        /// Make any value of the schema there.
        case any
    }

    /// Where a ``Directive`` applies, and the directive.
    package struct Plan: Sendable, Hashable {
        let path: [SchemaChange.Step]
        let directive: Directive
    }

    /// The `$defs` of the schema's document.
    package let definitions: [String: JSONValue]
    /// Only required keys, the fewest elements, the smallest numbers and strings.
    package let minimal: Bool
    private var random: SeededRandom
    /// How many schemas one value may visit (an unsatisfiable recursive schema stops here).
    private var budget = 0
    static let visits = 5_000
    /// The largest `minLength`, `minItems` or `minProperties` a value is made for; a larger one
    /// (a hostile contract) makes no value rather than an unbounded one.
    static let largestCount = 4_096
    /// How many schemas this generator has visited, over all the values it made.
    package private(set) var visited = 0

    /// Creates a generator.
    /// - Parameters:
    ///   - definitions: the document's `$defs`.
    ///   - seed: the seed.
    ///   - minimal: only what the schema requires, smallest values.
    package init(definitions: [String: JSONValue], seed: UInt64, minimal: Bool = false) {
        self.definitions = definitions
        self.minimal = minimal
        self.random = SeededRandom(seed: seed)
    }

    /// A value for `schema`, or `nil` when none was found.
    /// - Parameter schema: the schema.
    /// - Returns: the value.
    package mutating func value(for schema: JSONValue) -> JSONValue? {
        budget = SchemaValueGenerator.visits
        return make(schema, plan: nil, depth: 0)
    }

    mutating func value(for schema: JSONValue, plan: Plan) -> JSONValue? {
        budget = SchemaValueGenerator.visits
        return make(schema, plan: plan, depth: 0)
    }

    private mutating func make(_ schema: JSONValue, plan: Plan?, depth: Int) -> JSONValue? {
        if let plan, plan.path.isEmpty, case .value(let value) = plan.directive { return value }
        budget -= 1
        visited += 1
        guard depth < 48, budget > 0 else { return nil }
        let node = SchemaNode(schema, definitions: definitions)
        var keywords: [String: JSONValue]
        switch node.shape {
        case .never: return nil
        case .underivable, .unreadable: keywords = [:]
        case .keywords(let found): keywords = found
        }
        if let branches = (keywords["anyOf"] ?? keywords["oneOf"])?.arrayValue {
            var options = branches
            if node.nullable { options.append(["type": "null"]) }
            let start = random.below(options.count)
            for offset in 0..<options.count {
                if let value = make(options[(start + offset) % options.count], plan: plan, depth: depth + 1) {
                    return value
                }
            }
            return nil
        }
        if let parts = keywords["allOf"]?.arrayValue {
            keywords = merged(parts, into: keywords.filter { $0.key != "allOf" })
        }
        let local = plan.flatMap { $0.path.isEmpty ? $0.directive : nil }
        let types = node.types
        guard let type = chooseType(types, keywords, plan: plan) else { return nil }
        if let values = node.allowedValues, plan?.path.isEmpty ?? true {
            let fitting = values.filter {
                SchemaNode.typeName(of: $0) == type || (type == "number" && SchemaNode.typeName(of: $0) == "integer")
            }
            guard !fitting.isEmpty else { return nil }
            return minimal ? fitting[0] : fitting[random.below(fitting.count)]
        }
        switch type {
        case "null": return .null
        case "boolean": return .bool(minimal ? true : random.oneIn(2))
        case "integer", "number": return number(keywords, integral: type == "integer")
        case "string": return string(keywords)
        case "array": return array(keywords, plan: plan, local: local, depth: depth)
        default: return object(keywords, plan: plan, local: local, depth: depth)
        }
    }

    private func merged(_ parts: [JSONValue], into base: [String: JSONValue]) -> [String: JSONValue] {
        var result = base
        for part in parts {
            guard case .keywords(let keywords) = SchemaNode(part, definitions: definitions).shape else { continue }
            for (key, value) in keywords {
                switch (key, result[key], value) {
                case ("properties", .object(let mine)?, .object(let theirs)):
                    result[key] = .object(mine.merging(theirs) { first, second in ["allOf": [first, second]] })
                case ("required", .array(let mine)?, .array(let theirs)):
                    result[key] = .array(mine + theirs.filter { !mine.contains($0) })
                case (_, nil, _):
                    result[key] = value
                default:
                    break
                }
            }
        }
        return result
    }

    private mutating func chooseType(_ types: Set<String>, _ keywords: [String: JSONValue], plan: Plan?) -> String? {
        if let plan, let step = plan.path.first {
            switch step {
            case .key, .member: return types.contains("object") ? "object" : nil
            case .index, .element: return types.contains("array") ? "array" : nil
            }
        }
        if let plan, plan.path.isEmpty {
            switch plan.directive {
            case .type(let type): return types.contains(type) ? type : nil
            case .with, .without, .extraMember: return types.contains("object") ? "object" : nil
            case .count: return types.contains("array") ? "array" : nil
            case .value, .any: break
            }
        }
        var candidates = SchemaNode.allTypes.filter { types.contains($0) }
        if candidates.contains("number") && candidates.contains("integer") && !minimal && random.oneIn(2) {
            candidates.removeAll { $0 == "integer" }
        }
        guard !candidates.isEmpty else { return nil }
        // A schema with object (array, string, number) keywords describes that type: prefer it.
        let hints: [(String, [String])] = [
            ("object", ["properties", "required", "additionalProperties", "propertyNames"]),
            ("array", ["items", "prefixItems", "minItems", "maxItems"]),
            ("string", ["pattern", "minLength", "maxLength", "format"]),
            ("number", ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]),
        ]
        for (type, names) in hints where names.contains(where: { keywords[$0] != nil }) {
            if candidates.contains(type) { return type }
            if type == "number" && candidates.contains("integer") { return "integer" }
        }
        let nonNull = candidates.filter { $0 != "null" }
        if minimal || random.below(5) > 0, !nonNull.isEmpty {
            // Without a hint, a scalar is the usual choice for an unconstrained schema.
            if candidates.count == SchemaNode.allTypes.count {
                return ["string", "integer", "boolean"][random.below(3)]
            }
            return nonNull[minimal ? 0 : random.below(nonNull.count)]
        }
        return candidates[random.below(candidates.count)]
    }

    // MARK: Scalars

    private mutating func number(_ keywords: [String: JSONValue], integral: Bool) -> JSONValue? {
        func decimal(_ key: String) -> Decimal? {
            guard let text = keywords[key]?.numberValue?.text, let value = Decimal(string: text, locale: nil),
                !value.isNaN, value.exponent < 100
            else { return nil }
            return value
        }
        var low = Decimal(-1_000_000)
        var high = Decimal(1_000_000)
        var lowOpen = false
        var highOpen = false
        if let minimum = decimal("minimum"), minimum >= low {
            low = minimum
            lowOpen = keywords["exclusiveMinimum"] == true
        }
        if let minimum = decimal("exclusiveMinimum"), minimum >= low {
            low = minimum
            lowOpen = true
        }
        if let maximum = decimal("maximum"), maximum <= high {
            high = maximum
            highOpen = keywords["exclusiveMaximum"] == true
        }
        if let maximum = decimal("exclusiveMaximum"), maximum <= high {
            high = maximum
            highOpen = true
        }
        let step = decimal("multipleOf").flatMap { $0 > 0 ? $0 : nil } ?? (integral ? 1 : 1)
        // Candidates are multiples of the step from the lowest one in range.
        var first = low / step
        var rounded = Decimal()
        NSDecimalRound(&rounded, &first, 0, .up)
        var value = rounded * step
        if lowOpen && value == low { value += step }
        var last = high / step
        var roundedHigh = Decimal()
        NSDecimalRound(&roundedHigh, &last, 0, .down)
        var top = roundedHigh * step
        if highOpen && top == high { top -= step }
        guard value <= top else {
            // No multiple of the step in range (a fractional range for an integer): a midpoint for a number.
            guard !integral, low < high else { return nil }
            return JSONNumber("\((low + high) / 2)").map(JSONValue.number)
        }
        if !minimal {
            let span = (top - value) / step
            let choices = NSDecimalNumber(decimal: min(span, 100)).intValue
            value += Decimal(random.below(choices + 1)) * step
            if !integral && keywords["multipleOf"] == nil && random.oneIn(2) {
                let half = value + Decimal(5) / 10
                if half < high || (!highOpen && half == high) { value = half }
            }
        } else if value < 0 && top >= 0 {
            // The smallest value is 0 (or the multiple next above it) when the range holds it.
            var zero = Decimal(0) / step
            var roundedZero = Decimal()
            NSDecimalRound(&roundedZero, &zero, 0, .up)
            value = roundedZero * step
        }
        return JSONNumber("\(value)").map(JSONValue.number)
    }

    private mutating func string(_ keywords: [String: JSONValue]) -> JSONValue? {
        let minimum = keywords["minLength"]?.intValue ?? 0
        let maximum = keywords["maxLength"]?.intValue ?? Int.max
        // A hostile bound (a huge or negative length) makes no value: nothing is built of it.
        guard minimum <= maximum, minimum >= 0, minimum <= SchemaValueGenerator.largestCount else { return nil }
        func fits(_ text: String) -> Bool {
            let count = text.unicodeScalars.count
            return count >= minimum && count <= maximum
        }
        if let pattern = keywords["pattern"]?.stringValue {
            guard let sampler = RegexSampler(pattern) else { return nil }
            for _ in 0..<16 {
                let text = sampler.sample(&random)
                if fits(text) { return .string(text) }
            }
            return nil
        }
        if let format = keywords["format"]?.stringValue, let sample = SchemaValueGenerator.formatSamples[format],
            fits(sample)
        {
            return .string(sample)
        }
        let length = minimal ? max(minimum, 1) : max(minimum, 1 + random.below(8))
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let text = String((0..<min(length, maximum)).map { _ in minimal ? "x" : letters[random.below(letters.count)] })
        return fits(text) ? .string(text) : nil
    }

    /// A valid string of each `format` the deriver or a hand-written schema commonly uses.
    static let formatSamples: [String: String] = [
        "date-time": "2026-12-04T12:30:00Z", "date": "2026-12-04", "time": "12:30:00Z",
        "uuid": "00000000-0000-4000-8000-000000000001", "uri": "https://example.com/a",
        "uri-reference": "https://example.com/a", "email": "shopper@example.com", "hostname": "example.com",
        "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
    ]

    // MARK: Arrays and objects

    private mutating func array(
        _ keywords: [String: JSONValue], plan: Plan?, local: Directive?, depth: Int
    ) -> JSONValue? {
        let prefix = keywords["prefixItems"]?.arrayValue ?? []
        let items = keywords["items"] ?? true
        let minimum = keywords["minItems"]?.intValue ?? 0
        let maximum = keywords["maxItems"]?.intValue ?? Int.max
        guard minimum >= 0, minimum <= SchemaValueGenerator.largestCount else { return nil }
        var count = minimal || depth > 6 ? minimum : minimum + random.below(3)
        var target: (index: Int, plan: Plan)?
        if let plan, let step = plan.path.first {
            let rest = Plan(path: Array(plan.path.dropFirst()), directive: plan.directive)
            switch step {
            case .index(let index): target = (index, rest)
            case .element: target = (prefix.count, rest)
            case .key, .member: return nil
            }
            count = max(count, (target?.index ?? 0) + 1)
        }
        if case .count(let wanted)? = local {
            guard
                let element = make(items, plan: nil, depth: depth + 1)
                    ?? make(prefix.first ?? items, plan: nil, depth: depth + 1)
            else {
                return wanted == 0 ? .array([]) : nil
            }
            return .array(Array(repeating: element, count: wanted))
        }
        if items == false { count = min(count, prefix.count) }
        count = min(count, maximum)
        guard count >= minimum else { return nil }
        var elements: [JSONValue] = []
        for index in 0..<count {
            let schema = index < prefix.count ? prefix[index] : items
            let elementPlan = target?.index == index ? target?.plan : nil
            guard let element = make(schema, plan: elementPlan, depth: depth + 1) else { return nil }
            elements.append(element)
        }
        if let target, target.index >= elements.count { return nil }
        return .array(elements)
    }

    private mutating func object(
        _ keywords: [String: JSONValue], plan: Plan?, local: Directive?, depth: Int
    ) -> JSONValue? {
        let properties = keywords["properties"]?.objectValue ?? [:]
        let required = (keywords["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        let others = keywords["additionalProperties"]
        var members: [String: JSONValue] = [:]
        var target: (step: SchemaChange.Step, plan: Plan)?
        if let plan, let step = plan.path.first {
            target = (step, Plan(path: Array(plan.path.dropFirst()), directive: plan.directive))
        }
        var keys = required
        for key in properties.keys.sorted() where !keys.contains(key) {
            let include = !minimal && depth < 6 && random.oneIn(depth < 3 ? 2 : 4)
            if include { keys.append(key) }
        }
        if case .key(let key)? = target?.step, !keys.contains(key) { keys.append(key) }
        if case .with(let key)? = local, !keys.contains(key) { keys.append(key) }
        if case .without(let key)? = local {
            guard !required.contains(key) else { return nil }
            keys.removeAll { $0 == key }
        }
        for key in keys {
            let schema = properties[key] ?? others ?? true
            var memberPlan: Plan?
            if case .key(let wanted)? = target?.step, wanted == key { memberPlan = target?.plan }
            guard let value = make(schema, plan: memberPlan, depth: depth + 1) else { return nil }
            members[key] = value
        }
        var extra = 0
        if case .member? = target?.step { extra = 1 }
        if case .extraMember? = local { extra = 1 }
        if let schema = others, schema.objectValue != nil, !minimal, depth < 4 { extra += random.below(3) }
        let minimum = keywords["minProperties"]?.intValue ?? 0
        guard minimum >= 0, minimum <= SchemaValueGenerator.largestCount else { return nil }
        extra = max(extra, minimum - members.count)
        for index in 0..<extra {
            guard let name = memberName(keywords, avoiding: members, properties: properties, index: index) else {
                return nil
            }
            let schema = others ?? true
            let memberPlan: Plan? = index == 0 && target?.step == .member ? target?.plan : nil
            guard let value = make(schema, plan: memberPlan, depth: depth + 1) else { return nil }
            members[name] = value
        }
        if let target {
            switch target.step {
            case .key(let key): if members[key] == nil { return nil }
            case .member: if extra == 0 { return nil }
            case .index, .element: return nil
            }
        }
        return .object(members)
    }

    /// A key not among `properties` and `members`, that the `propertyNames` schema takes.
    private mutating func memberName(
        _ keywords: [String: JSONValue], avoiding members: [String: JSONValue], properties: [String: JSONValue],
        index: Int
    ) -> String? {
        for attempt in 0..<16 {
            let name: String?
            if let names = keywords["propertyNames"] {
                name = make(names, plan: nil, depth: 40)?.stringValue
            } else {
                name = attempt == 0 && index == 0 ? "unlisted" : "unlisted\(index)_\(attempt)"
            }
            if let name, members[name] == nil, properties[name] == nil { return name }
        }
        return nil
    }
}
