/// Objects and arrays.
extension SchemaComparison {
    /// `properties`, `required`, `additionalProperties`, `propertyNames`, `minProperties`, `maxProperties`.
    ///
    /// A page sends the keys its contract lists, so a new optional key is compatible for what
    /// the page sends even where the old schema left other keys open; an app sends the keys
    /// its contract lists, so a key that leaves a reply is one the app stops sending.
    func compareObjects(
        _ oldKeywords: [String: JSONValue], _ newKeywords: [String: JSONValue], _ old: JSONValue, _ new: JSONValue,
        _ depth: Int
    ) -> [SchemaChange] {
        let oldProperties = oldKeywords["properties"]?.objectValue ?? [:]
        let newProperties = newKeywords["properties"]?.objectValue ?? [:]
        let oldRequired = Set((oldKeywords["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        let newRequired = Set((newKeywords["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        let oldOthers = oldKeywords["additionalProperties"] ?? true
        let newOthers = newKeywords["additionalProperties"] ?? true
        let pageSends = direction == .pageToApp
        var changes: [SchemaChange] = []
        func change(_ effect: SchemaChange.Effect, _ text: String, _ key: String, _ witness: SchemaChange.Witness?) {
            changes.append(SchemaChange(effect, text, witness: witness, at: [.key(key)], old: old, new: new))
        }
        func below(_ key: String, _ oldSchema: JSONValue, _ newSchema: JSONValue) {
            changes += compare(oldSchema, newSchema, depth: depth + 1).map { $0.below(.key(key)) }
        }
        let keys = Set(oldProperties.keys).union(newProperties.keys).union(oldRequired).union(newRequired)
        for key in keys.sorted() {
            let inOld = oldProperties[key] != nil || oldRequired.contains(key)
            let inNew = newProperties[key] != nil || newRequired.contains(key)
            let oldSchema = oldProperties[key] ?? oldOthers
            let newSchema = newProperties[key] ?? newOthers
            let wasRequired = oldRequired.contains(key)
            let isRequired = newRequired.contains(key)
            switch (inOld, inNew) {
            case (true, true):
                if !wasRequired && isRequired {
                    change(.narrowed, pageSends ? "key newly required" : "key now always sent", key, .withoutKey(key))
                } else if wasRequired && !isRequired {
                    change(
                        .widened,
                        pageSends ? "requirement dropped: key now optional" : "key made optional: may be left out",
                        key, nil)
                }
                below(key, oldSchema, newSchema)
            case (true, false):
                if pageSends {
                    if newOthers == false {
                        change(.narrowed, "key no longer accepted (additionalProperties is false)", key, .withKey(key))
                    } else {
                        change(
                            .widened, "\(wasRequired ? "required" : "optional") key removed: no longer read", key, nil)
                        if newOthers.objectValue != nil { below(key, oldSchema, newOthers) }
                    }
                } else {
                    if wasRequired {
                        change(.widened, "required key removed: no longer sent", key, nil)
                    } else {
                        change(.narrowed, "optional key removed: no longer sent", key, nil)
                    }
                    if newOthers.objectValue != nil { below(key, oldSchema, newOthers) }
                }
            case (false, true):
                if pageSends {
                    if isRequired {
                        change(.narrowed, "new required key", key, .withoutKey(key))
                    } else {
                        change(.widened, "new optional key", key, nil)
                    }
                    if oldOthers.objectValue != nil { below(key, oldOthers, newSchema) }
                } else {
                    if oldOthers == false {
                        change(.widened, "new key, refused by the old schema (additionalProperties is false)", key, nil)
                    } else {
                        change(.narrowed, isRequired ? "new key, always sent" : "new optional key", key, nil)
                        if oldOthers.objectValue != nil { below(key, oldOthers, newSchema) }
                    }
                }
            case (false, false):
                break
            }
        }
        changes += compareOthers(oldOthers, newOthers, old, new, depth)
        let oldNames = oldKeywords["propertyNames"] ?? true
        let newNames = newKeywords["propertyNames"] ?? true
        changes += compare(oldNames, newNames, depth: depth + 1).map { change in
            var change = change
            change.text = "key names: " + change.text
            change.path = []
            change.node = []
            change.witness = change.witness == nil ? nil : .search
            change.oldSchema = old
            change.newSchema = new
            return change
        }
        changes += compareCounts(
            "minProperties", "maxProperties", oldKeywords, newKeywords, old, new, minimumWitness: { _ in .search },
            maximumWitness: { _ in .search })
        return changes
    }

    /// `additionalProperties`: the members not listed.
    private func compareOthers(
        _ oldOthers: JSONValue, _ newOthers: JSONValue, _ old: JSONValue, _ new: JSONValue, _ depth: Int
    ) -> [SchemaChange] {
        switch (oldOthers == false, newOthers == false) {
        case (true, true):
            return []
        case (false, true):
            return [
                SchemaChange(
                    .narrowed, "additionalProperties closed: keys not listed are refused", witness: .extraMember,
                    old: old, new: new)
            ]
        case (true, false):
            return [
                SchemaChange(.widened, "additionalProperties opened: keys not listed are accepted", old: old, new: new)
            ]
        case (false, false):
            return compare(oldOthers, newOthers, depth: depth + 1).map { $0.below(.member) }
        }
    }

    /// `items`, `prefixItems`, `minItems`, `maxItems`, `uniqueItems`.
    func compareArrays(
        _ oldKeywords: [String: JSONValue], _ newKeywords: [String: JSONValue], _ old: JSONValue, _ new: JSONValue,
        _ depth: Int
    ) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        let oldPrefix = oldKeywords["prefixItems"]?.arrayValue ?? []
        let newPrefix = newKeywords["prefixItems"]?.arrayValue ?? []
        let oldItems = oldKeywords["items"] ?? true
        let newItems = newKeywords["items"] ?? true
        for index in 0..<max(oldPrefix.count, newPrefix.count) {
            let oldElement = index < oldPrefix.count ? oldPrefix[index] : oldItems
            let newElement = index < newPrefix.count ? newPrefix[index] : newItems
            changes += compare(oldElement, newElement, depth: depth + 1).map { $0.below(.index(index)) }
        }
        changes += compare(oldItems, newItems, depth: depth + 1).map { $0.below(.element) }
        changes += compareCounts(
            "minItems", "maxItems", oldKeywords, newKeywords, old, new, minimumWitness: { .lengths([$0]) },
            maximumWitness: { .lengths([$0]) })
        let oldUnique = oldKeywords["uniqueItems"] == true
        let newUnique = newKeywords["uniqueItems"] == true
        if !oldUnique && newUnique {
            changes.append(
                SchemaChange(
                    .narrowed, "uniqueItems added: repeated elements refused", witness: .lengths([2]), old: old,
                    new: new))
        } else if oldUnique && !newUnique {
            changes.append(
                SchemaChange(.widened, "uniqueItems removed: repeated elements accepted", old: old, new: new))
        }
        return changes
    }

    /// A lower and an upper count (`minItems`/`maxItems`, `minLength`/`maxLength`, …): the lower
    /// one absent is 0, the upper one absent is unbounded. The witnesses are made of a count the
    /// old schema takes and the new one refuses.
    func compareCounts(
        _ lower: String, _ upper: String, _ oldKeywords: [String: JSONValue], _ newKeywords: [String: JSONValue],
        _ old: JSONValue, _ new: JSONValue, minimumWitness: (Int) -> SchemaChange.Witness,
        maximumWitness: (Int) -> SchemaChange.Witness
    ) -> [SchemaChange] {
        var changes: [SchemaChange] = []
        let oldLower = oldKeywords[lower]?.intValue ?? 0
        let newLower = newKeywords[lower]?.intValue ?? 0
        if newLower > oldLower {
            let text =
                oldKeywords[lower] == nil
                ? "\(lower) added: \(newLower)" : "\(lower) narrowed from \(oldLower) to \(newLower)"
            changes.append(SchemaChange(.narrowed, text, witness: minimumWitness(oldLower), old: old, new: new))
        } else if newLower < oldLower {
            let text =
                newKeywords[lower] == nil
                ? "\(lower) removed (was \(oldLower))" : "\(lower) widened from \(oldLower) to \(newLower)"
            changes.append(SchemaChange(.widened, text, old: old, new: new))
        }
        let oldUpper = oldKeywords[upper]?.intValue
        let newUpper = newKeywords[upper]?.intValue
        switch (oldUpper, newUpper) {
        case (nil, let added?):
            changes.append(
                SchemaChange(
                    .narrowed, "\(upper) added: \(added)", witness: maximumWitness(added + 1), old: old, new: new))
        case (let removed?, nil):
            changes.append(SchemaChange(.widened, "\(upper) removed (was \(removed))", old: old, new: new))
        case (let before?, let after?) where after < before:
            changes.append(
                SchemaChange(
                    .narrowed, "\(upper) narrowed from \(before) to \(after)", witness: maximumWitness(after + 1),
                    old: old, new: new))
        case (let before?, let after?) where after > before:
            changes.append(SchemaChange(.widened, "\(upper) widened from \(before) to \(after)", old: old, new: new))
        default:
            break
        }
        return changes
    }
}
