import Foundation

/// The `Encoder` of one value in a stream (see ``EncodingStreamSink``); also its single-value container.
final class EncodingStream: Encoder, SingleValueEncodingContainer {
    let sink: EncodingStreamSink
    /// Whether a container or a value was asked for (unchecked: see ``EncodingStreamSink``).
    @exclusivity(unchecked) var used = false

    init(sink: EncodingStreamSink) {
        self.sink = sink
    }

    var codingPath: [any CodingKey] {
        sink.failed = true
        return []
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Marks this encoder used; a second use makes the stream give up.
    @inline(__always)
    private func use() -> Bool {
        if used {
            sink.failed = true
            return false
        }
        used = true
        return true
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let level = sink.level
        if use() { sink.push(object: true) }
        if sink.finished {
            // An encoder a value kept, used after its encode: a container of its own, not one a
            // maker would keep (holding the sink, which holds the maker, from then on).
            return KeyedEncodingContainer(EncodingStreamKeyedContainer<Key>(sink: sink, level: level))
        }
        if let found = sink.shapes.maker(for: Key.self) {
            return found.make(sink: sink, level: level)
        }
        let maker = EncodingStreamKeyedMakerOf<Key>()
        sink.shapes.add(maker, for: Key.self)
        return maker.make(sink: sink, level: level)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let level = sink.level
        if use() { sink.push(object: false) }
        return EncodingStreamUnkeyedContainer(sink: sink, level: level)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// Checks that this encoder may write its one value now.
    @inline(__always)
    private func single() throws {
        if sink.finished { return }
        guard use() else { throw sink.giveUp() }
    }

    func encodeNil() throws {
        try single()
        sink.writer.writeNull()
    }

    func encode(_ value: Bool) throws {
        try single()
        sink.writer.write(value)
    }

    func encode(_ value: String) throws {
        try single()
        sink.writer.write(value)
    }

    func encode(_ value: Double) throws {
        try single()
        try sink.write(value)
    }

    func encode(_ value: Float) throws {
        try single()
        try sink.write(value)
    }

    func encode(_ value: Int) throws {
        try single()
        sink.writer.write(value)
    }

    func encode(_ value: Int8) throws {
        try single()
        sink.write(integer: value)
    }

    func encode(_ value: Int16) throws {
        try single()
        sink.write(integer: value)
    }

    func encode(_ value: Int32) throws {
        try single()
        sink.write(integer: value)
    }

    func encode(_ value: Int64) throws {
        try single()
        sink.write(integer: value)
    }

    func encode(_ value: UInt) throws {
        try single()
        sink.write(integer: value)
    }

    func encode(_ value: UInt8) throws {
        try single()
        sink.write(integer: value)
    }

    func encode(_ value: UInt16) throws {
        try single()
        sink.write(integer: value)
    }

    func encode(_ value: UInt32) throws {
        try single()
        sink.write(integer: value)
    }

    func encode(_ value: UInt64) throws {
        try single()
        sink.write(integer: value)
    }

    func encode<T: Encodable>(_ value: T) throws {
        try single()
        try sink.write(value)
    }
}
