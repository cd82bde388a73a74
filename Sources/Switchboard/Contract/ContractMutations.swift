/// Bodies near a valid one, for the agreement tests between a ``Contract`` and the
/// decoder: every member and element (a few levels down) removed, set to `null`,
/// swapped for a value of each other kind and for numbers at the edges the decoder
/// checks (`2.0`, `2.5`, `300`, `-1`, beyond `Int64`), arrays emptied or given a stray
/// element, and an unknown key added to every object.
package enum ContractMutations {
    /// One step into a value: a member's key or an element's index.
    enum Step {
        case key(String)
        case index(Int)
    }

    /// The values a member or element is replaced with.
    package static let replacements: [JSONValue] = [
        .null, "", "1", "x", 0, 1, -1, .number(JSONNumber("2.0")!), 2.5, 300, 70_000, .number(JSONNumber("1e30")!),
        .number(JSONNumber("9223372036854775808")!), .number(JSONNumber("-9223372036854775809")!),
        .number(JSONNumber("18446744073709551616")!), true, false, [], [:], ["x"], [1], ["k": "v"],
        .number(JSONNumber("1e39")!), "2024-01-02T03:04:05Z", "2024-01-02T03:04:05.250+01:00", "2024-01-02",
        "2024-13-02T03:04:05Z", "2024-01-02t03:04:05z", "2024-01-02T03:04:05+0100", "2024-02-30T03:04:05Z",
        "2023-02-29T03:04:05Z", "2024-04-31T00:00:00Z",
        "2024-01-02T24:00:00Z", "2024-01-02T23:59:60Z", "2024-01-02T03:04:05.Z", "2024-01-02T03:04:05+01",
        "2024-01-02T24:00:00.000Z", "2024-01-02T03:04:05+24:00", "2024-01-02T03:04:05+1", "2024-01-02T03:04:05-12:30",
        "2024-01-02T03:04:05+1:30", "2024-01-02T03:04:05+130", "AQID", "AQI", "AQI=",
        "00000000-0000-0000-0000-000000000001", "small", "huge",
        // Spellings and texts at the edges of what the decoder's readers take.
        .number(JSONNumber("0e200")!), .number(JSONNumber("-0.0e-300")!), .number(JSONNumber("1e128")!),
        .number(JSONNumber("1e170")!), "AQID\n", "00000000-0000-0000-0000-000000000001\n",
        "2024-01-02T03:04:05.123456789Z", "2024-01-02T03:04:05.1234567891Z", "2024-01-02T03:04:05+23:59",
        "2024-01-02T03:04:05-18:00", "2024-01-02T03:04:05+18:30", "2024-01-02T03:04:05+230",
    ]

    /// The bodies near `body` (not including `body` itself), at most `levels` deep.
    /// - Parameters:
    ///   - body: a body.
    ///   - levels: how deep to go into members and elements.
    /// - Returns: the mutated bodies, without repeats.
    package static func mutations(of body: JSONValue, levels: Int = 4) -> [JSONValue] {
        var results: [JSONValue] = []
        var seen: Set<JSONValue> = [body]
        func add(_ value: JSONValue) {
            if seen.insert(value).inserted { results.append(value) }
        }
        for replacement in replacements { add(replacement) }
        for path in paths(in: body, levels: levels) {
            guard let current = value(at: path, in: body) else { continue }
            if case .object(var members) = current {
                members["x-unexpected"] = 1
                add(setting(path, to: .object(members), in: body))
            }
            if case .array(let elements) = current {
                add(setting(path, to: .array([]), in: body))
                add(setting(path, to: .array(elements + ["stray"]), in: body))
            }
            guard !path.isEmpty else { continue }
            add(setting(path, to: nil, in: body))
            for replacement in replacements { add(setting(path, to: replacement, in: body)) }
        }
        return results
    }

    /// Every path to a member or element, the body's own (`[]`) first.
    static func paths(in value: JSONValue, levels: Int) -> [[Step]] {
        var found: [[Step]] = [[]]
        guard levels > 0 else { return found }
        switch value {
        case .object(let members):
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                found += paths(in: member, levels: levels - 1).map { [.key(key)] + $0 }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated().prefix(3) {
                found += paths(in: element, levels: levels - 1).map { [.index(index)] + $0 }
            }
        default:
            break
        }
        return found
    }

    static func value(at path: [Step], in value: JSONValue) -> JSONValue? {
        guard let first = path.first else { return value }
        switch (first, value) {
        case (.key(let key), .object(let members)):
            return members[key].flatMap { self.value(at: Array(path.dropFirst()), in: $0) }
        case (.index(let index), .array(let elements)) where elements.indices.contains(index):
            return self.value(at: Array(path.dropFirst()), in: elements[index])
        default:
            return nil
        }
    }

    /// `value` with the member or element at `path` replaced (`nil`: removed).
    static func setting(_ path: [Step], to replacement: JSONValue?, in value: JSONValue) -> JSONValue {
        guard let first = path.first else { return replacement ?? .null }
        let rest = Array(path.dropFirst())
        switch (first, value) {
        case (.key(let key), .object(var members)):
            if rest.isEmpty, replacement == nil {
                members[key] = nil
            } else if let member = members[key] {
                members[key] = setting(rest, to: replacement, in: member)
            }
            return .object(members)
        case (.index(let index), .array(var elements)) where elements.indices.contains(index):
            if rest.isEmpty, replacement == nil {
                elements.remove(at: index)
            } else {
                elements[index] = setting(rest, to: replacement, in: elements[index])
            }
            return .array(elements)
        default:
            return value
        }
    }
}
