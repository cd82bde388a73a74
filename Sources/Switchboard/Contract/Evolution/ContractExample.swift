/// Finds a body that shows a breaking change to what the page sends: one the old schema
/// accepts and the new one refuses, both checked with ``SchemaValidator``.
///
/// It first builds the body around the change (``SchemaChange/Witness``: the old body
/// without the newly required key, a value beyond the new bound, a removed enum case, a
/// value of a removed type, …), in the smallest form and then from a few seeds; then it
/// tries bodies generated from the old schema at random. Deterministic: the same pair of
/// schemas gives the same example.
final class ContractExample {
    /// The old body (or reply) schema and its document's `$defs`.
    let old: JSONValue
    let oldDefinitions: [String: JSONValue]
    /// The new body schema and its document's `$defs`.
    let new: JSONValue
    let newDefinitions: [String: JSONValue]

    /// Whether a search made no body the old schema accepts (a schema no value satisfies):
    /// later searches give up at once.
    private var hopeless = false

    /// Creates a finder for one body or reply.
    init(old: JSONValue, oldDefinitions: [String: JSONValue], new: JSONValue, newDefinitions: [String: JSONValue]) {
        self.old = old
        self.oldDefinitions = oldDefinitions
        self.new = new
        self.newDefinitions = newDefinitions
    }

    /// How many seeds are tried around a change, and at random.
    static let seedsAroundChange = 12
    static let randomSeeds = 96
    /// How many schemas the search for one example may visit in all (a schema no value
    /// satisfies, a recursive one that requires itself, gives up here rather than late).
    static let visits = 50_000

    /// Whether a body the old schema accepts was made.
    private var madeValidBody = false

    /// Whether `body` is accepted by the old schema and refused by the new one.
    func shows(_ body: JSONValue) -> Bool {
        guard SchemaValidator(definitions: oldDefinitions).problem(body, old) == nil else { return false }
        madeValidBody = true
        return SchemaValidator(definitions: newDefinitions).problem(body, new) != nil
    }

    /// A body the old schema accepts and the new one refuses, found around `change`; `nil` when none was found.
    func find(around change: SchemaChange) -> JSONValue? {
        if hopeless { return nil }
        var visits = ContractExample.visits
        for directive in directives(for: change) {
            let plan = SchemaValueGenerator.Plan(path: change.node, directive: directive)
            for seed in 0..<UInt64(ContractExample.seedsAroundChange) where visits > 0 {
                var generator = SchemaValueGenerator(definitions: oldDefinitions, seed: seed, minimal: seed == 0)
                let body = generator.value(for: old, plan: plan)
                visits -= generator.visited
                if let body, shows(body) { return body }
            }
        }
        return findAtRandom(visits: visits)
    }

    /// A body the old schema accepts and the new one refuses, from bodies generated at random.
    func findAtRandom(visits: Int = ContractExample.visits) -> JSONValue? {
        var visits = visits
        for seed in 0..<UInt64(ContractExample.randomSeeds) where visits > 0 {
            var generator = SchemaValueGenerator(definitions: oldDefinitions, seed: seed, minimal: seed == 0)
            let body = generator.value(for: old)
            visits -= generator.visited
            if let body, shows(body) { return body }
        }
        if !madeValidBody { hopeless = true }
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
