import Foundation
import Switchboard

/// The keyed container of a ``ReplayDecoder``: every call takes the next answer of
/// its kind, whatever the key (the recording was made with the same calls in the same order).
struct ReplayKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ReplayDecoder

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { ((try? decoder.keys.take()) ?? []).compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { (try? decoder.presence.take()) ?? false }
    func decodeNil(forKey key: Key) throws -> Bool { try decoder.presence.take() }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bools.take() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.strings.take() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.doubles.take() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.otherScalar(Float.self) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.ints.take() }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.otherScalar(Int8.self) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.otherScalar(Int16.self) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.otherScalar(Int32.self) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.otherScalar(Int64.self) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.otherScalar(UInt.self) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.otherScalar(UInt8.self) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.otherScalar(UInt16.self) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.otherScalar(UInt32.self) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.otherScalar(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder.value(T.self) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decoder.optionalBools.take() }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decoder.optionalStrings.take()
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decoder.optionalDoubles.take()
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try decoder.otherOptional(Float.self)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decoder.optionalInts.take() }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decoder.otherOptional(Int8.self) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try decoder.otherOptional(Int16.self)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try decoder.otherOptional(Int32.self)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try decoder.otherOptional(Int64.self)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decoder.otherOptional(UInt.self) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try decoder.otherOptional(UInt8.self)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try decoder.otherOptional(UInt16.self)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try decoder.otherOptional(UInt32.self)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try decoder.otherOptional(UInt64.self)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try decoder.valueIfPresent(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.nestedKeyed.take()
        return KeyedDecodingContainer(ReplayKeyedContainer<NestedKey>(decoder: decoder))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        ReplayUnkeyedContainer(decoder: decoder, count: try decoder.unkeyed.take())
    }

    func superDecoder() throws -> any Decoder {
        try decoder.superDecoders.take()
        return decoder
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try decoder.superDecoders.take()
        return decoder
    }
}
