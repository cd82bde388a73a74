import Foundation

/// Checks a ``JSONValue`` against the subset of JSON Schema 2020-12 that ``Contract``
/// emits (`type`, `properties`, `required`, `additionalProperties`, `propertyNames`, `items`,
/// `prefixItems`, `minItems`, `minLength`, `enum`, `const`, `minimum`, `maximum`,
/// `pattern`, `anyOf`, `allOf`, `$ref` into `$defs`), and the keywords a hand-written schema
/// or a ``ContractDiff`` compares (`maxItems`, `maxLength`, `exclusiveMinimum`,
/// `exclusiveMaximum`, `multipleOf`, `minProperties`, `maxProperties`, `oneOf`); annotations
/// (`format` included, as draft 2020-12 says by default) are ignored and an
/// underivable part accepts anything. Numbers are compared exactly (by their digits),
/// so `2.0` is an integer and `9223372036854775808` is above `Int64.max`.
///
/// Used by the agreement tests (a body the schema accepts decodes, and the reverse);
/// CI also cross-checks with an independent validator (`.ci/contract`).
package struct SchemaValidator {
    /// The schemas `$ref`s point at (`#/$defs/NAME`).
    package let definitions: [String: JSONValue]

    /// Creates a validator.
    /// - Parameter definitions: the contract's `$defs`.
    package init(definitions: [String: JSONValue] = [:]) {
        self.definitions = definitions
    }

    /// Creates a validator for the schemas of `contract`.
    /// - Parameter contract: the contract whose `$defs` to use.
    package init(_ contract: Contract) {
        self.init(definitions: contract.definitions.mapValues(\.json))
    }

    /// The first problem with `value` under `schema`, as a path and a reason; `nil` when it is valid.
    package func problem(_ value: JSONValue, _ schema: JSONValue, path: String = "body", depth: Int = 0) -> String? {
        guard case .object(let keywords) = schema else {
            return schema == .bool(false) ? "\(path): nothing is accepted" : nil
        }
        if depth > 256 || StackRoom.isShort(depth: depth) { return "\(path): schema too deep" }
        if keywords[ContractKeyword.underivable] != nil { return nil }
        if let reference = keywords["$ref"]?.stringValue {
            let name = reference.hasPrefix("#/$defs/") ? String(reference.dropFirst(8)) : reference
            guard let target = definitions[name] else { return "\(path): unknown $ref \(reference)" }
            if let problem = problem(value, target, path: path, depth: depth + 1) { return problem }
        }
        if let types = keywords["type"], !SchemaValidator.matches(value, types) {
            return "\(path): not of type \(types)"
        }
        if case .array(let values)? = keywords["enum"], !values.contains(where: { SchemaValidator.equal($0, value) }) {
            return "\(path): not one of \(JSONValue.array(values))"
        }
        if let constant = keywords["const"], !SchemaValidator.equal(constant, value) {
            return "\(path): not \(constant)"
        }
        if let problem = numberProblem(value, keywords, path) { return problem }
        if let problem = stringProblem(value, keywords, path) { return problem }
        if case .array(let parts)? = keywords["allOf"] {
            for part in parts {
                if let problem = problem(value, part, path: path, depth: depth + 1) { return problem }
            }
        }
        if case .array(let branches)? = keywords["anyOf"],
            !branches.contains(where: { problem(value, $0, path: path, depth: depth + 1) == nil })
        {
            return "\(path): matches no branch of anyOf"
        }
        if case .array(let branches)? = keywords["oneOf"] {
            let matching = branches.lazy.filter { problem(value, $0, path: path, depth: depth + 1) == nil }.prefix(2)
            if matching.count != 1 {
                return "\(path): matches \(matching.isEmpty ? "no" : "more than one") branch of oneOf"
            }
        }
        if case .object(let members) = value {
            return objectProblem(members, keywords, path, depth)
        }
        if case .array(let elements) = value {
            return arrayProblem(elements, keywords, path, depth)
        }
        return nil
    }

    private func objectProblem(
        _ members: [String: JSONValue], _ keywords: [String: JSONValue], _ path: String, _ depth: Int
    ) -> String? {
        for case .string(let key) in keywords["required"]?.arrayValue ?? [] where members[key] == nil {
            return "\(path).\(key): required"
        }
        if let minimum = keywords["minProperties"]?.intValue, members.count < minimum {
            return "\(path): fewer than \(minimum) members"
        }
        if let maximum = keywords["maxProperties"]?.intValue, members.count > maximum {
            return "\(path): more than \(maximum) members"
        }
        let properties = keywords["properties"]?.objectValue ?? [:]
        let names = keywords["propertyNames"]
        for (key, member) in members.sorted(by: { $0.key < $1.key }) {
            if let names,
                let problem = problem(
                    .string(key), names, path: "\(path) key \(String(reflecting: key))", depth: depth + 1)
            {
                return problem
            }
            if let schema = properties[key] {
                if let problem = problem(member, schema, path: "\(path).\(key)", depth: depth + 1) { return problem }
            } else if let additional = keywords["additionalProperties"] {
                if let problem = problem(member, additional, path: "\(path).\(key)", depth: depth + 1) {
                    return problem
                }
            }
        }
        return nil
    }

    private func arrayProblem(
        _ elements: [JSONValue], _ keywords: [String: JSONValue], _ path: String, _ depth: Int
    ) -> String? {
        if let minimum = keywords["minItems"]?.intValue, elements.count < minimum {
            return "\(path): fewer than \(minimum) elements"
        }
        if let maximum = keywords["maxItems"]?.intValue, elements.count > maximum {
            return "\(path): more than \(maximum) elements"
        }
        let prefix = keywords["prefixItems"]?.arrayValue ?? []
        for (index, element) in elements.enumerated() {
            let schema = index < prefix.count ? prefix[index] : keywords["items"]
            guard let schema else { continue }
            if let problem = problem(element, schema, path: "\(path)[\(index)]", depth: depth + 1) { return problem }
        }
        return nil
    }

    private func numberProblem(_ value: JSONValue, _ keywords: [String: JSONValue], _ path: String) -> String? {
        guard case .number(let number) = value else { return nil }
        if let minimum = keywords["minimum"]?.numberValue, SchemaValidator.compare(number, minimum) < 0 {
            return "\(path): below \(minimum)"
        }
        if let maximum = keywords["maximum"]?.numberValue, SchemaValidator.compare(number, maximum) > 0 {
            return "\(path): above \(maximum)"
        }
        if let minimum = keywords["exclusiveMinimum"]?.numberValue, SchemaValidator.compare(number, minimum) <= 0 {
            return "\(path): not above \(minimum)"
        }
        if let maximum = keywords["exclusiveMaximum"]?.numberValue, SchemaValidator.compare(number, maximum) >= 0 {
            return "\(path): not below \(maximum)"
        }
        if let divisor = keywords["multipleOf"]?.numberValue, !SchemaValidator.isMultiple(number, of: divisor) {
            return "\(path): not a multiple of \(divisor)"
        }
        return nil
    }

    private func stringProblem(_ value: JSONValue, _ keywords: [String: JSONValue], _ path: String) -> String? {
        guard case .string(let string) = value else { return nil }
        if let minimum = keywords["minLength"]?.intValue, string.unicodeScalars.count < minimum {
            return "\(path): shorter than \(minimum)"
        }
        if let maximum = keywords["maxLength"]?.intValue, string.unicodeScalars.count > maximum {
            return "\(path): longer than \(maximum)"
        }
        if let pattern = keywords["pattern"]?.stringValue {
            guard let expression = try? NSRegularExpression(pattern: SchemaValidator.ecmaPattern(pattern)) else {
                return "\(path): bad pattern \(pattern)"
            }
            let range = NSRange(string.startIndex..., in: string)
            if expression.firstMatch(in: string, range: range) == nil { return "\(path): does not match \(pattern)" }
        }
        return nil
    }

    /// `pattern` with ECMA-262's `$`, as JSON Schema means it: the end of the text. (ICU's `$`,
    /// `NSRegularExpression`'s, also matches before a final line break: `"AQID\n"` would match.)
    static func ecmaPattern(_ pattern: String) -> String {
        var result = ""
        var escaped = false
        var inClass = false
        // By scalar: a `$` or `\` followed by a combining mark is one `Character` with it.
        for scalar in pattern.unicodeScalars {
            if escaped {
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if inClass {
                inClass = scalar != "]"
            } else if scalar == "[" {
                inClass = true
            } else if scalar == "$" {
                result += "(?![\\s\\S])"
                continue
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    private static func matches(_ value: JSONValue, _ types: JSONValue) -> Bool {
        switch types {
        case .string(let name): return matches(value, name)
        case .array(let names): return names.contains { $0.stringValue.map { matches(value, $0) } ?? false }
        default: return true
        }
    }

    private static func matches(_ value: JSONValue, _ type: String) -> Bool {
        switch (value, type) {
        case (.null, "null"), (.bool, "boolean"), (.string, "string"), (.array, "array"), (.object, "object"),
            (.number, "number"):
            return true
        case (.number(let number), "integer"):
            return isIntegral(number)
        default:
            return false
        }
    }

    /// Whether the number has no fraction (`2.0`, `1e2`, `1e400` do; `2.5` does not).
    static func isIntegral(_ number: JSONNumber) -> Bool {
        let text = number.text.lowercased()
        let parts = text.split(separator: "e", maxSplits: 1)
        let mantissa = parts.first.map(String.init) ?? text
        // An exponent too long for `Int` saturates by its sign (it is beyond every digit count).
        let exponentText = parts.count > 1 ? parts[1] : "0"
        let exponent = max(
            -1_000_000_000, min(Int(exponentText) ?? (exponentText.hasPrefix("-") ? Int.min : Int.max), 1_000_000_000))
        let pieces = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let fraction = pieces.count > 1 ? pieces[1] : ""
        let digits = (pieces.first.map(String.init) ?? "").filter(\.isNumber) + fraction
        let trailingZeros = digits.reversed().prefix(while: { $0 == "0" }).count
        if trailingZeros == digits.count { return true }
        return exponent - fraction.count + trailingZeros >= 0
    }

    /// Whether `number` is an integral multiple of `divisor` (a positive number), by value:
    /// exactly where `Decimal` holds both, else in `Double`.
    static func isMultiple(_ number: JSONNumber, of divisor: JSONNumber) -> Bool {
        if let value = Decimal(string: number.text, locale: nil), let step = Decimal(string: divisor.text, locale: nil),
            !value.isNaN, !step.isNaN, !step.isZero
        {
            var quotient = value / step
            var whole = Decimal()
            NSDecimalRound(&whole, &quotient, 0, .down)
            return whole == quotient
        }
        guard let value = Double(number.text), let step = Double(divisor.text), step > 0 else { return false }
        let quotient = value / step
        return quotient.isFinite && quotient.rounded(.towardZero) == quotient
    }

    /// -1, 0 or 1 as `lhs` is below, equal to or above `rhs`, by value.
    static func compare(_ lhs: JSONNumber, _ rhs: JSONNumber) -> Int {
        if let left = Decimal(string: lhs.text, locale: nil), let right = Decimal(string: rhs.text, locale: nil),
            !left.isNaN, !right.isNaN
        {
            return left < right ? -1 : (left == right ? 0 : 1)
        }
        let left = Double(lhs.text) ?? 0
        let right = Double(rhs.text) ?? 0
        return left < right ? -1 : (left == right ? 0 : 1)
    }

    /// JSON Schema equality: numbers by value, objects and arrays member by member.
    /// Compares with a stack of its own, not by recursion (a `const` may nest any number of levels).
    static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        lhs.equals(rhs) { compare($0, $1) == 0 }
    }
}
