import Foundation

/// Numbers and strings.
extension SchemaComparison {
    /// A bound of a number: its value and whether it is exclusive.
    struct Bound {
        let value: JSONNumber
        let exclusive: Bool

        var text: String { exclusive ? "\(value) (exclusive)" : "\(value)" }
    }

    /// `minimum`/`exclusiveMinimum`, `maximum`/`exclusiveMaximum`, `multipleOf`.
    func compareNumbers(
        _ oldKeywords: [String: JSONValue], _ newKeywords: [String: JSONValue], _ old: JSONValue, _ new: JSONValue
    ) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        for lower in [true, false] {
            let name = lower ? "minimum" : "maximum"
            let oldBound = SchemaComparison.bound(oldKeywords, lower: lower)
            let newBound = SchemaComparison.bound(newKeywords, lower: lower)
            // Positive when the new bound takes fewer values.
            let tighter: Int
            switch (oldBound, newBound) {
            case (nil, nil):
                continue
            case (nil, let added?):
                changes.append(
                    SchemaChange(
                        .narrowed, "\(name) added: \(added.text)", witness: .values(Self.outside(added, lower: lower)),
                        old: old, new: new))
                continue
            case (let removed?, nil):
                changes.append(SchemaChange(.widened, "\(name) removed (was \(removed.text))", old: old, new: new))
                continue
            case (let before?, let after?):
                let order = SchemaValidator.compare(after.value, before.value) * (lower ? 1 : -1)
                tighter = order != 0 ? order : (after.exclusive == before.exclusive ? 0 : (after.exclusive ? 1 : -1))
                if tighter > 0 {
                    changes.append(
                        SchemaChange(
                            .narrowed, "\(name) narrowed from \(before.text) to \(after.text)",
                            witness: .values(
                                Self.outside(after, lower: lower)
                                    + [before.value].filter { _ in !before.exclusive }.map(JSONValue.number)),
                            old: old, new: new))
                } else if tighter < 0 {
                    changes.append(
                        SchemaChange(
                            .widened, "\(name) widened from \(before.text) to \(after.text)", old: old, new: new))
                }
            }
        }
        let oldStep = oldKeywords["multipleOf"]?.numberValue
        let newStep = newKeywords["multipleOf"]?.numberValue
        switch (oldStep, newStep) {
        case (nil, let added?):
            changes.append(SchemaChange(.narrowed, "multipleOf added: \(added)", witness: .search, old: old, new: new))
        case (let removed?, nil):
            changes.append(SchemaChange(.widened, "multipleOf removed (was \(removed))", old: old, new: new))
        case (let before?, let after?) where SchemaValidator.compare(before, after) != 0:
            if SchemaValidator.isMultiple(after, of: before) {
                changes.append(
                    SchemaChange(
                        .narrowed, "multipleOf narrowed from \(before) to \(after)",
                        witness: .values([.number(before)]),
                        old: old, new: new))
            } else if SchemaValidator.isMultiple(before, of: after) {
                changes.append(
                    SchemaChange(.widened, "multipleOf widened from \(before) to \(after)", old: old, new: new))
            } else {
                changes.append(
                    SchemaChange(
                        .changed, "multipleOf changed from \(before) to \(after)", witness: .values([.number(before)]),
                        old: old, new: new))
            }
        default:
            break
        }
        return changes
    }

    /// The tighter of `minimum` and `exclusiveMinimum` (or of the maxima), `nil` when neither is set.
    /// A Boolean `exclusiveMinimum` (draft 4) makes `minimum` exclusive.
    static func bound(_ keywords: [String: JSONValue], lower: Bool) -> Bound? {
        let inclusive = keywords[lower ? "minimum" : "maximum"]?.numberValue
        let exclusiveValue = keywords[lower ? "exclusiveMinimum" : "exclusiveMaximum"]
        var bounds: [Bound] = []
        if let inclusive { bounds.append(Bound(value: inclusive, exclusive: exclusiveValue == true)) }
        if let exclusive = exclusiveValue?.numberValue { bounds.append(Bound(value: exclusive, exclusive: true)) }
        return bounds.max { first, second in
            let order = SchemaValidator.compare(first.value, second.value) * (lower ? 1 : -1)
            return order != 0 ? order < 0 : (!first.exclusive && second.exclusive)
        }
    }

    /// Numbers just outside `bound` (refused by it): the bound itself when exclusive, else one
    /// and a half below a minimum (above a maximum).
    static func outside(_ bound: Bound, lower: Bool) -> [JSONValue] {
        var values: [JSONValue] = []
        if bound.exclusive { values.append(.number(bound.value)) }
        if let value = Decimal(string: bound.value.text, locale: nil), !value.isNaN, value.exponent < 64 {
            for step in [Decimal(1), Decimal(string: "0.5") ?? 1] {
                let next = lower ? value - step : value + step
                if let number = JSONNumber("\(next)") { values.append(.number(number)) }
            }
        }
        return values
    }

    /// `minLength`, `maxLength`, `pattern`, `format`, `contentEncoding`, `contentMediaType`.
    ///
    /// Whether one regular expression takes every string another takes is undecidable in
    /// general: a `pattern` (or `format`) that changed in any way counts as narrowed unless
    /// the two are the same text.
    func compareStrings(
        _ oldKeywords: [String: JSONValue], _ newKeywords: [String: JSONValue], _ old: JSONValue, _ new: JSONValue
    ) -> [SchemaChange] {
        var changes = compareCounts(
            "minLength", "maxLength", oldKeywords, newKeywords, old, new,
            minimumWitness: { .values([.string(String(repeating: "x", count: $0))]) },
            maximumWitness: { .values([.string(String(repeating: "x", count: $0))]) })
        for keyword in ["pattern", "format", "contentEncoding", "contentMediaType"] {
            let before = oldKeywords[keyword]
            let after = newKeywords[keyword]
            guard before != after else { continue }
            let undecidable =
                keyword == "pattern"
                ? "regex inclusion is undecidable, so a changed pattern counts as narrowed"
                : "a changed \(keyword) counts as narrowed"
            switch (before, after) {
            case (nil, let added?):
                changes.append(
                    SchemaChange(.narrowed, "\(keyword) added: \(added)", witness: .search, old: old, new: new))
            case (let removed?, nil):
                changes.append(SchemaChange(.widened, "\(keyword) removed (was \(removed))", old: old, new: new))
            case (let from?, let to?):
                changes.append(
                    SchemaChange(
                        .narrowed, "\(keyword) narrowed: changed from \(from) to \(to) (\(undecidable))",
                        witness: .search, old: old, new: new))
            case (nil, nil):
                break
            }
        }
        return changes
    }
}
