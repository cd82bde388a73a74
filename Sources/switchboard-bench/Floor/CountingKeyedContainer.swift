import Foundation
import Switchboard

/// The keyed container of a ``CountingEncoder``: counts every call and forwards it.
struct CountingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var inner: KeyedEncodingContainer<Key>
    let tally: CallTally

    var codingPath: [any CodingKey] { inner.codingPath }

    mutating func encodeNil(forKey key: Key) throws {
        tally.counts.other += 1
        try inner.encodeNil(forKey: key)
    }

    /// Counts one scalar (`optional`: an `encodeIfPresent`) and runs the forwarding call.
    private mutating func scalar(optional: Bool, _ call: (inout KeyedEncodingContainer<Key>) throws -> Void) throws {
        if optional { tally.counts.optionalScalars += 1 } else { tally.counts.scalars += 1 }
        try call(&inner)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try scalar(optional: false) { try $0.encode(value, forKey: key) }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let counted = tally.generic(value) {
            try inner.encode(counted, forKey: key)
        } else {
            try inner.encode(value, forKey: key)
        }
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        try scalar(optional: true) { try $0.encodeIfPresent(value, forKey: key) }
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else {
            tally.counts.generic += 1
            return try inner.encodeIfPresent(value, forKey: key)
        }
        if let counted = tally.generic(value) {
            try inner.encodeIfPresent(counted, forKey: key)
        } else {
            try inner.encodeIfPresent(value, forKey: key)
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        tally.counts.nestedKeyedContainers += 1
        return KeyedEncodingContainer(
            CountingKeyedContainer<NestedKey>(inner: inner.nestedContainer(keyedBy: keyType, forKey: key), tally: tally)
        )
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        tally.counts.unkeyedContainers += 1
        return CountingUnkeyedContainer(inner: inner.nestedUnkeyedContainer(forKey: key), tally: tally)
    }

    mutating func superEncoder() -> any Encoder {
        tally.counts.other += 1
        return CountingEncoder(inner: inner.superEncoder(), tally: tally)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        tally.counts.other += 1
        return CountingEncoder(inner: inner.superEncoder(forKey: key), tally: tally)
    }
}
