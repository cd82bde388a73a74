@testable import Switchboard
@testable import SwitchboardJSON

/// Builds contract documents of one channel and reads what ``ContractDiff`` says of them.
enum DiffFixtures {
    /// A document with one channel `c`.
    static func document(
        kind: Contract.Kind = .event, body: JSONValue? = nil, reply: JSONValue? = nil,
        definitions: [String: JSONValue] = [:]
    ) -> ContractDocument {
        ContractDocument(
            channels: [
                "c": ContractDocument.Entry(kind: kind, body: body, reply: kind == .request ? (reply ?? [:]) : nil)
            ],
            definitions: definitions)
    }

    /// The diff of two bodies of an event channel (page to app).
    static func bodies(
        _ old: JSONValue, _ new: JSONValue,
        definitions: (old: [String: JSONValue], new: [String: JSONValue]) = ([:], [:])
    )
        -> ContractDiff
    {
        ContractDiff(
            old: document(body: old, definitions: definitions.old),
            new: document(body: new, definitions: definitions.new))
    }

    /// The diff of two replies of a request channel (app to page).
    static func replies(_ old: JSONValue, _ new: JSONValue) -> ContractDiff {
        ContractDiff(
            old: document(kind: .request, body: ["type": "object"], reply: old),
            new: document(kind: .request, body: ["type": "object"], reply: new))
    }

    /// The diff of two push bodies (app to page).
    static func pushes(_ old: JSONValue, _ new: JSONValue) -> ContractDiff {
        ContractDiff(old: document(kind: .push, body: old), new: document(kind: .push, body: new))
    }

    /// An object schema with these properties and required keys.
    static func object(_ properties: [String: JSONValue], required: [String] = [], _ extra: [String: JSONValue] = [:])
        -> JSONValue
    {
        var schema: [String: JSONValue] = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema["required"] = .array(required.map { .string($0) }) }
        schema.merge(extra) { _, second in second }
        return .object(schema)
    }
}

extension ContractDiff {
    /// `severity path` of each change, for short expectations (`breaking /quantity`).
    var summaries: [String] { changes.map { "\($0.severity.rawValue) \($0.path)" } }
}
