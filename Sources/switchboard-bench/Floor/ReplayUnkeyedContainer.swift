import Foundation
import Switchboard

/// The unkeyed container of a ``ReplayDecoder``: its `count` recorded, `isAtEnd`
/// answered from the presence queue, every element from the queue of its kind.
struct ReplayUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: ReplayDecoder
    let count: Int?
    var currentIndex = 0

    init(decoder: ReplayDecoder, count: Int?) {
        self.decoder = decoder
        self.count = count
    }

    var codingPath: [any CodingKey] { [] }
    var isAtEnd: Bool { (try? decoder.presence.take()) ?? true }

    /// Moves on one element and returns `value`.
    @inline(__always)
    private mutating func advance<T>(_ value: T) -> T {
        currentIndex += 1
        return value
    }

    mutating func decodeNil() throws -> Bool {
        let isNil = try decoder.presence.take()
        if isNil { currentIndex += 1 }
        return isNil
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { advance(try decoder.bools.take()) }
    mutating func decode(_ type: String.Type) throws -> String { advance(try decoder.strings.take()) }
    mutating func decode(_ type: Double.Type) throws -> Double { advance(try decoder.doubles.take()) }
    mutating func decode(_ type: Float.Type) throws -> Float { advance(try decoder.otherScalar(Float.self)) }
    mutating func decode(_ type: Int.Type) throws -> Int { advance(try decoder.ints.take()) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { advance(try decoder.otherScalar(Int8.self)) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { advance(try decoder.otherScalar(Int16.self)) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { advance(try decoder.otherScalar(Int32.self)) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { advance(try decoder.otherScalar(Int64.self)) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { advance(try decoder.otherScalar(UInt.self)) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { advance(try decoder.otherScalar(UInt8.self)) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { advance(try decoder.otherScalar(UInt16.self)) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { advance(try decoder.otherScalar(UInt32.self)) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { advance(try decoder.otherScalar(UInt64.self)) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { advance(try decoder.value(T.self)) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.nestedKeyed.take()
        currentIndex += 1
        return KeyedDecodingContainer(ReplayKeyedContainer<NestedKey>(decoder: decoder))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let count = try decoder.unkeyed.take()
        currentIndex += 1
        return ReplayUnkeyedContainer(decoder: decoder, count: count)
    }

    mutating func superDecoder() throws -> any Decoder {
        try decoder.superDecoders.take()
        currentIndex += 1
        return decoder
    }
}
