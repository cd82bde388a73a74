import Foundation
import Switchboard

/// An `Encoder` between a type's synthesized `encode(to:)` and another encoder (the
/// real one, or the floor's ``DiscardEncoder``): it counts every call by kind
/// (``CallCounts``) and forwards it. A generic value that is not a leaf is forwarded
/// as a ``CountedValue``, so that its own `encode(to:)` is counted too.
struct CountingEncoder: Encoder, SingleValueEncodingContainer {
    var inner: any Encoder
    let tally: CallTally
    /// The inner single-value container, once asked for.
    var single: (any SingleValueEncodingContainer)?

    var codingPath: [any CodingKey] { inner.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { inner.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        tally.counts.keyedContainers += 1
        return KeyedEncodingContainer(CountingKeyedContainer(inner: inner.container(keyedBy: Key.self), tally: tally))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        tally.counts.unkeyedContainers += 1
        return CountingUnkeyedContainer(inner: inner.unkeyedContainer(), tally: tally)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        tally.counts.singleValueContainers += 1
        return CountingEncoder(inner: inner, tally: tally, single: inner.singleValueContainer())
    }

    /// Forwards one call to the inner single-value container.
    private mutating func forward(_ call: (inout any SingleValueEncodingContainer) throws -> Void) throws {
        guard var container = single else { throw FloorMismatch(expected: "a single-value container") }
        defer { single = container }
        tally.counts.scalars += 1
        try call(&container)
    }

    mutating func encodeNil() throws {
        guard var container = single else { throw FloorMismatch(expected: "a single-value container") }
        defer { single = container }
        tally.counts.other += 1
        try container.encodeNil()
    }

    mutating func encode(_ value: Bool) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: String) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: Double) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: Float) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: Int) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: Int8) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: Int16) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: Int32) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: Int64) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: UInt) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: UInt8) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: UInt16) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: UInt32) throws { try forward { try $0.encode(value) } }
    mutating func encode(_ value: UInt64) throws { try forward { try $0.encode(value) } }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard var container = single else { throw FloorMismatch(expected: "a single-value container") }
        defer { single = container }
        if let counted = tally.generic(value) { try container.encode(counted) } else { try container.encode(value) }
    }
}
