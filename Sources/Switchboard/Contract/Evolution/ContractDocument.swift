import Foundation

/// A contract document as `switchboard schema` writes it (or ``Contract/json``): the channels'
/// kinds and schemas and the `$defs` their `$ref`s point at, read for a ``ContractDiff``.
///
/// `{"$schema": …, "channels": {NAME: {"kind": "event"|"request"|"push", "body": SCHEMA,
/// "reply": SCHEMA}}, "$defs": {…}}`. A `body` may be absent (the channel reads none);
/// a request's missing `reply` is `{}`. A kind this version does not know is refused, so
/// that a newer document is never compared by the wrong rules.
public struct ContractDocument: Sendable, Hashable {
    /// One channel of the document.
    public struct Entry: Sendable, Hashable {
        /// Event, request or push: how the channel's messages travel.
        public var kind: Contract.Kind
        /// The body's schema; `nil` when the channel reads no body.
        public var body: JSONValue?
        /// The reply's schema (requests only).
        public var reply: JSONValue?

        /// Which way the body travels: `push` bodies from the app to the page, the others from the page.
        package var bodyDirection: ContractChange.Direction {
            kind == .push ? .appToPage : .pageToApp
        }

        /// Creates an entry.
        /// - Parameters:
        ///   - kind: event, request or push.
        ///   - body: the body's schema, `nil` for none.
        ///   - reply: the reply's schema, for a request.
        public init(kind: Contract.Kind, body: JSONValue?, reply: JSONValue?) {
            self.kind = kind
            self.body = body
            self.reply = reply
        }
    }

    /// The channels, by name.
    public var channels: [String: Entry]
    /// The schemas `$ref`s point at (`#/$defs/NAME`), by name.
    public var definitions: [String: JSONValue]

    /// Creates a document from its parts.
    /// - Parameters:
    ///   - channels: the channels.
    ///   - definitions: the `$defs`.
    public init(channels: [String: Entry], definitions: [String: JSONValue] = [:]) {
        self.channels = channels
        self.definitions = definitions
    }

    /// The document of a contract (what ``Contract/json`` writes).
    /// - Parameter contract: the contract.
    public init(_ contract: Contract) {
        var channels: [String: Entry] = [:]
        for (channel, entry) in contract.channels {
            let document = entry.document
            channels[channel.name] = Entry(kind: entry.kind, body: document["body"], reply: document["reply"])
        }
        self.init(channels: channels, definitions: contract.definitions.mapValues(\.json))
    }

    /// Reads a document.
    /// - Parameter json: the document as JSON.
    /// - Throws: ``ContractDocumentError`` saying what is wrong when it is not a contract document.
    public init(json: JSONValue) throws(ContractDocumentError) {
        guard case .object(let members) = json else {
            throw ContractDocumentError("not a contract document: expected a JSON object, found \(json.kindName)")
        }
        guard case .object(let described)? = members["channels"] else {
            throw ContractDocumentError("not a contract document: no \"channels\" object")
        }
        var channels: [String: Entry] = [:]
        for (name, value) in described {
            guard case .object(let entry) = value else {
                throw ContractDocumentError("channel \"\(name)\": expected an object, found \(value.kindName)")
            }
            guard let text = entry["kind"]?.stringValue else {
                throw ContractDocumentError("channel \"\(name)\": no \"kind\"")
            }
            guard let kind = Contract.Kind(rawValue: text) else {
                throw ContractDocumentError(
                    "channel \"\(name)\": unknown kind \"\(text)\" (expected event, request or push)")
            }
            for part in ["body", "reply"] {
                if let schema = entry[part], !schema.isSchemaShaped {
                    throw ContractDocumentError(
                        "channel \"\(name)\": \(part) is not a schema (expected an object or a Boolean)")
                }
            }
            let reply: JSONValue? = kind == .request ? (entry["reply"] ?? [:]) : nil
            channels[name] = Entry(kind: kind, body: entry["body"], reply: reply)
        }
        var definitions: [String: JSONValue] = [:]
        if let defs = members["$defs"] {
            guard case .object(let named) = defs else {
                throw ContractDocumentError("\"$defs\" is not an object")
            }
            for (name, schema) in named {
                guard schema.isSchemaShaped else {
                    throw ContractDocumentError("$defs \"\(name)\" is not a schema (expected an object or a Boolean)")
                }
            }
            definitions = named
        }
        self.init(channels: channels, definitions: definitions)
    }

    /// Reads a document from JSON text.
    /// - Parameter data: the text (UTF-8).
    /// - Throws: ``ContractDocumentError`` when it is not JSON or not a contract document.
    public init(data: Data) throws(ContractDocumentError) {
        let json: JSONValue
        do {
            json = try JSONReader(maxDepth: DecodingOptions.maxDepthCeiling).read(data)
        } catch {
            throw ContractDocumentError("not JSON: \(error)")
        }
        try self.init(json: json)
    }
}

extension JSONValue {
    /// `an object`, `a string`, … for messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Whether the value can be a schema: an object or a Boolean.
    var isSchemaShaped: Bool {
        switch self {
        case .object, .bool: true
        default: false
        }
    }
}
