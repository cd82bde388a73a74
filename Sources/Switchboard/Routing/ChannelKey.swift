extension Router {
    /// A channel as the routing table names it, with its name's hash: what a caller that routes
    /// the same few channels over and over keeps (the wire session, by the name's bytes), so
    /// that routing one more message neither hashes the name nor compares its bytes (the
    /// table's own name and this one share their storage, and compare as one word).
    package struct ChannelKey: Sendable {
        /// The channel, named with the routing table's own string when the table had the channel
        /// under the same bytes.
        package let channel: Channel
        /// The hash of the channel's name, as the routing table computes it.
        let hash: UInt64

        /// The key of `channel` as given (hashed, not looked up: its name compares as bytes).
        package init(_ channel: Channel) {
            self.init(channel: channel, hash: RoutingTable.hash(channel.name))
        }

        init(channel: Channel, hash: UInt64) {
            self.channel = channel
            self.hash = hash
        }
    }

    /// The ``ChannelKey`` of `channel`, named with the routing table's own string when the
    /// table has the channel under the same bytes. Otherwise (the table does not have it, or
    /// has it in another spelling equal under `==`, e.g. NFC against NFD) the channel as
    /// given, so that the message and its outcome keep the caller's spelling; the key is as
    /// good, only its name compares slower.
    package func key(for channel: Channel) -> ChannelKey {
        let hash = RoutingTable.hash(channel.name)
        let stored = state.withLock { $0.table.storedName(channel.name, hash: hash) }
        if let stored, stored.utf8.elementsEqual(channel.name.utf8) {
            return ChannelKey(channel: Channel(uncheckedName: stored), hash: hash)
        }
        return ChannelKey(channel: channel, hash: hash)
    }
}
