/// An unkeyed container of a stream (see ``EncodingStreamSink``): elements are written as they are
/// encoded, every concrete `encode` by a method of its own (none through a generic default).
struct EncodingStreamUnkeyedContainer: UnkeyedEncodingContainer {
    let sink: EncodingStreamSink
    /// How many containers were open below this one.
    let level: Int
    private(set) var count = 0

    init(sink: EncodingStreamSink, level: Int) {
        self.sink = sink
        self.level = level
    }

    var codingPath: [any CodingKey] {
        sink.failed = true
        return []
    }

    /// Checks that this container is the innermost open one, and counts the element.
    @inline(__always)
    private mutating func element() throws {
        try sink.element(level: level)
        count &+= 1
    }

    mutating func encodeNil() throws {
        try element()
        sink.writer.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        try element()
        sink.writer.write(value)
    }

    mutating func encode(_ value: String) throws {
        try element()
        sink.writer.write(value)
    }

    mutating func encode(_ value: Double) throws {
        try element()
        try sink.write(value)
    }

    mutating func encode(_ value: Float) throws {
        try element()
        try sink.write(value)
    }

    mutating func encode(_ value: Int) throws {
        try element()
        sink.writer.write(value)
    }

    mutating func encode(_ value: Int8) throws {
        try element()
        sink.write(integer: value)
    }

    mutating func encode(_ value: Int16) throws {
        try element()
        sink.write(integer: value)
    }

    mutating func encode(_ value: Int32) throws {
        try element()
        sink.write(integer: value)
    }

    mutating func encode(_ value: Int64) throws {
        try element()
        sink.write(integer: value)
    }

    mutating func encode(_ value: UInt) throws {
        try element()
        sink.write(integer: value)
    }

    mutating func encode(_ value: UInt8) throws {
        try element()
        sink.write(integer: value)
    }

    mutating func encode(_ value: UInt16) throws {
        try element()
        sink.write(integer: value)
    }

    mutating func encode(_ value: UInt32) throws {
        try element()
        sink.write(integer: value)
    }

    mutating func encode(_ value: UInt64) throws {
        try element()
        sink.write(integer: value)
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try element()
        try sink.write(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        sink.failed = true
        return KeyedEncodingContainer(EncodingStreamKeyedContainer<NestedKey>(sink: sink, level: -2))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        sink.failed = true
        return EncodingStreamUnkeyedContainer(sink: sink, level: -2)
    }

    mutating func superEncoder() -> any Encoder {
        sink.failed = true
        return EncodingStream(sink: sink)
    }
}
