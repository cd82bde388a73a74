import Foundation

/// The keyed container over an object of any ``BodySource``: implemented once,
/// in the extension below; a source binds it to a class (`DecoderBindings.swift`).
///
/// Containers are classes: the standard library's container box copies its
/// container for every call, and copying one reference is cheaper than copying
/// the fields. A container owns its decoder and its object, so one a user type
/// keeps stays valid.
protocol SourceKeyedContainer: AnyObject, KeyedDecodingContainerProtocol {
    associatedtype Owner: SourceDecoder
    typealias Source = Owner.Source

    /// The decode this container belongs to.
    var decoder: Owner { get }
    /// The object read.
    var object: Source.Object { get }
    /// Where the object is.
    var node: DecodingPath { get }
    /// The source's lookup hint (see ``BodySource/value(in:forKey:hint:)``).
    var hint: Int { get set }
}

extension SourceKeyedContainer {
    var codingPath: [any CodingKey] { node.codingPath }

    /// The member names that make keys, sorted so that errors come in the same
    /// order on every run (a dictionary's own order changes from run to run).
    var allKeys: [Key] {
        Source.keys(of: object).sorted().compactMap { Key(stringValue: $0) }
    }

    /// The member named `key`, if present (one lookup).
    @inline(__always)
    func lookup(_ key: Key) -> Source.Value? {
        Source.value(in: object, forKey: key.stringValue, hint: &hint)
    }

    func contains(_ key: Key) -> Bool {
        lookup(key) != nil
    }

    /// The member named `key`, or `keyNotFound`.
    @inline(__always)
    func member(_ key: Key) throws -> Source.Value {
        if let value = lookup(key) { return value }
        throw DecodingError.keyNotFound(
            key,
            .init(
                codingPath: node.codingPath,
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."
            )
        )
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        Source.isNull(try member(key))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try bool(member(key), key)
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try string(member(key), key)
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try double(member(key), key)
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.core.decodeFloat(member(key), node, .key(key))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(member(key), key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(member(key), key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(member(key), key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(member(key), key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(member(key), key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(member(key), key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(member(key), key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(member(key), key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(member(key), key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(member(key), key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decodeValue(T.self, member(key), node, .key(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = present(key) else { return nil }
        return try bool(value, key)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = present(key) else { return nil }
        return try string(value, key)
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = present(key) else { return nil }
        return try double(value, key)
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let value = present(key) else { return nil }
        return try decoder.core.decodeFloat(value, node, .key(key))
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try presentInteger(key) }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = present(key) else { return nil }
        return try decoder.decodeValue(T.self, value, node, .key(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try member(key)
        let child = node.appending(.key(key))
        let object = try decoder.core.objectContainer(value, child)
        return decoder.keyedContainer(object, child, keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let value = try member(key)
        let child = node.appending(.key(key))
        let array = try decoder.core.arrayContainer(value, child)
        return Owner.Unkeyed(decoder: decoder, array: array, node: child)
    }

    func superDecoder() throws -> any Decoder {
        superDecoder(named: MemberKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        superDecoder(named: key)
    }

    private func superDecoder(named key: any CodingKey) -> any Decoder {
        let value = Source.value(in: object, forKey: key.stringValue, hint: &hint) ?? Source.null
        return decoder.superDecoder(value, node.appending(.key(key)))
    }

    // MARK: One lookup per member

    /// The member named `key` when present and not null (`decodeIfPresent`'s one lookup).
    @inline(__always)
    private func present(_ key: Key) -> Source.Value? {
        guard let value = lookup(key), !Source.isNull(value) else { return nil }
        return value
    }

    @inline(__always)
    private func bool(_ value: Source.Value, _ key: Key) throws -> Bool {
        if let result = Source.bool(value) { return result }
        return try decoder.core.decodeBool(value, node, .key(key))
    }

    @inline(__always)
    private func string(_ value: Source.Value, _ key: Key) throws -> String {
        if let result = Source.string(value) { return result }
        return try decoder.core.decodeString(value, node, .key(key))
    }

    @inline(__always)
    private func double(_ value: Source.Value, _ key: Key) throws -> Double {
        if case .double(let result)? = Source.number(value), result.isFinite { return result }
        return try decoder.core.decodeDouble(value, node, .key(key))
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ value: Source.Value, _ key: Key) throws -> T {
        if case .int(let int)? = Source.number(value), let result = T(exactly: int) { return result }
        return try decoder.core.decodeInteger(T.self, value, node, .key(key))
    }

    @inline(__always)
    private func presentInteger<T: FixedWidthInteger>(_ key: Key) throws -> T? {
        guard let value = present(key) else { return nil }
        return try integer(value, key) as T
    }
}
