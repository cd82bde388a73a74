import Foundation
import Switchboard

/// The unkeyed container of a ``DiscardEncoder``: accepts every call, writes nothing
/// (it keeps the count the protocol asks for).
struct DiscardUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count = 0

    mutating func encodeNil() { count += 1 }
    mutating func encode(_ value: Bool) { count += 1 }
    mutating func encode(_ value: String) { count += 1 }
    mutating func encode(_ value: Double) { count += 1 }
    mutating func encode(_ value: Float) { count += 1 }
    mutating func encode(_ value: Int) { count += 1 }
    mutating func encode(_ value: Int8) { count += 1 }
    mutating func encode(_ value: Int16) { count += 1 }
    mutating func encode(_ value: Int32) { count += 1 }
    mutating func encode(_ value: Int64) { count += 1 }
    mutating func encode(_ value: UInt) { count += 1 }
    mutating func encode(_ value: UInt8) { count += 1 }
    mutating func encode(_ value: UInt16) { count += 1 }
    mutating func encode(_ value: UInt32) { count += 1 }
    mutating func encode(_ value: UInt64) { count += 1 }
    mutating func encode<T: Encodable>(_ value: T) throws {
        count += 1
        try DiscardEncoder.value(value)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        count += 1
        return KeyedEncodingContainer(DiscardKeyedContainer<NestedKey>())
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        return DiscardUnkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { DiscardEncoder() }
}
