import Foundation

/// What a keyed container reads: ``KeyedContainerFields``, through one final
/// class per source (so its methods are specialised for the source), which
/// ``SourceKeyedContainer`` calls.
protocol KeyedMemberReader: AnyObject {
    /// The coding path of the object.
    var objectCodingPath: [any CodingKey] { get }
    /// The member names of the object.
    var memberNames: [String] { get }
    /// Whether the object has a member named `name`.
    func hasMember(_ name: String) -> Bool
    // The reads take the member's name; `key` makes the container's key, only for an
    // error or a path (see ``KeyedContainerFields``).
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

/// The keyed container over an object of any ``BodySource``.
///
/// The work is done once, in ``KeyedContainerFields`` (generic over the decoder
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
struct SourceKeyedContainer<Fields: KeyedMemberReader, Key: CodingKey>: KeyedDecodingContainerProtocol {
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

    func superDecoder() throws -> any Decoder { fields.memberDecoder(MemberKey("super")) }

    func superDecoder(forKey key: Key) throws -> any Decoder { fields.memberDecoder(key) }
}
