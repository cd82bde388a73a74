/// Compares two schemas structurally and lists their differences (``SchemaChange``), for
/// values travelling in one direction: what the page sends must stay accepted, what the app
/// sends must stay readable (see ``ContractDiff`` for the rules).
///
/// The comparison reads the keywords the deriver writes and those of hand-written schemas
/// of the same kind: `type`, `enum`, `const`, bounds, lengths, `pattern`, `format`,
/// `properties`, `required`, `additionalProperties`, `propertyNames`, `items`,
/// `prefixItems`, `anyOf`/`oneOf` (each branch matched with the branch that covers it),
/// `allOf` (branch by branch), and `$ref` into `$defs`. A pair of schemas reached through a
/// `$ref` is compared once: reached again while it is being compared (a recursive type), it
/// is taken as equal there, so recursion ends; its changes are kept and reported wherever
/// the pair recurs. A keyword it does not know that differs is reported as unknown.
final class SchemaComparison {
    /// Which way the compared values travel.
    let direction: ContractChange.Direction
    /// The old document's `$defs`.
    let oldDefinitions: [String: JSONValue]
    /// The new document's `$defs`.
    let newDefinitions: [String: JSONValue]

    private struct Pair: Hashable {
        let old: JSONValue
        let new: JSONValue
    }

    /// Pairs reached through a `$ref` that are being compared now.
    private var inProgress: Set<Pair> = []
    /// The changes of pairs reached through a `$ref`, once compared.
    private var known: [Pair: [SchemaChange]] = [:]

    /// The keywords compared; any other that differs is reported as unknown.
    static let comparedKeywords: Set<String> = [
        "type", "enum", "const", "anyOf", "oneOf", "allOf", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minLength", "maxLength", "pattern", "format", "contentEncoding",
        "contentMediaType", "items", "prefixItems", "minItems", "maxItems", "uniqueItems", "properties", "required",
        "additionalProperties", "propertyNames", "minProperties", "maxProperties",
    ]

    /// Creates a comparison.
    /// - Parameters:
    ///   - direction: which way the values travel.
    ///   - oldDefinitions: the old document's `$defs`.
    ///   - newDefinitions: the new document's `$defs`.
    init(
        direction: ContractChange.Direction, oldDefinitions: [String: JSONValue], newDefinitions: [String: JSONValue]
    ) {
        self.direction = direction
        self.oldDefinitions = oldDefinitions
        self.newDefinitions = newDefinitions
    }

    /// The differences between `old` and `new`, with paths from them.
    func compare(_ old: JSONValue, _ new: JSONValue, depth: Int = 0) -> [SchemaChange] {
        if old == new && !old.containsKey("$ref") && !old.containsKey(ContractKeyword.underivable) { return [] }
        if depth > 256 || StackRoom.isShort(depth: depth) {
            return [SchemaChange(.unknown, "nested too deep to compare", old: old, new: new)]
        }
        let oldNode = SchemaNode(old, definitions: oldDefinitions)
        let newNode = SchemaNode(new, definitions: newDefinitions)
        let pair = Pair(old: old, new: new)
        let tracked = oldNode.followedReference || newNode.followedReference
        if tracked {
            if let changes = known[pair] { return changes }
            if inProgress.contains(pair) { return [] }
            inProgress.insert(pair)
        }
        let changes = compare(oldNode, newNode, old: old, new: new, depth: depth)
        if tracked {
            inProgress.remove(pair)
            known[pair] = changes
        }
        return changes
    }

    private func compare(
        _ oldNode: SchemaNode, _ newNode: SchemaNode, old: JSONValue, new: JSONValue, depth: Int
    ) -> [SchemaChange] {
        switch (oldNode.shape, newNode.shape) {
        case (.underivable(let reason), .underivable):
            return [
                SchemaChange(.unknown, "underivable in both contracts, not comparable: \(reason)", old: old, new: new)
            ]
        case (.underivable(let reason), _):
            return [
                SchemaChange(.unknown, "underivable in the old contract, not comparable: \(reason)", old: old, new: new)
            ]
        case (_, .underivable(let reason)):
            return [
                SchemaChange(.unknown, "underivable in the new contract, not comparable: \(reason)", old: old, new: new)
            ]
        case (.unreadable(let reason), _), (_, .unreadable(let reason)):
            return [SchemaChange(.unknown, "not compared: \(reason)", old: old, new: new)]
        case (.never, .never):
            return []
        case (.never, _):
            return [SchemaChange(.widened, "accepts values now (the old schema was false: none)", old: old, new: new)]
        case (_, .never):
            return [
                SchemaChange(.narrowed, "accepts no value any more (false)", witness: .search, old: old, new: new)
            ]
        case (.keywords(let oldKeywords), .keywords(let newKeywords)):
            if let changes = compareComposition(oldNode, newNode, oldKeywords, newKeywords, old, new, depth) {
                return changes
            }
            if let changes = compareListedValues(oldNode, newNode, old, new) { return changes }
            var changes = compareTypes(oldNode, newNode, old, new)
            let both = oldNode.types.intersection(newNode.types)
            if both.contains("integer") || both.contains("number") {
                changes += compareNumbers(oldKeywords, newKeywords, old, new)
            }
            if both.contains("string") { changes += compareStrings(oldKeywords, newKeywords, old, new) }
            if both.contains("array") { changes += compareArrays(oldKeywords, newKeywords, old, new, depth) }
            if both.contains("object") { changes += compareObjects(oldKeywords, newKeywords, old, new, depth) }
            for keyword in Set(oldKeywords.keys).union(newKeywords.keys).sorted()
            where !SchemaComparison.comparedKeywords.contains(keyword) && oldKeywords[keyword] != newKeywords[keyword] {
                changes.append(SchemaChange(.unknown, "keyword \(keyword) changed, not compared", old: old, new: new))
            }
            return changes
        }
    }

    // MARK: anyOf, oneOf, allOf

    /// The changes of `anyOf`/`oneOf`/`allOf` schemas, or `nil` when neither side has one.
    private func compareComposition(
        _ oldNode: SchemaNode, _ newNode: SchemaNode, _ oldKeywords: [String: JSONValue],
        _ newKeywords: [String: JSONValue], _ old: JSONValue, _ new: JSONValue, _ depth: Int
    ) -> [SchemaChange]? {
        let oldBranches = (oldKeywords["anyOf"] ?? oldKeywords["oneOf"])?.arrayValue
        let newBranches = (newKeywords["anyOf"] ?? newKeywords["oneOf"])?.arrayValue
        let oldParts = oldKeywords["allOf"]?.arrayValue
        let newParts = newKeywords["allOf"]?.arrayValue
        if oldBranches == nil && newBranches == nil && oldParts == nil && newParts == nil { return nil }
        let composite: Set<String> = ["anyOf", "oneOf", "allOf"]
        let oldAlone = oldKeywords.keys.allSatisfy { composite.contains($0) } && oldKeywords.count == 1
        let newAlone = newKeywords.keys.allSatisfy { composite.contains($0) } && newKeywords.count == 1
        if (oldBranches != nil || oldParts != nil) && !oldAlone || (newBranches != nil || newParts != nil) && !newAlone
        {
            return [
                SchemaChange(.unknown, "anyOf, oneOf or allOf beside other keywords, not compared", old: old, new: new)
            ]
        }
        if oldParts != nil || newParts != nil {
            guard let oldParts, let newParts, oldParts.count == newParts.count else {
                return [SchemaChange(.unknown, "allOf changed, not compared", old: old, new: new)]
            }
            return zip(oldParts, newParts).flatMap { compare($0, $1, depth: depth + 1) }
        }
        func withNull(_ branches: [JSONValue], _ node: SchemaNode) -> [JSONValue] {
            node.nullable ? branches + [["type": "null"]] : branches
        }
        let olds = oldBranches.map { withNull($0, oldNode) } ?? [old]
        let news = newBranches.map { withNull($0, newNode) } ?? [new]
        return compareBranches(olds, news, old: old, new: new, depth: depth)
    }

    /// Matches each branch that must stay covered (the old ones for what the page sends, the new
    /// ones for what the app sends) with the branch of the other side that covers it best.
    private func compareBranches(
        _ olds: [JSONValue], _ news: [JSONValue], old: JSONValue, new: JSONValue, depth: Int
    ) -> [SchemaChange] {
        let covered = direction == .pageToApp ? olds : news
        let covering = direction == .pageToApp ? news : olds
        var used: Set<Int> = []
        var changes: [SchemaChange] = []
        for (index, branch) in covered.enumerated() {
            var best: (index: Int, changes: [SchemaChange], bad: Int)?
            for (candidate, other) in covering.enumerated() {
                let found =
                    direction == .pageToApp
                    ? compare(branch, other, depth: depth + 1) : compare(other, branch, depth: depth + 1)
                let bad = found.filter { $0.effect.severity(in: direction) != .compatible }.count
                let better: Bool
                if let best {
                    better =
                        bad < best.bad
                        || (bad == best.bad
                            && (found.count < best.changes.count
                                || (found.count == best.changes.count && candidate == index)))
                } else {
                    better = true
                }
                if better { best = (candidate, found, bad) }
            }
            guard let best else { continue }
            used.insert(best.index)
            let label = direction == .pageToApp ? "old" : "new"
            changes += best.changes.map { change in
                var change = change
                if covered.count > 1 { change.text = "anyOf (\(label) branch \(index)): " + change.text }
                return change
            }
        }
        for (index, _) in covering.enumerated() where !used.contains(index) {
            let text =
                direction == .pageToApp
                ? "anyOf: a new alternative is accepted (new branch \(index))"
                : "anyOf: an alternative is no longer produced (old branch \(index))"
            changes.append(SchemaChange(direction == .pageToApp ? .widened : .narrowed, text, old: old, new: new))
        }
        return changes
    }

    // MARK: type, enum, const

    private func compareTypes(_ oldNode: SchemaNode, _ newNode: SchemaNode, _ old: JSONValue, _ new: JSONValue)
        -> [SchemaChange]
    {
        let oldTypes = oldNode.types
        let newTypes = newNode.types
        let removed = oldTypes.subtracting(newTypes)
        let added = newTypes.subtracting(oldTypes)
        if removed.isEmpty && added.isEmpty { return [] }
        let from = SchemaComparison.describe(types: oldTypes)
        let to = SchemaComparison.describe(types: newTypes)
        let witness = SchemaChange.Witness.ofTypes(SchemaNode.allTypes.filter { removed.contains($0) })
        if added.isEmpty {
            return [
                SchemaChange(.narrowed, "type narrowed from \(from) to \(to)", witness: witness, old: old, new: new)
            ]
        }
        if removed.isEmpty {
            return [SchemaChange(.widened, "type widened from \(from) to \(to)", old: old, new: new)]
        }
        return [SchemaChange(.changed, "type changed from \(from) to \(to)", witness: witness, old: old, new: new)]
    }

    /// Where a side lists its values (`enum`, `const`), the exact difference: each listed value
    /// is checked against the other side's whole schema with ``SchemaValidator``, so that a
    /// keyword that refuses none of them (a `minLength` every case meets) is no change.
    private func compareListedValues(
        _ oldNode: SchemaNode, _ newNode: SchemaNode, _ old: JSONValue, _ new: JSONValue
    ) -> [SchemaChange]? {
        let oldValues = oldNode.allowedValues
        let newValues = newNode.allowedValues
        guard oldValues != nil || newValues != nil else { return nil }
        let oldValidator = SchemaValidator(definitions: oldDefinitions)
        let newValidator = SchemaValidator(definitions: newDefinitions)
        let refused = oldValues?.filter { newValidator.problem($0, new) != nil } ?? []
        let admitted = newValues?.filter { oldValidator.problem($0, old) != nil } ?? []
        let gone = "\(JSONValue.array(refused)) no longer accepted"
        switch (oldValues, newValues) {
        case (let listed?, nil):
            let text = "enum removed (was \(JSONValue.array(listed)))"
            if refused.isEmpty { return [SchemaChange(.widened, text, old: old, new: new)] }
            return [SchemaChange(.changed, "\(text); \(gone)", witness: .values(refused), old: old, new: new)]
        case (nil, let listed?):
            let text = "enum added: only \(JSONValue.array(listed)) accepted"
            if admitted.isEmpty { return [SchemaChange(.narrowed, text, witness: .search, old: old, new: new)] }
            return [
                SchemaChange(
                    .changed, "\(text); \(JSONValue.array(admitted)) added", witness: .search, old: old, new: new)
            ]
        default:
            let added = "\(JSONValue.array(admitted)) added"
            switch (refused.isEmpty, admitted.isEmpty) {
            case (true, true): return []
            case (false, true):
                return [
                    SchemaChange(.narrowed, "enum narrowed: \(gone)", witness: .values(refused), old: old, new: new)
                ]
            case (true, false): return [SchemaChange(.widened, "enum widened: \(added)", old: old, new: new)]
            case (false, false):
                return [
                    SchemaChange(
                        .changed, "enum changed: \(gone), \(added)", witness: .values(refused), old: old, new: new)
                ]
            }
        }
    }

    /// `"string"`, `["integer","null"]`, `any` for a set of types.
    static func describe(types: Set<String>) -> String {
        if types.count == SchemaNode.allTypes.count { return "any" }
        var names = SchemaNode.allTypes.filter { types.contains($0) }
        if names.contains("number") { names.removeAll { $0 == "integer" } }
        if names.count == 1 { return "\"\(names[0])\"" }
        return "[" + names.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }
}
