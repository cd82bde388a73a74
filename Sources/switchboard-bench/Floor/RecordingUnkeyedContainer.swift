import Foundation
import Switchboard

/// The unkeyed container of a ``RecordingDecoder``: forwards every call to the real
/// container and records the answer in the ``ReplayDecoder``'s queue of its kind.
struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    var real: any UnkeyedDecodingContainer
    let tape: ReplayDecoder

    var codingPath: [any CodingKey] { real.codingPath }
    var count: Int? { real.count }
    var currentIndex: Int { real.currentIndex }
    var isAtEnd: Bool {
        let atEnd = real.isAtEnd
        tape.presence.record(atEnd)
        return atEnd
    }

    mutating func decodeNil() throws -> Bool {
        var real = self.real
        defer { self.real = real }
        return try tape.record(\.presence, placeholder: false) { try real.decodeNil() }
    }

    /// Forwards one scalar call, recording its answer in `queue`.
    private mutating func scalar<T>(
        _ queue: ReferenceWritableKeyPath<ReplayDecoder, ReplayQueue<T>>, _ placeholder: T,
        _ call: (inout any UnkeyedDecodingContainer) throws -> T
    ) throws -> T {
        var real = self.real
        defer { self.real = real }
        return try tape.record(queue, placeholder: placeholder) { try call(&real) }
    }

    /// Forwards one of the rarer scalar overloads.
    private mutating func other<T>(_ call: (inout any UnkeyedDecodingContainer) throws -> T) throws -> T {
        var real = self.real
        defer { self.real = real }
        return try tape.recordOther { try call(&real) }
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(\.bools, false) { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(\.strings, "") { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(\.doubles, 0) { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar(\.ints, 0) { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try other { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try other { try $0.decode(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try other { try $0.decode(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try other { try $0.decode(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try other { try $0.decode(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try other { try $0.decode(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try other { try $0.decode(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try other { try $0.decode(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try other { try $0.decode(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try other { try $0.decode(type) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        var real = self.real
        defer { self.real = real }
        let decoded = try tape.recordGeneric(T.self) { leaf in
            leaf ? try real.decode(T.self) : try real.decode(RecordedValue<T>.self).value
        }
        guard let decoded else { throw FloorMismatch(expected: "\(T.self)") }
        return decoded
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        var real = self.real
        defer { self.real = real }
        let container = try tape.recordStructure(\.nestedKeyed) {
            try real.nestedContainer(keyedBy: NestedKey.self)
        }
        return KeyedDecodingContainer(RecordingKeyedContainer<NestedKey>(real: container, tape: tape))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        var real = self.real
        defer { self.real = real }
        let container = try tape.recordUnkeyed {
            try real.nestedUnkeyedContainer()
        }
        return RecordingUnkeyedContainer(real: container, tape: tape)
    }

    mutating func superDecoder() throws -> any Decoder {
        var real = self.real
        defer { self.real = real }
        let decoder = try tape.recordStructure(\.superDecoders) { try real.superDecoder() }
        return RecordingDecoder(real: decoder, tape: tape)
    }
}
