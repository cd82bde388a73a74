import Foundation
import Switchboard

/// The unkeyed container of a ``CountingEncoder``: counts every call and forwards it.
struct CountingUnkeyedContainer: UnkeyedEncodingContainer {
    var inner: any UnkeyedEncodingContainer
    let tally: CallTally

    var codingPath: [any CodingKey] { inner.codingPath }
    var count: Int { inner.count }

    mutating func encodeNil() throws {
        tally.counts.other += 1
        try inner.encodeNil()
    }

    /// Counts one scalar and runs the forwarding call.
    private mutating func scalar(_ call: (inout any UnkeyedEncodingContainer) throws -> Void) throws {
        tally.counts.scalars += 1
        try call(&inner)
    }

    mutating func encode(_ value: Bool) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: String) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: Double) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: Float) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: Int) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: Int8) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: Int16) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: Int32) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: Int64) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: UInt) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: UInt8) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: UInt16) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: UInt32) throws { try scalar { try $0.encode(value) } }
    mutating func encode(_ value: UInt64) throws { try scalar { try $0.encode(value) } }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let counted = tally.generic(value) { try inner.encode(counted) } else { try inner.encode(value) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        tally.counts.nestedKeyedContainers += 1
        return KeyedEncodingContainer(
            CountingKeyedContainer<NestedKey>(inner: inner.nestedContainer(keyedBy: keyType), tally: tally))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        tally.counts.unkeyedContainers += 1
        return CountingUnkeyedContainer(inner: inner.nestedUnkeyedContainer(), tally: tally)
    }

    mutating func superEncoder() -> any Encoder {
        tally.counts.other += 1
        return CountingEncoder(inner: inner.superEncoder(), tally: tally)
    }
}
