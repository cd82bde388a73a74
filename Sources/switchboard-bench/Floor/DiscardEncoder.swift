import Foundation
import Switchboard

/// The floor's encoder: its containers accept every call synthesized `encode(to:)`
/// makes and write nothing. What is left is the cost of the calls themselves (the
/// witness calls, the `KeyedEncodingContainer` box each keyed container needs, the
/// synthesized code between them); a real encoder must make the same calls. Leaves the
/// real encoder writes whole (``Leaf/encodes(_:)``) are dropped whole; any other value
/// runs its own `encode(to:)`, as with the real encoder. It is its own single-value container.
struct DiscardEncoder: Encoder, SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Set for the "containers reused" variant: one keyed container per key type (see ``ContainerCache``).
    nonisolated(unsafe) static var reusedContainers: ContainerCache?

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if let reused = DiscardEncoder.reusedContainers {
            return reused.container(for: ObjectIdentifier(Key.self)) {
                KeyedEncodingContainer(DiscardKeyedContainer<Key>())
            }
        }
        return KeyedEncodingContainer(DiscardKeyedContainer<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { DiscardUnkeyedContainer() }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// A generic value: nothing for a leaf, its own `encode(to:)` for anything else.
    @inline(__always)
    static func value<T: Encodable>(_ value: T) throws {
        if Leaf.encodes(T.self) { return }
        try value.encode(to: DiscardEncoder())
    }

    mutating func encodeNil() {}
    mutating func encode(_ value: Bool) {}
    mutating func encode(_ value: String) {}
    mutating func encode(_ value: Double) {}
    mutating func encode(_ value: Float) {}
    mutating func encode(_ value: Int) {}
    mutating func encode(_ value: Int8) {}
    mutating func encode(_ value: Int16) {}
    mutating func encode(_ value: Int32) {}
    mutating func encode(_ value: Int64) {}
    mutating func encode(_ value: UInt) {}
    mutating func encode(_ value: UInt8) {}
    mutating func encode(_ value: UInt16) {}
    mutating func encode(_ value: UInt32) {}
    mutating func encode(_ value: UInt64) {}
    mutating func encode<T: Encodable>(_ value: T) throws { try DiscardEncoder.value(value) }
}
