import Foundation

/// A keyed container's object and the one implementation of what it reads, for
/// ``SourceKeyedContainer`` (which maps the `KeyedDecodingContainerProtocol` calls
/// here). Generic over the decoder only, so each source's final fields class,
/// which inherits it, gets it specialised for its source.
class KeyedContainerFields<Owner: SourceDecoder> {
    typealias Source = Owner.Source
    typealias Value = Owner.Source.Value

    final let decoder: Owner
    /// The decode's source (the decoder's own; kept here so that reads borrow it).
    final let source: Source
    final let object: Source.Object
    final let node: DecodingPath
    /// The source's lookup hint (see ``BodySource/value(in:forKey:hint:)``). Unchecked:
    /// only ``lookup(_:)`` touches it, for the length of a lookup, which runs no user code.
    @exclusivity(unchecked) final var hint = MemberHint()

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
