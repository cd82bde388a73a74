import Foundation
import Switchboard

/// The keyed container of a ``DiscardEncoder``: accepts every call, writes nothing.
/// Every `encodeIfPresent` is its own method, as in the real encoder's container.
struct DiscardKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) {}
    mutating func encode(_ value: Bool, forKey key: Key) {}
    mutating func encode(_ value: String, forKey key: Key) {}
    mutating func encode(_ value: Double, forKey key: Key) {}
    mutating func encode(_ value: Float, forKey key: Key) {}
    mutating func encode(_ value: Int, forKey key: Key) {}
    mutating func encode(_ value: Int8, forKey key: Key) {}
    mutating func encode(_ value: Int16, forKey key: Key) {}
    mutating func encode(_ value: Int32, forKey key: Key) {}
    mutating func encode(_ value: Int64, forKey key: Key) {}
    mutating func encode(_ value: UInt, forKey key: Key) {}
    mutating func encode(_ value: UInt8, forKey key: Key) {}
    mutating func encode(_ value: UInt16, forKey key: Key) {}
    mutating func encode(_ value: UInt32, forKey key: Key) {}
    mutating func encode(_ value: UInt64, forKey key: Key) {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try DiscardEncoder.value(value) }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) {}
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) {}
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try DiscardEncoder.value(value) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(DiscardKeyedContainer<NestedKey>())
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        DiscardUnkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { DiscardEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { DiscardEncoder() }
}
