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

        /// The key of a live channel named `name` with `route`.
        init(name: String, route: Router.Route) {
            var handler: ObjectIdentifier?
            var otherHandlers: [ObjectIdentifier] = []
            for entry in route.handlers where entry.eventType != handler && !otherHandlers.contains(entry.eventType) {
                if handler == nil { handler = entry.eventType } else { otherHandlers.append(entry.eventType) }
            }
            self.name = name
            self.handler = handler
            self.otherHandlers = otherHandlers
            self.responder = route.responder.map { ObjectIdentifier(type(of: $0.responder)) }
        }
    }

    /// One channel's part of the canonical document: `"NAME":{…}`, and the definitions its schemas use.
    struct Part: Sendable, Equatable {
        let bytes: [UInt8]
        let definitions: [String: JSONSchema]
        /// The digest of the contract of this channel alone (``Manifest/contracts``).
        var digest: String = ""
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

    /// The ``Contract/digest`` of the table's live channels in `only` (a page's narrower manifest).
    static func digest(of table: Router.RoutingTable, only: Set<Channel>) -> String {
        var entries: [Router.LiveChannels.Entry] = []
        table.forEachRoute { channel, route in
            guard route.isLive, only.contains(channel) else { return }
            entries.append(Router.LiveChannels.Entry(name: channel.name, route: route))
        }
        // Its definitions are those its channels refer to.
        return sortedChannels(of: entries) { _ in Contract(table: table).restricted(to: only).digest }.digest
    }

    /// The live channels, sorted, and the ``Contract/digest`` of their contract.
    static func liveChannels(of live: Router.LiveChannels) -> (channels: [Channel], digest: String) {
        let (channels, digest, _) = liveChannels(of: live, perChannel: false)
        return (channels, digest)
    }

    /// The live channels, sorted, the ``Contract/digest`` of their contract and, when
    /// `perChannel`, the digest of each channel's contract alone (by name).
    static func liveChannels(
        of live: Router.LiveChannels, perChannel: Bool
    ) -> (channels: [Channel], digest: String, digests: [String: String]) {
        var entries: [Router.LiveChannels.Entry] = []
        entries.reserveCapacity(live.count)
        live.forEachChannel { entries.append($0) }
        let (channels, digest) = sortedChannels(of: entries) { sorted in
            "sha256:" + SHA256.hex(of: document(of: sorted))
        }
        guard perChannel else { return (channels, digest, [:]) }
        var digests: [String: String] = [:]
        for (entry, part) in zip(entries, parts(of: entries)) { digests[entry.key.name] = part.digest }
        return (channels, digest, digests)
    }

    /// The ``Contract/digest`` of the contract of the live channels of `entries`' router and its
    /// declared pushes (a push on a live channel's name is left out, as ``Contract/init(router:)``
    /// does), assembled from each channel's kept part.
    static func digest(of live: Router.LiveChannels, pushes: DeclaredPushes) -> String {
        var entries: [Router.LiveChannels.Entry] = []
        live.forEachChannel { entries.append($0) }
        let names = Set(entries.map(\.key.name))
        var parts = zip(entries, parts(of: entries)).map { (name: $0.key.name, part: $1) }
        for (channel, type) in pushes.types where !names.contains(channel.name) {
            let (entry, definitions) = ContractChannelTypes(push: type).entry()
            var writer = JSONWriter(escapesLineSeparators: false)
            writer.key(channel.name)
            writer.write(entry.document)
            parts.append((channel.name, Part(bytes: writer.bytes, definitions: definitions)))
        }
        parts.sort { $0.name < $1.name }
        return "sha256:" + SHA256.hex(of: document(parts: parts.map(\.part)))
    }

    /// The digest of a contract of one channel: its kind, schemas and the definitions they use, as
    /// ``Contract/digest`` writes it for that channel alone (what the generated client states).
    static func digest(ofChannelPart part: Part) -> String {
        "sha256:" + SHA256.hex(of: document(parts: [part]))
    }

    /// The channels of `entries`, sorted, and their digest: a kept one, else `make`'s (given the sorted entries).
    private static func sortedChannels(
        of entries: [Router.LiveChannels.Entry], make: ([Router.LiveChannels.Entry]) -> String
    ) -> (channels: [Channel], digest: String) {
        // The order of the document's `channels` keys (JSONWriter sorts object keys by `<`).
        let entries = entries.sorted { $0.key.name < $1.key.name }
        let keys = entries.map(\.key)
        let channels = keys.map { Channel(uncheckedName: $0.name) }
        if let known = kept.withLock({ $0.digests[keys] }) { return (channels, known) }
        let digest = make(entries)
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

    /// One channel's part of the canonical document: a kept one, else derived (outside any lock:
    /// deriving may run the types' `init(from:)`) and kept.
    static func part(of entry: Router.LiveChannels.Entry) -> Part {
        parts(of: [entry]).first ?? Part(bytes: [], definitions: [:])
    }

    /// Each channel's part of the canonical document, kept or derived.
    private static func parts(of entries: [Router.LiveChannels.Entry]) -> [Part] {
        var parts = kept.withLock { kept in entries.map { kept.parts[$0.key] } }
        var derived: [ChannelKey: Part] = [:]
        for index in parts.indices where parts[index] == nil {
            let (entry, definitions) = entries[index].types.entry()
            var writer = JSONWriter(escapesLineSeparators: false)
            writer.key(entries[index].key.name)
            writer.write(entry.document)
            var part = Part(bytes: writer.bytes, definitions: definitions)
            part.digest = digest(ofChannelPart: part)
            parts[index] = part
            derived[entries[index].key] = part
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
        return parts.compactMap { $0 }
    }

    /// The canonical text of the contract of the channels of `entries` (sorted by name):
    /// ``Contract/json``'s bytes.
    private static func document(of entries: [Router.LiveChannels.Entry]) -> [UInt8] {
        document(parts: parts(of: entries))
    }

    /// The canonical text of a contract made of `parts` (sorted by channel name).
    private static func document(parts: [Part]) -> [UInt8] {
        // `{"$defs":{…},"$schema":"…","channels":{…}}`: the document's keys in ascending order.
        var definitions: [String: JSONSchema] = [:]
        var size = 64
        for part in parts {
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
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            bytes.append(contentsOf: part.bytes)
        }
        bytes.append(contentsOf: "}}".utf8)
        return bytes
    }
}
