import Switchboard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The channels a session has seen, found by their name's bytes: a wire
/// message names one of a few channels over and over, and looking the bytes up
/// here is cheaper than making a `String` and validating it each time. Each is
/// kept as the router's ``Router/ChannelKey``, so routing it neither hashes its
/// name again nor compares the name's bytes with the routing table's.
///
/// Only valid names are kept, and at most ``limit`` of them (hostile input with
/// a new name on every line cannot make it grow).
struct WireChannelCache {
    /// The most names kept.
    static let limit = 64

    private var names: [[UInt8]] = []
    private var channels: [Router.ChannelKey] = []

    /// An empty cache.
    init() {}

    /// The channel named by the (unescaped) UTF-8 bytes `name`, or `nil` if it is not cached.
    func channel(named name: UnsafeBufferPointer<UInt8>) -> Router.ChannelKey? {
        for index in names.indices where names[index].count == name.count {
            let same = names[index].withUnsafeBufferPointer { cached in
                guard let cachedBase = cached.baseAddress, let base = name.baseAddress else { return cached.isEmpty }
                return memcmp(cachedBase, base, name.count) == 0
            }
            if same { return channels[index] }
        }
        return nil
    }

    /// Keeps `channel`, named by `name`, while there is room.
    mutating func insert(_ channel: Router.ChannelKey, named name: UnsafeBufferPointer<UInt8>) {
        guard names.count < Self.limit else { return }
        names.append(Array(name))
        channels.append(channel)
    }
}
