/// A keyed container of a stream (see ``EncodingStreamSink``): members are written as they are encoded.
///
/// Every concrete `encode` and `encodeIfPresent` is its own method here, so none goes
/// through the standard library's defaults (which box the value as a generic `Encodable`
/// and look up `Optional`'s metadata at run time); `nil` through `encodeIfPresent` writes nothing.
struct EncodingStreamKeyedContainer<Key: CodingKey>: EncodingStreamKeyedMaking {
    let sink: EncodingStreamSink
    /// How many containers were open below this one.
    let level: Int

    var codingPath: [any CodingKey] {
        sink.failed = true
        return []
    }

    /// Writes `key` (this container must be the innermost open one).
    @inline(__always)
    private func member(_ key: Key) throws {
        try sink.key(key.stringValue, level: level)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try member(key)
        sink.writer.writeNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try member(key)
        sink.writer.write(value)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try sink.member(key.stringValue, value, level: level)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try member(key)
        try sink.write(value)
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try member(key)
        try sink.write(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        try sink.member(key.stringValue, value, level: level)
    }

    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try member(key)
        sink.write(integer: value)
    }

    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try member(key)
        sink.write(integer: value)
    }

    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try member(key)
        sink.write(integer: value)
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try member(key)
        sink.write(integer: value)
    }

    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try member(key)
        sink.write(integer: value)
    }

    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try member(key)
        sink.write(integer: value)
    }

    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try member(key)
        sink.write(integer: value)
    }

    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try member(key)
        sink.write(integer: value)
    }

    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try member(key)
        sink.write(integer: value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try member(key)
        try sink.write(value)
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        sink.failed = true
        return KeyedEncodingContainer(EncodingStreamKeyedContainer<NestedKey>(sink: sink, level: -2))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        sink.failed = true
        return EncodingStreamUnkeyedContainer(sink: sink, level: -2)
    }

    mutating func superEncoder() -> any Encoder {
        sink.failed = true
        return EncodingStream(sink: sink)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        sink.failed = true
        return EncodingStream(sink: sink)
    }
}

/// The keys of one of a stream's open objects with many members (``EncodingStreamSink``), by a hash of
/// their escaped bytes: whether a key repeats one of them is then found in about the same time
/// for the hundred-thousandth key as for the tenth, where a scan of all the object's keys would
/// make a large object (a `[String: T]` of 100,000 entries) take quadratic time.
///
/// An entry is a position in the sink's key spans; a match counts only when the caller finds the
/// bytes there the same as the new key's (hashes collide). Emptied when its object closes
/// (``removeAll()``), so it holds no more than the keys of that object.
final class EncodingStreamKeyIndex {
    /// Open addressing, linear probing: each slot a span position plus one (`0` when empty).
    private var positions: [Int] = []
    /// The hash of each slot's key.
    private var hashes: [Int] = []
    /// The number of slots in use.
    private var used = 0
    /// Where its object's keys begin in the sink's key spans.
    var keyStart = 0

    /// Forgets every entry (its object is closed); a large table is let go.
    func removeAll() {
        guard used > 0 else { return }
        if positions.count > 4096 {
            positions = []
            hashes = []
        } else {
            for index in positions.indices { positions[index] = 0 }
        }
        used = 0
    }

    /// The hash of a key's escaped bytes.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }

    /// Adds the key at span `position`, whose bytes hash to `hash`.
    func insert(position: Int, hash: Int) {
        if (used &+ 1) &* 2 > positions.count { grow() }
        place(position &+ 1, hash: hash)
        used &+= 1
    }

    /// Whether `matches` is true of a position listed with `hash`.
    func contains(hash: Int, where matches: (Int) -> Bool) -> Bool {
        guard used > 0 else { return false }
        let mask = positions.count &- 1
        var slot = hash & mask
        while positions[slot] != 0 {
            if hashes[slot] == hash, matches(positions[slot] &- 1) { return true }
            slot = (slot &+ 1) & mask
        }
        return false
    }

    private func place(_ entry: Int, hash: Int) {
        let mask = positions.count &- 1
        var slot = hash & mask
        while positions[slot] != 0 { slot = (slot &+ 1) & mask }
        positions[slot] = entry
        hashes[slot] = hash
    }

    private func grow() {
        let old = (positions, hashes)
        let size = Swift.max(64, positions.count &* 2)
        positions = Array(repeating: 0, count: size)
        hashes = Array(repeating: 0, count: size)
        for (entry, hash) in zip(old.0, old.1) where entry != 0 { place(entry, hash: hash) }
    }
}

/// A keyed container of a stream that a ``EncodingStreamKeyedMaker`` can make.
protocol EncodingStreamKeyedMaking: KeyedEncodingContainerProtocol {
    /// A container writing into `sink`, with `level` containers open below it.
    init(sink: EncodingStreamSink, level: Int)
}

/// What ``EncodingStreamShapes`` keeps of every ``EncodingStreamKeyedMaker``, whatever its key type.
class EncodingStreamKeyedMakerBase {
    /// Drops the container kept for reuse (it holds the sink): called when each encode is over.
    func forget() {}
}

/// The type of what a ``EncodingStreamKeyedMaker`` makes: `KeyedEncodingContainer` (the only conformance),
/// named through a generic parameter of the maker, whose metadata the maker's class then has at
/// hand. Named in code generic over the key, `KeyedEncodingContainer<Key>` is a type of the
/// standard library whose size and copying are only known from metadata the run time looks up
/// in its caches (as costly as the container the maker saves).
protocol EncodingStreamKeyedBoxing {
    associatedtype Key: CodingKey
    /// Wraps `container` (the standard library's own initializer).
    init<Container: KeyedEncodingContainerProtocol>(_ container: Container) where Container.Key == Key
}

extension KeyedEncodingContainer: EncodingStreamKeyedBoxing {}

/// The maker of the stream's keyed containers for the key type `Key`.
typealias EncodingStreamKeyedMakerOf<Key: CodingKey> = EncodingStreamKeyedMaker<
    EncodingStreamKeyedContainer<Key>, KeyedEncodingContainer<Key>
>

/// Makes the keyed containers of one key type (``EncodingStream/container(keyedBy:)``, kept in ``EncodingStreamShapes``):
/// `Made` is `KeyedEncodingContainer<Container.Key>` (see ``EncodingStreamKeyedBoxing``).
///
/// Generic over the container type, not the key: the container's metadata and its conformance
/// are then arguments of the maker's own class, which a call to ``make(sink:level:)`` reads
/// from the maker, rather than being looked up in the run time's caches for every container
/// (a large part of what making a keyed container costs).
final class EncodingStreamKeyedMaker<Container: EncodingStreamKeyedMaking, Made: EncodingStreamKeyedBoxing>:
    EncodingStreamKeyedMakerBase
where Made.Key == Container.Key {
    /// The last container made in the current encode (when ``isKept``), and its level. A
    /// container is nothing but its sink and its level (no state of its own), so the next one
    /// at that level (the next element of an array, say) is this same value, handed out again:
    /// the standard library's box around a new one costs a run-time metadata look-up, an
    /// allocation and a free. Dropped when the encode is over (``forget()``), so none outlives it.
    ///
    /// In memory of its own rather than in an optional property, whose every change would look
    /// `Optional<Made>`'s metadata up. Lifetime: allocated by `init`, freed by `deinit`; holds
    /// an initialised value exactly while `isKept`; no pointer to it leaves this class. Like the
    /// rest of a sink, used by one encode on one thread at a time (an `Encoder` is not `Sendable`).
    private let slot = UnsafeMutablePointer<Made>.allocate(capacity: 1)
    @exclusivity(unchecked) private var isKept = false
    @exclusivity(unchecked) private var keptLevel = 0

    deinit {
        forget()
        slot.deallocate()
    }

    /// A container at `level` (the number of containers open below it) writing into `sink`.
    /// Never inlined: inlined into a caller generic over the key, it would look the types up again.
    @inline(never)
    func make(sink: EncodingStreamSink, level: Int) -> Made {
        if isKept {
            if level == keptLevel { return slot.pointee }
            slot.deinitialize(count: 1)
        }
        slot.initialize(to: Made(Container(sink: sink, level: level)))
        isKept = true
        keptLevel = level
        return slot.pointee
    }

    override func forget() {
        if isKept {
            isKept = false
            slot.deinitialize(count: 1)
        }
    }
}
