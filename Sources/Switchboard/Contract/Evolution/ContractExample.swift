/// Finds a body that shows a breaking change to what the page sends: one the old schema
/// accepts and the new one refuses, both checked with ``SchemaValidator``.
///
/// It first builds the body around the change (``SchemaChange/Witness``: the old body
/// without the newly required key, a value beyond the new bound, a removed enum case, a
/// value of a removed type, …), in the smallest form and then from a few seeds; then it
/// tries bodies generated from the old schema at random. Deterministic: the same pair of
/// schemas gives the same example.
struct ContractExample {
    /// The old body (or reply) schema and its document's `$defs`.
    let old: JSONValue
    let oldDefinitions: [String: JSONValue]
    /// The new body schema and its document's `$defs`.
    let new: JSONValue
    let newDefinitions: [String: JSONValue]

    /// How many seeds are tried around a change, and at random.
    static let seedsAroundChange = 12
    static let randomSeeds = 160

    /// Whether `body` is accepted by the old schema and refused by the new one.
    func shows(_ body: JSONValue) -> Bool {
        SchemaValidator(definitions: oldDefinitions).problem(body, old) == nil
            && SchemaValidator(definitions: newDefinitions).problem(body, new) != nil
    }

    /// A body the old schema accepts and the new one refuses, found around `change`; `nil` when none was found.
    func find(around change: SchemaChange) -> JSONValue? {
        for directive in directives(for: change) {
            let plan = SchemaValueGenerator.Plan(path: change.node, directive: directive)
            for seed in 0..<UInt64(ContractExample.seedsAroundChange) {
                var generator = SchemaValueGenerator(definitions: oldDefinitions, seed: seed, minimal: seed == 0)
                if let body = generator.value(for: old, plan: plan), shows(body) { return body }
            }
        }
        return findAtRandom()
    }

    /// A body the old schema accepts and the new one refuses, from bodies generated at random.
    func findAtRandom() -> JSONValue? {
        for seed in 0..<UInt64(ContractExample.randomSeeds) {
            var generator = SchemaValueGenerator(definitions: oldDefinitions, seed: seed, minimal: seed == 0)
            if let body = generator.value(for: old), shows(body) { return body }
        }
        return nil
    }

    private func directives(for change: SchemaChange) -> [SchemaValueGenerator.Directive] {
        switch change.witness {
        case .values(let values)?: values.map { .value($0) } + [.any]
        case .withoutKey(let key)?: [.without(key)]
        case .withKey(let key)?: [.with(key)]
        case .extraMember?: [.extraMember]
        case .ofTypes(let types)?:
            types.map { .type($0) } + (types.contains("number") ? [.value(0.5), .value(1.5)] : [])
        case .lengths(let counts)?: counts.map { .count($0) }
        case .search?, nil: [.any]
        }
    }
}
