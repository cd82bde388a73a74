import Foundation

/// What a keyed container reads: ``DecodingKeyedFields``, through one final
/// class per source (so its methods are specialised for the source), which
/// ``DecodingKeyedContainer`` calls.
protocol DecodingMemberReader: AnyObject {
    /// The coding path of the object.
    var objectCodingPath: [any CodingKey] { get }
    /// The member names of the object.
    var memberNames: [String] { get }
    /// Whether the object has a member named `name`.
    func hasMember(_ name: String) -> Bool
    // The reads take the member's name; `key` makes the container's key, only for an
    // error or a path (see ``DecodingKeyedFields``).
    /// Whether the member `name` is null (`keyNotFound` when missing).
    func memberIsNull(_ name: String, _ key: () -> any CodingKey) throws -> Bool
    /// The member `name` as each type; `nil` only when `ifPresent` and it is missing or null.
    func bool(_ name: String, ifPresent: Bool, _ key: () -> any CodingKey) throws -> Bool?
    func string(_ name: String, ifPresent: Bool, _ key: () -> any CodingKey) throws -> String?
    func double(_ name: String, ifPresent: Bool, _ key: () -> any CodingKey) throws -> Double?
    func float(_ name: String, ifPresent: Bool, _ key: () -> any CodingKey) throws -> Float?
    func int(_ name: String, ifPresent: Bool, _ key: () -> any CodingKey) throws -> Int?
    func integer<T: FixedWidthInteger>(
        _ type: T.Type, _ name: String, ifPresent: Bool, _ key: () -> any CodingKey
    ) throws -> T?
    associatedtype Value
    /// The member `name`, or `keyNotFound`.
    func requiredMember(_ name: String, _ key: () -> any CodingKey) throws -> Value
    /// The member `name`; `nil` when it is missing or null.
    func presentMember(_ name: String) -> Value?
    /// The member `value` (found at `key`) as `T`.
    func decodeMember<T: Decodable>(_ type: T.Type, _ value: Value, _ key: any CodingKey) throws -> T
    /// Nested containers and decoders of the member `key`.
    func nestedKeyed<NestedKey: CodingKey>(_ type: NestedKey.Type, _ key: any CodingKey) throws
        -> KeyedDecodingContainer<NestedKey>
    func nestedUnkeyed(_ key: any CodingKey) throws -> any UnkeyedDecodingContainer
    func memberDecoder(_ key: any CodingKey) -> any Decoder
}

/// The keyed container over an object of any ``DecodingSource``.
///
/// The work is done once, in ``DecodingKeyedFields`` (generic over the decoder
/// only, and specialised for each source through its final subclass, `Fields`);
/// this struct maps each `KeyedDecodingContainerProtocol` call onto it, one call
/// deep, passing the key as `any CodingKey` (a function generic over a type with
/// an open parameter is not specialised). `Fields` is a non-generic class, so its
/// conformance is found without a run-time lookup: a container class generic over
/// `Key` conforming to the reader protocol would cost a witness-table lookup per call.
///
/// The standard library's box copies its container for every call: this one is a
/// single reference. A container owns its decoder and its object, so one a user
/// type keeps stays valid.
struct DecodingKeyedContainer<Fields: DecodingMemberReader, Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: Fields

    var codingPath: [any CodingKey] { fields.objectCodingPath }

    /// The member names that make keys, sorted so that errors come in the same
    /// order on every run (a dictionary's own order changes from run to run).
    var allKeys: [Key] { fields.memberNames.sorted().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { fields.hasMember(key.stringValue) }

    func decodeNil(forKey key: Key) throws -> Bool { try fields.memberIsNull(key.stringValue) { key } }

    /// `keyNotFound` for `key` (never thrown: a decode with `ifPresent: false` throws it itself).
    private func missing(_ key: Key) -> DecodingError {
        .keyNotFound(
            key,
            .init(
                codingPath: codingPath,
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        if let result = try fields.bool(key.stringValue, ifPresent: false, { key }) { return result }
        throw missing(key)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        if let result = try fields.string(key.stringValue, ifPresent: false, { key }) { return result }
        throw missing(key)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        if let result = try fields.double(key.stringValue, ifPresent: false, { key }) { return result }
        throw missing(key)
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        if let result = try fields.float(key.stringValue, ifPresent: false, { key }) { return result }
        throw missing(key)
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        if let result = try fields.int(key.stringValue, ifPresent: false, { key }) { return result }
        throw missing(key)
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeInteger(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeInteger(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeInteger(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeInteger(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeInteger(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeInteger(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeInteger(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeInteger(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeInteger(key) }

    private func decodeInteger<T: FixedWidthInteger>(_ key: Key) throws -> T {
        if let result = try fields.integer(T.self, key.stringValue, ifPresent: false, { key }) { return result }
        throw missing(key)
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // Two calls, so that the lookup runs specialised for the source and the generic
        // part has no `T?` or `Value?` (a run-time metadata lookup each).
        try fields.decodeMember(T.self, try fields.requiredMember(key.stringValue) { key }, key)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try fields.bool(key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try fields.string(key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try fields.double(key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try fields.float(key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try fields.int(key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try fields.integer(Int8.self, key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try fields.integer(Int16.self, key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try fields.integer(Int32.self, key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try fields.integer(Int64.self, key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try fields.integer(UInt.self, key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try fields.integer(UInt8.self, key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try fields.integer(UInt16.self, key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try fields.integer(UInt32.self, key.stringValue, ifPresent: true) { key }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try fields.integer(UInt64.self, key.stringValue, ifPresent: true) { key }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        // As `decode`: the lookup runs specialised, and no `T?` is made before the end.
        guard let value = fields.presentMember(key.stringValue) else { return nil }
        return try fields.decodeMember(T.self, value, key)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try fields.nestedKeyed(NestedKey.self, key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try fields.nestedUnkeyed(key)
    }

    func superDecoder() throws -> any Decoder { fields.memberDecoder(DecodingMemberKey("super")) }

    func superDecoder(forKey key: Key) throws -> any Decoder { fields.memberDecoder(key) }
}

/// A keyed container's object and the one implementation of what it reads, for
/// ``DecodingKeyedContainer`` (which maps the `KeyedDecodingContainerProtocol` calls
/// here). Generic over the decoder only, so each source's final fields class,
/// which inherits it, gets it specialised for its source.
class DecodingKeyedFields<Owner: DecodingFrontEnd> {
    typealias Source = Owner.Source
    typealias Value = Owner.Source.Value

    final let decoder: Owner
    /// The decode's source (the decoder's own; kept here so that reads borrow it).
    final let source: Source
    final let object: Source.Object
    final let node: DecodingPath
    /// The source's lookup hint (see ``DecodingSource/value(in:forKey:hint:)``). Unchecked:
    /// only ``lookup(_:)`` touches it, for the length of a lookup, which runs no user code.
    @exclusivity(unchecked) final var hint = DecodingMemberHint()

    init(decoder: Owner, object: Source.Object, node: DecodingPath) {
        self.decoder = decoder
        self.source = decoder.core.source
        self.object = object
        self.node = node
    }

    final var objectCodingPath: [any CodingKey] { node.codingPath }

    final var memberNames: [String] { source.keys(of: object) }

    /// The member named `name`, if present (one lookup).
    @inline(__always)
    final func lookup(_ name: String) -> Source.Value? {
        source.value(in: object, forKey: name, hint: &hint)
    }

    final func hasMember(_ name: String) -> Bool {
        lookup(name) != nil
    }

    // The reads below take the member's name, and its key only as a closure that
    // makes it, called for an error or a path: a container's `Key` made into an
    // `any CodingKey` for every read would cost four value-witness calls (a box to
    // allocate, copy, project and destroy), in code that is generic over `Key`.

    /// The member `name`: `nil` when `ifPresent` and it is missing or null; otherwise
    /// the value, or `keyNotFound` when it is missing.
    @inline(__always)
    final func member(_ name: String, ifPresent: Bool, _ key: () -> any CodingKey) throws -> Source.Value? {
        if let value = lookup(name) {
            if ifPresent && source.isNull(value) { return nil }
            return value
        }
        if ifPresent { return nil }
        throw keyNotFound(key())
    }

    /// `keyNotFound` for `key`.
    final func keyNotFound(_ key: any CodingKey) -> DecodingError {
        .keyNotFound(
            key,
            .init(
                codingPath: node.codingPath,
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."
            )
        )
    }

    final func memberIsNull(_ name: String, _ key: () -> any CodingKey) throws -> Bool {
        guard let value = try member(name, ifPresent: false, key) else { return true }
        return source.isNull(value)
    }

    final func bool(_ name: String, ifPresent: Bool, _ key: () -> any CodingKey) throws -> Bool? {
        guard let value = try member(name, ifPresent: ifPresent, key) else { return nil }
        if let result = source.bool(value) { return result }
        return try decoder.core.decodeBool(value, node, .key(key()))
    }

    final func string(_ name: String, ifPresent: Bool, _ key: () -> any CodingKey) throws -> String? {
        guard let value = try member(name, ifPresent: ifPresent, key) else { return nil }
        if let result = source.string(value) { return result }
        return try decoder.core.decodeString(value, node, .key(key()))
    }

    final func double(_ name: String, ifPresent: Bool, _ key: () -> any CodingKey) throws -> Double? {
        guard let value = try member(name, ifPresent: ifPresent, key) else { return nil }
        if case .double(let result)? = source.number(value), result.isFinite { return result }
        return try decoder.core.decodeDouble(value, node, .key(key()))
    }

    final func float(_ name: String, ifPresent: Bool, _ key: () -> any CodingKey) throws -> Float? {
        guard let value = try member(name, ifPresent: ifPresent, key) else { return nil }
        return try decoder.core.decodeFloat(value, node, .key(key()))
    }

    /// `Int`, the common width, without the generic: a `T?` of an unknown `T` costs a
    /// run-time metadata lookup per call.
    final func int(_ name: String, ifPresent: Bool, _ key: () -> any CodingKey) throws -> Int? {
        guard let value = try member(name, ifPresent: ifPresent, key) else { return nil }
        if case .int(let int)? = source.number(value), let result = Int(exactly: int) { return result }
        return try decoder.core.decodeInteger(Int.self, value, node, .key(key()))
    }

    final func integer<T: FixedWidthInteger>(
        _ type: T.Type, _ name: String, ifPresent: Bool, _ key: () -> any CodingKey
    ) throws -> T? {
        guard let value = try member(name, ifPresent: ifPresent, key) else { return nil }
        if case .int(let int)? = source.number(value), let result = T(exactly: int) { return result }
        return try decoder.core.decodeInteger(T.self, value, node, .key(key()))
    }

    /// The member `name`, or `keyNotFound`. Not generic, so it runs specialised for the
    /// source: its `Value?` would cost a run-time metadata lookup in generic code.
    final func requiredMember(_ name: String, _ key: () -> any CodingKey) throws -> Source.Value {
        guard let value = lookup(name) else { throw keyNotFound(key()) }
        return value
    }

    /// The member `value` (found at `key`) as `T`.
    final func decodeMember<T: Decodable>(_ type: T.Type, _ value: Source.Value, _ key: any CodingKey) throws -> T {
        try decoder.decodeValue(T.self, value, node, .key(key))
    }

    /// The member `name`; `nil` when it is missing or null. Not generic, as ``requiredMember(_:_:)``.
    final func presentMember(_ name: String) -> Source.Value? {
        guard let value = lookup(name), !source.isNull(value) else { return nil }
        return value
    }

    final func nestedKeyed<NestedKey: CodingKey>(
        _ type: NestedKey.Type, _ key: any CodingKey
    ) throws -> KeyedDecodingContainer<NestedKey> {
        guard let value = try member(key.stringValue, ifPresent: false, { key }) else {
            throw DecodingError.valueNotFound(type, .init(codingPath: node.codingPath, debugDescription: ""))
        }
        let child = node.appending(.key(key))
        return try decoder.keyedContainer(value, child, keyedBy: NestedKey.self)
    }

    final func nestedUnkeyed(_ key: any CodingKey) throws -> any UnkeyedDecodingContainer {
        guard let value = try member(key.stringValue, ifPresent: false, { key }) else {
            throw DecodingError.valueNotFound([Any].self, .init(codingPath: node.codingPath, debugDescription: ""))
        }
        let child = node.appending(.key(key))
        let array = try decoder.core.arrayContainer(value, child)
        return Owner.Unkeyed(decoder: decoder, array: array, node: child)
    }

    final func memberDecoder(_ key: any CodingKey) -> any Decoder {
        let child = node.appending(.key(key))
        if let value = lookup(key.stringValue) { return decoder.superDecoder(value, child, source: source) }
        let null = Source.null
        return decoder.superDecoder(null.value, child, source: null.source)
    }
}

/// A keyed container type that is made from one source's fields: ``DecodingKeyedContainer``.
/// (Its primary associated types let a cached metatype be opened with `Key` and `Fields` known.)
protocol DecodingKeyedMaking<Key, Fields>: KeyedDecodingContainerProtocol {
    associatedtype Fields
    init(fields: Fields)
}

extension DecodingKeyedMaking {
    /// A container of this type over `fields`, as the standard library's wrapper. (Called on
    /// an opened existential metatype, so `Self`'s metadata and witness tables are given,
    /// not looked up: a static method of the generic struct would look them up again.)
    @inline(__always)
    static func container(_ fields: Fields) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Self(fields: fields))
    }
}

extension DecodingKeyedContainer: DecodingKeyedMaking {}

/// The keyed container type of each key type a source has made containers for on a
/// thread, so that making one (every `container(keyedBy:)`) does not ask the runtime again.
///
/// `DecodingKeyedContainer<Fields, Key>` is generic over the user's `Key`, which is only
/// known at run time: naming the type in `container(keyedBy:)` would look its metadata
/// and its conformance up in the runtime's tables on every call, most of what making a
/// container costs beyond the standard library's own box. Here the type is looked up
/// once per key type and kept, as an existential metatype (its metadata and witness
/// table), in a ``DecodingKeyedType`` found by the key type's identity. One table per
/// source and thread, lent by the thread's slot for each lookup: no lock (a table for the
/// whole process would take one for every container), no slot taken and given back.
final class DecodingKeyedTypes<Fields: DecodingMemberReader> {
    /// Unchecked: only ``container(_:keyedBy:tables:)`` touches it, on the table's own thread,
    /// for a look-up or an insertion that runs no other code.
    @exclusivity(unchecked) private var table = Table()

    /// A container of key type `Key` over `fields`, with the calling thread's table in `slot`.
    static func container<Key: CodingKey>(
        _ fields: Fields, keyedBy type: Key.Type, tables slot: ThreadSpare<DecodingKeyedTypes>
    ) -> KeyedDecodingContainer<Key> {
        let id = ObjectIdentifier(Key.self)
        // `AnyObject?` out of the closure: a `DecodingKeyedType<Key, Fields>?` would be looked up at run time.
        if let found = slot.withSpare({ $0?.table.type(for: id) }) {
            // The table holds, under `Key`'s identity, the `DecodingKeyedType<Key, Fields>` made
            // below for this `Key` and no other (checked in debug builds).
            return unsafeDowncast(found, to: DecodingKeyedType<Key, Fields>.self).container(fields)
        }
        // Once per key type and thread: look the type up, and keep it in the thread's table.
        let made = DecodingKeyedType<Key, Fields>()
        if slot.withSpare({ $0 == nil }) { slot.keep(DecodingKeyedTypes()) }
        slot.withSpare { $0?.table.insert(made, for: id) }
        return made.container(fields)
    }

    /// Open addressing by the key type's identity (types are never removed).
    private struct Table {
        private var ids: [ObjectIdentifier?] = Array(repeating: nil, count: 16)
        private var types: [AnyObject?] = Array(repeating: nil, count: 16)
        private var count = 0

        @inline(__always)
        private func slot(_ id: ObjectIdentifier) -> Int {
            // Metadata addresses are aligned: mix the higher bits in.
            let bits = UInt(bitPattern: Int(bitPattern: id))
            return Int(truncatingIfNeeded: (bits >> 4) ^ (bits >> 12)) & (ids.count - 1)
        }

        func type(for id: ObjectIdentifier) -> AnyObject? {
            var index = slot(id)
            while let stored = ids[index] {
                if stored == id { return types[index] }
                index = (index + 1) & (ids.count - 1)
            }
            return nil
        }

        mutating func insert(_ type: AnyObject, for id: ObjectIdentifier) {
            if self.type(for: id) != nil { return }
            if 2 * (count + 1) > ids.count { grow() }
            var index = slot(id)
            while ids[index] != nil { index = (index + 1) & (ids.count - 1) }
            ids[index] = id
            types[index] = type
            count += 1
        }

        private mutating func grow() {
            var old: [(ObjectIdentifier, AnyObject)] = []
            for (id, type) in zip(ids, types) {
                if let id, let type { old.append((id, type)) }
            }
            ids = Array(repeating: nil, count: 2 * ids.count)
            types = Array(repeating: nil, count: ids.count)
            count = 0
            for (id, type) in old { insert(type, for: id) }
        }
    }
}

/// The keyed container type of one key type over one source's fields, looked up once.
final class DecodingKeyedType<Key: CodingKey, Fields: DecodingMemberReader> {
    /// `DecodingKeyedContainer<Fields, Key>.self`: its metadata and witness table.
    private let type: any DecodingKeyedMaking<Key, Fields>.Type = DecodingKeyedContainer<Fields, Key>.self

    /// A container over `fields` (the runtime is not asked for the type again).
    @inline(__always)
    func container(_ fields: Fields) -> KeyedDecodingContainer<Key> {
        type.container(fields)
    }
}
