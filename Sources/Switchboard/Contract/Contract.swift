import Foundation

/// The contract between the app and the web side: per channel, whether it is an event
/// or a request, the JSON Schema (draft 2020-12) of its body and, for a request, of its
/// reply, derived from the very types the router decodes and encodes with.
///
/// ```swift
/// let contract = Contract(router: router)           // the registered channels
/// let same = Contract(types: [AddCartLine.self, ProductCartUpdate.self])
/// print(contract.json)                              // {"$schema":…,"channels":{…}}
/// print(contract.typeScript)                        // declarations for the page
/// router.manifest.contract == contract.digest       // the handshake
/// ```
///
/// **How it is derived.** Each type's `init(from:)` runs on a probe decoder that
/// records the containers, keys and types it asks for (see `SchemaDeriver`):
/// `decode` makes a key required, `decodeIfPresent` (what `Optional` members
/// synthesize) optional and nullable; `Int` and its kin are `integer` with their
/// bounds, `Double`, `Float` and `Decimal` are `number`; arrays, sets and
/// `[String: Value]` and `[Int: Value]` dictionaries carry their element's schema; nested types are
/// described inline with their name as `title`, a type that refers to itself under
/// `$defs`; a `CaseIterable` enum with `String` or integer raw values is an `enum`
/// of them. The probe runs twice with different answers; a type whose shape changes
/// with them, or that refuses the probe's values, decides by value and is marked
/// `"x-switchboard-underivable"` (a schema that accepts anything) rather than
/// guessed. A type supplies or refines its own schema with ``ContractDescribable``.
///
/// **Agreement.** The schemas describe the default ``DecodingOptions`` (strict):
/// what a schema accepts decodes, and what does not decode is refused by the schema
/// (unknown keys are allowed, as the decoder ignores them; `2.0` is an `integer`, as
/// the decoder takes it for `Int`). Outside the schema: the nesting limit
/// (``DecodingOptions/maxDepth``), lenient mode, and the syntax of a `URL` string
/// beyond being non-empty. Replies are described by their `Decodable` side
/// (synthesized `Codable` encodes what it decodes); a reply type that is not
/// `Decodable` needs ``ContractDescribable/contractSchema``.
///
/// **Document and digest.** ``document`` is
/// `{"$schema": "https://json-schema.org/draft/2020-12/schema", "channels": {NAME:
/// {"kind": "event"|"request", "body": SCHEMA, "reply": SCHEMA}}}` (`body` absent
/// for a ``BodylessEvent``, `reply` for requests only, `$defs` when a type refers to
/// itself); ``json`` is its canonical text (keys sorted, no spaces) and ``digest``
/// the SHA-256 of that text, `sha256:<hex>`, which the ``Manifest`` carries as
/// `contract`.
///
/// Deriving runs the types' `init(from:)` (user code), never under a lock; the
/// schema of each type is derived once per process and kept.
public struct Contract: Sendable, Hashable {
    /// Whether a channel carries events, requests or pushes.
    public enum Kind: String, Sendable, Hashable {
        /// Messages with no reply.
        case event
        /// Messages answered with exactly one reply.
        case request
        /// Messages the app sends to the page (``Push``); `body` is what the page receives.
        case push
    }

    /// One channel of the contract.
    public struct Entry: Sendable, Hashable {
        /// Event or request.
        public var kind: Kind
        /// The body's schema; `nil` when the channel takes no body (a ``BodylessEvent``).
        public var body: JSONSchema?
        /// The reply's schema, for a request; `nil` for an event.
        public var reply: JSONSchema?

        /// Creates an entry.
        /// - Parameters:
        ///   - kind: event or request.
        ///   - body: the body's schema, `nil` for none.
        ///   - reply: the reply's schema, for a request.
        public init(kind: Kind, body: JSONSchema?, reply: JSONSchema?) {
            self.kind = kind
            self.body = body
            self.reply = reply
        }

        /// Whether no part of the body or reply is marked underivable.
        public var isExact: Bool { (body?.isExact ?? true) && (reply?.isExact ?? true) }

        /// The entry in the ``Contract/document``: `kind`, `body` (when there is one), `reply` (for a request).
        var document: JSONValue {
            var members: [String: JSONValue] = ["kind": .string(kind.rawValue)]
            if let body { members["body"] = body.json }
            if kind == .request { members["reply"] = reply?.json ?? [:] }
            return .object(members)
        }
    }

    /// The URI of JSON Schema draft 2020-12, the document's `$schema`.
    public static let schemaDialect = "https://json-schema.org/draft/2020-12/schema"

    /// The channels, by name.
    public let channels: [Channel: Entry]
    /// The schemas of types that refer to themselves, by the name `$ref`s use (`#/$defs/NAME`).
    public let definitions: [String: JSONSchema]

    /// Creates a contract from its parts.
    /// - Parameters:
    ///   - channels: the channels.
    ///   - definitions: the schemas `$ref`s point at.
    public init(channels: [Channel: Entry], definitions: [String: JSONSchema] = [:]) {
        self.channels = channels
        self.definitions = definitions
    }

    /// The contract of the channels that have a handler or a responder on `router` now.
    ///
    /// A request channel (one with a responder) is a request; its body must also suit
    /// any event handlers of other types on the channel (every one decodes it).
    /// - Parameter router: the router.
    public init(router: Router) {
        let (table, pushes) = router.state.withLock { ($0.table, $0.pushes) }
        self.init(table: table, pushes: pushes)
    }

    /// The contract of a list of event and request types (requests are told by their type).
    /// - Parameter types: the types; several on one channel must all accept its body.
    public init(types: [any Event.Type]) {
        var channels: [Channel: ContractChannelTypes] = [:]
        for type in types {
            if let request = type as? any Request.Type {
                channels[type.channel, default: ContractChannelTypes()].responder = request
            } else {
                channels[type.channel, default: ContractChannelTypes()].handlers.append(type)
            }
        }
        self.init(channelTypes: channels)
    }

    /// The contract of the given event and request types. See ``init(types:)``.
    /// - Parameter types: the types.
    public init(_ types: any Event.Type...) {
        self.init(types: types)
    }

    init(table: Router.RoutingTable, pushes: DeclaredPushes = DeclaredPushes()) {
        var channels: [Channel: ContractChannelTypes] = [:]
        table.forEachRoute { channel, route in
            guard route.isLive else { return }
            channels[channel] = ContractChannelTypes(route: route)
        }
        // A push declared on a channel the page also sends on is left out (the page's kind wins).
        for (channel, type) in pushes.types where channels[channel] == nil {
            channels[channel] = ContractChannelTypes(push: type)
        }
        self.init(channelTypes: channels)
    }

    /// The contract of declared push channels alone.
    init(pushes: DeclaredPushes) {
        self.init(table: Router.RoutingTable(), pushes: pushes)
    }

    private init(channelTypes: [Channel: ContractChannelTypes]) {
        var entries: [Channel: Entry] = [:]
        var definitions: [String: JSONSchema] = [:]
        // In channel order, so that when two types name a definition alike the first channel's wins,
        // as in the digest a manifest assembles from each channel's part (`ContractDigests`).
        for (channel, types) in channelTypes.sorted(by: { $0.key.name < $1.key.name }) {
            let (entry, used) = types.entry()
            entries[channel] = entry
            definitions.merge(used) { first, _ in first }
        }
        self.init(channels: entries, definitions: definitions)
    }

    /// This contract with only the channels in `names` (and the definitions they use).
    /// - Parameter names: the channels to keep.
    /// - Returns: the narrower contract.
    public func restricted(to names: Set<Channel>) -> Contract {
        let kept = channels.filter { names.contains($0.key) }
        var used = JSONValue.array(kept.values.flatMap { [$0.body?.json ?? .null, $0.reply?.json ?? .null] })
        var keptDefinitions: [String: JSONSchema] = [:]
        // Definitions may refer to one another: keep adding those referred to until none is new.
        while true {
            let more = definitions.filter { keptDefinitions[$0.key] == nil && used.refers(to: $0.key) }
            if more.isEmpty { break }
            keptDefinitions.merge(more) { first, _ in first }
            used = .array(keptDefinitions.values.map(\.json))
        }
        return Contract(channels: kept, definitions: keptDefinitions)
    }

    /// Whether every channel's schemas are exact (nothing marked underivable).
    public var isExact: Bool { channels.values.allSatisfy(\.isExact) && definitions.values.allSatisfy(\.isExact) }

    /// The schema document: `$schema`, `channels` and, when a type refers to itself, `$defs`.
    public var document: JSONValue {
        var described: [String: JSONValue] = [:]
        for (channel, entry) in channels { described[channel.name] = entry.document }
        var document: [String: JSONValue] = [
            "$schema": .string(Contract.schemaDialect), "channels": .object(described),
        ]
        if !definitions.isEmpty { document["$defs"] = .object(definitions.mapValues(\.json)) }
        return .object(document)
    }

    /// ``document`` as canonical JSON text: object keys sorted, no spaces, one line.
    public var json: String {
        String(decoding: canonicalBytes, as: UTF8.self)
    }

    /// The SHA-256 digest of ``json`` as `sha256:` and 64 lowercase hex digits: stable
    /// across runs, and different when any channel's shape, kind or the set of channels differs.
    public var digest: String {
        "sha256:" + SHA256.hex(of: canonicalBytes)
    }

    private var canonicalBytes: [UInt8] {
        var writer = JSONWriter(escapesLineSeparators: false)
        writer.write(document)
        return writer.bytes
    }

    /// TypeScript declarations for the page: a type per body and reply, and
    /// `export interface Channels { NAME: { body: B; reply: R } }` (`void` where there is none),
    /// and `export const contract` with the ``digest``.
    public var typeScript: String {
        ContractTypeScript(contract: self).render()
    }
}

extension Router {
    /// The ``Contract`` of the channels that have a handler or a responder now
    /// (``Contract/init(router:)``); its ``Contract/digest`` is ``Manifest/contract``.
    public var contract: Contract { Contract(router: self) }
}

extension JSONValue {
    /// Whether a `$ref` in this value points at `#/$defs/name`.
    fileprivate func refers(to name: String) -> Bool {
        let reference = JSONValue.string("#/$defs/" + name)
        return containsObject { $0["$ref"] == reference }
    }
}

/// The types registered on one channel: its event handlers' types and its responder's request type.
struct ContractChannelTypes: Sendable {
    var handlers: [any Event.Type] = []
    var responder: (any Request.Type)?
    var push: (any Push.Type)?

    init() {}

    /// A push channel's type.
    init(push: any Push.Type) {
        self.push = push
    }

    /// The types a route's event handlers and responder decode.
    init(route: Router.Route) {
        handlers = route.handlers.compactMap { ($0.handler as? any ContractEventCarrier)?.contractEventType }
        responder = (route.responder?.responder as? any ContractRequestCarrier)?.contractRequestType
    }

    /// The channel's entry, and the definitions its schemas use.
    func entry() -> (Contract.Entry, [String: JSONSchema]) {
        if let push {
            let derived = DerivedSchemas.body(ofPush: push)
            return (Contract.Entry(kind: .push, body: JSONSchema(derived.schema), reply: nil), derived.definitions)
        }
        var seen: Set<ObjectIdentifier> = []
        var bodies: [JSONValue] = []
        var definitions: [String: JSONSchema] = [:]
        let all: [any Event.Type] = (responder.map { [$0] } ?? []) + handlers
        for type in all where seen.insert(ObjectIdentifier(type)).inserted {
            guard let derived = DerivedSchemas.body(of: type) else { continue }
            if !bodies.contains(derived.schema) { bodies.append(derived.schema) }
            definitions.merge(derived.definitions) { first, _ in first }
        }
        let body: JSONSchema? =
            bodies.isEmpty ? nil : JSONSchema(bodies.count == 1 ? bodies[0] : ["allOf": .array(bodies)])
        guard let responder else { return (Contract.Entry(kind: .event, body: body, reply: nil), definitions) }
        let reply = DerivedSchemas.reply(of: responder)
        definitions.merge(reply.definitions) { first, _ in first }
        return (Contract.Entry(kind: .request, body: body, reply: JSONSchema(reply.schema)), definitions)
    }
}

/// Each type's derived schema, kept for the life of the process (a type's shape does not change).
enum DerivedSchemas {
    /// A schema and the definitions its `$ref`s point at.
    struct Derived: Sendable {
        let schema: JSONValue
        let definitions: [String: JSONSchema]
    }

    private static let kept = Locked<[ObjectIdentifier: Derived]>([:])

    /// The body schema of an event type; `nil` for a ``BodylessEvent``.
    static func body(of type: any Event.Type) -> Derived? {
        if type is any BodylessEvent.Type { return nil }
        return derived(type)
    }

    /// The body schema of a push type: derived when it is `Decodable`, its ``ContractDescribable``
    /// schema otherwise, else marked underivable.
    static func body(ofPush type: any Push.Type) -> Derived {
        schema(of: type, what: "a push body")
    }

    /// The reply schema of a request type.
    static func reply(of type: any Request.Type) -> Derived {
        func replyType<R: Request>(_: R.Type) -> Any.Type { R.Reply.self }
        return schema(of: replyType(type), what: "a reply")
    }

    /// The schema of a type the app sends (`what`: a reply, a push body): derived when it is
    /// `Decodable`, its ``ContractDescribable`` schema otherwise, else marked underivable.
    private static func schema(of type: Any.Type, what: String) -> Derived {
        if let decodable = type as? any Decodable.Type { return derived(decodable) }
        if let described = type as? any ContractDescribable.Type, let schema = described.contractSchema {
            return Derived(schema: schema.json, definitions: [:])
        }
        let name = SchemaDeriver.displayName(of: type)
        return Derived(
            schema: JSONSchema.underivable(
                "\(name): \(what) that is not Decodable needs a contractSchema (ContractDescribable)"
            ).json,
            definitions: [:])
    }

    /// The schema of `type`, derived once (outside the lock: deriving runs the type's `init(from:)`).
    static func derived<T: Decodable>(_ type: T.Type) -> Derived {
        let id = ObjectIdentifier(T.self)
        if let known = kept.withLock({ $0[id] }) { return known }
        let deriver = SchemaDeriver()
        let schema = deriver.schema(T.self)
        deriver.finish()
        let result = Derived(schema: schema, definitions: deriver.definitions.mapValues { JSONSchema($0) })
        kept.withLock { $0[id] = $0[id] ?? result }
        return result
    }
}

/// A router's event handler, seen from the contract: the event type it decodes.
protocol ContractEventCarrier {
    var contractEventType: any Event.Type { get }
}

extension TypedEventHandler: ContractEventCarrier {
    var contractEventType: any Event.Type { E.self }
}

/// A router's responder, seen from the contract: the request type it decodes.
protocol ContractRequestCarrier {
    var contractRequestType: any Request.Type { get }
}

extension TypedResponder: ContractRequestCarrier {
    var contractRequestType: any Request.Type { R.self }
}
