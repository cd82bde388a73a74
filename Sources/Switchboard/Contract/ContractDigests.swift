/// The digests of the contracts of recent routing tables, by the types each live channel
/// decodes: a manifest (computed on every change observers hear of) reuses the digest of a
/// set of channels and types seen before instead of writing and hashing the document again.
///
/// A set not seen before is assembled from each channel's part of the canonical document
/// (`"NAME":{…}`, kept by the channel's name and types), so a change costs one pass over
/// the parts and one hash of the text, not deriving, building and writing every channel anew.
/// The text is the one ``Contract/json`` writes: keys in ascending order, no spaces.
enum ContractDigests {
    /// One live channel: its name, its handlers' event types (in order, each once: the first,
    /// then any others, so that the usual channel of one type allocates nothing) and its responder's.
    struct ChannelKey: Hashable, Sendable {
        let name: String
        let handler: ObjectIdentifier?
        let otherHandlers: [ObjectIdentifier]
        let responder: ObjectIdentifier?
    }

    /// One channel's part of the canonical document: `"NAME":{…}`, and the definitions its schemas use.
    struct Part: Sendable {
        let bytes: [UInt8]
        let definitions: [String: JSONSchema]
    }

    /// The digests and channel parts kept, and how many channel keys the digests hold in all.
    private struct Kept {
        var digests: [[ChannelKey]: String] = [:]
        var keyCount = 0
        var parts: [ChannelKey: Part] = [:]
    }

    private static let kept = Locked(Kept())
    /// How many tables' digests are kept (all are dropped when more come).
    static let capacity = 256
    /// How many channel keys the kept digests may hold in all (all are dropped past it), so
    /// that a router with many channels does not keep hundreds of copies of its channel list;
    /// also how many channel parts are kept.
    static let keyCapacity = 65_536

    /// The ``Contract/digest`` of the table's live channels (those in `only`, when given).
    static func digest(of table: Router.RoutingTable, only: Set<Channel>? = nil) -> String {
        liveChannels(of: table, only: only).digest
    }

    /// The table's live channels (those in `only`, when given), sorted, and the ``Contract/digest`` of their contract.
    static func liveChannels(
        of table: Router.RoutingTable, only: Set<Channel>? = nil
    ) -> (channels: [Channel], digest: String) {
        var keys: [ChannelKey] = []
        keys.reserveCapacity(table.count)
        table.forEachRoute { channel, route in
            guard route.isLive, only?.contains(channel) ?? true else { return }
            var handler: ObjectIdentifier?
            var otherHandlers: [ObjectIdentifier] = []
            for entry in route.handlers where entry.eventType != handler && !otherHandlers.contains(entry.eventType) {
                if handler == nil { handler = entry.eventType } else { otherHandlers.append(entry.eventType) }
            }
            let responder = route.responder.map { ObjectIdentifier(type(of: $0.responder)) }
            keys.append(
                ChannelKey(name: channel.name, handler: handler, otherHandlers: otherHandlers, responder: responder))
        }
        // The order of the document's `channels` keys (JSONWriter sorts object keys by `<`).
        keys.sort { $0.name < $1.name }
        let channels = keys.map { Channel(uncheckedName: $0.name) }
        if let known = kept.withLock({ $0.digests[keys] }) { return (channels, known) }
        let digest: String
        if let only {
            // A page's narrower manifest (`manifest(for:)`): its definitions are those its channels refer to.
            digest = Contract(table: table).restricted(to: only).digest
        } else {
            digest = "sha256:" + SHA256.hex(of: document(of: keys, in: table))
        }
        // What the cache drops is released after the lock (only strings and arrays, but the rule is kept).
        let dropped: Kept? = kept.withLock { kept in
            var dropped: Kept?
            if kept.digests.count >= capacity || kept.keyCount + keys.count > keyCapacity {
                dropped = Kept(digests: kept.digests, keyCount: kept.keyCount)
                kept.digests = [:]
                kept.keyCount = 0
            }
            if keys.count <= keyCapacity, kept.digests.updateValue(digest, forKey: keys) == nil {
                kept.keyCount += keys.count
            }
            return dropped
        }
        withExtendedLifetime(dropped) {}
        return (channels, digest)
    }

    /// The canonical text of the contract of the channels of `keys` (live in `table`, sorted
    /// by name): ``Contract/json``'s bytes.
    private static func document(of keys: [ChannelKey], in table: Router.RoutingTable) -> [UInt8] {
        var parts = kept.withLock { kept in keys.map { kept.parts[$0] } }
        var derived: [ChannelKey: Part] = [:]
        for index in parts.indices where parts[index] == nil {
            let channel = Channel(uncheckedName: keys[index].name)
            guard let route = table.route(channel) else { continue }
            // Outside the lock: deriving may run the types' init(from:).
            let (entry, definitions) = ContractChannelTypes(route: route).entry()
            var writer = JSONWriter(escapesLineSeparators: false)
            writer.key(channel.name)
            writer.write(entry.document)
            let part = Part(bytes: writer.bytes, definitions: definitions)
            parts[index] = part
            derived[keys[index]] = part
        }
        if !derived.isEmpty {
            let dropped: [ChannelKey: Part]? = kept.withLock { kept in
                var dropped: [ChannelKey: Part]?
                if kept.parts.count + derived.count > keyCapacity {
                    dropped = kept.parts
                    kept.parts = [:]
                }
                if derived.count <= keyCapacity { kept.parts.merge(derived) { first, _ in first } }
                return dropped
            }
            withExtendedLifetime(dropped) {}
        }
        // `{"$defs":{…},"$schema":"…","channels":{…}}`: the document's keys in ascending order.
        var definitions: [String: JSONSchema] = [:]
        var size = 64
        for part in parts {
            guard let part else { continue }
            size += part.bytes.count + 1
            if !part.definitions.isEmpty { definitions.merge(part.definitions) { first, _ in first } }
        }
        var writer = JSONWriter(capacity: 64, escapesLineSeparators: false)
        writer.beginObject()
        if !definitions.isEmpty {
            writer.key("$defs")
            writer.write(.object(definitions.mapValues(\.json)))
        }
        writer.key("$schema")
        writer.write(Contract.schemaDialect)
        writer.key("channels")
        var bytes = writer.bytes
        bytes.reserveCapacity(bytes.count + size)
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for part in parts {
            guard let part else { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            bytes.append(contentsOf: part.bytes)
        }
        bytes.append(contentsOf: "}}".utf8)
        return bytes
    }
}
