/// A keyed container of a stream (see ``StreamSink``): members are written as they are encoded.
///
/// Every concrete `encode` and `encodeIfPresent` is its own method here, so none goes
/// through the standard library's defaults (which box the value as a generic `Encodable`
/// and look up `Optional`'s metadata at run time); `nil` through `encodeIfPresent` writes nothing.
struct StreamKeyedContainer<Key: CodingKey>: StreamKeyedMaking {
    let sink: StreamSink
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
        return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(sink: sink, level: -2))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        sink.failed = true
        return StreamUnkeyedContainer(sink: sink, level: -2)
    }

    mutating func superEncoder() -> any Encoder {
        sink.failed = true
        return StreamEncoder(sink: sink)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        sink.failed = true
        return StreamEncoder(sink: sink)
    }
}
