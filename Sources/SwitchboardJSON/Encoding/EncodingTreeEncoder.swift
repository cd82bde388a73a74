import Foundation

/// The `Encoder` behind ``BodyEncoder``: one per encoded value that is not a
/// primitive, also serving as its single-value container.
final class EncodingTreeEncoder: Encoder, SingleValueEncodingContainer {
    let state: EncodingState
    let path: EncodingPathNode?
    /// What the value encoded to, once it has.
    var node: EncodingNode?

    init(state: EncodingState, path: EncodingPathNode?) {
        self.state = state
        self.path = path
    }

    var codingPath: [any CodingKey] { EncodingPathNode.keys(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodingObjectNode
        switch node {
        case .object(let existing)?:
            object = existing
        case nil:
            object = EncodingObjectNode()
            node = .object(object)
        default:
            state.record("asked for a keyed container after encoding another kind of value", at: path)
            object = EncodingObjectNode()
        }
        return KeyedEncodingContainer(EncodingTreeKeyedContainer<Key>(state: state, path: path, object: object))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodingArrayNode
        switch node {
        case .array(let existing)?:
            array = existing
        case nil:
            array = EncodingArrayNode()
            node = .array(array)
        default:
            state.record("asked for an unkeyed container after encoding another kind of value", at: path)
            array = EncodingArrayNode()
        }
        return EncodingTreeUnkeyedContainer(state: state, path: path, array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    // MARK: SingleValueEncodingContainer

    private func set(_ value: EncodingNode) {
        guard node == nil else {
            state.record("encoded a second value into a single-value container", at: path)
            return
        }
        node = value
    }

    func encodeNil() throws { set(.null) }
    func encode(_ value: Bool) throws { set(.bool(value)) }
    func encode(_ value: String) throws { set(.string(value)) }
    func encode(_ value: Double) throws { set(try boxDouble(value, parent: path, key: nil)) }
    func encode(_ value: Float) throws { set(try boxFloat(value, parent: path, key: nil)) }
    func encode(_ value: Int) throws { set(.int(Int64(value))) }
    func encode(_ value: Int8) throws { set(.int(Int64(value))) }
    func encode(_ value: Int16) throws { set(.int(Int64(value))) }
    func encode(_ value: Int32) throws { set(.int(Int64(value))) }
    func encode(_ value: Int64) throws { set(.int(value)) }
    func encode(_ value: UInt) throws { set(.uint(UInt64(value))) }
    func encode(_ value: UInt8) throws { set(.uint(UInt64(value))) }
    func encode(_ value: UInt16) throws { set(.uint(UInt64(value))) }
    func encode(_ value: UInt32) throws { set(.uint(UInt64(value))) }
    func encode(_ value: UInt64) throws { set(.uint(value)) }
    func encode<T: Encodable>(_ value: T) throws {
        set(try box(value, state: state, parent: path, key: nil))
    }
}

/// A keyed container writing into an ``EncodingObjectNode``.
struct EncodingTreeKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: EncodingState
    let path: EncodingPathNode?
    let object: EncodingObjectNode

    var codingPath: [any CodingKey] { EncodingPathNode.keys(path) }

    mutating func encodeNil(forKey key: Key) throws { object.set(.null, forKey: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(.bool(value), forKey: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws {
        object.set(.string(value), forKey: key.stringValue)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        object.set(try boxDouble(value, parent: path, key: key), forKey: key.stringValue)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        object.set(try boxFloat(value, parent: path, key: key), forKey: key.stringValue)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        object.set(.int(Int64(value)), forKey: key.stringValue)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        object.set(.int(Int64(value)), forKey: key.stringValue)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        object.set(.int(Int64(value)), forKey: key.stringValue)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        object.set(.int(Int64(value)), forKey: key.stringValue)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(.int(value), forKey: key.stringValue) }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        object.set(.uint(UInt64(value)), forKey: key.stringValue)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        object.set(.uint(UInt64(value)), forKey: key.stringValue)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        object.set(.uint(UInt64(value)), forKey: key.stringValue)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        object.set(.uint(UInt64(value)), forKey: key.stringValue)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        object.set(.uint(value), forKey: key.stringValue)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(try box(value, state: state, parent: path, key: key), forKey: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodingObjectNode()
        guard let nestedPath = state.nestedPath(path, key) else {
            return KeyedEncodingContainer(
                EncodingTreeKeyedContainer<NestedKey>(state: state, path: path, object: nested))
        }
        object.set(.object(nested), forKey: key.stringValue)
        return KeyedEncodingContainer(
            EncodingTreeKeyedContainer<NestedKey>(state: state, path: nestedPath, object: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = EncodingArrayNode()
        guard let nestedPath = state.nestedPath(path, key) else {
            return EncodingTreeUnkeyedContainer(state: state, path: path, array: nested)
        }
        object.set(.array(nested), forKey: key.stringValue)
        return EncodingTreeUnkeyedContainer(state: state, path: nestedPath, array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(key: EncodingSuperKey())
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(key: key)
    }

    private func superEncoder(key: any CodingKey) -> any Encoder {
        guard let nestedPath = state.nestedPath(path, key) else { return EncodingTreeEncoder(state: state, path: path) }
        let encoder = EncodingTreeEncoder(state: state, path: nestedPath)
        object.set(.deferred(encoder), forKey: key.stringValue)
        return encoder
    }
}

/// An unkeyed container appending to an ``EncodingArrayNode``.
struct EncodingTreeUnkeyedContainer: UnkeyedEncodingContainer {
    let state: EncodingState
    let path: EncodingPathNode?
    let array: EncodingArrayNode

    var codingPath: [any CodingKey] { EncodingPathNode.keys(path) }
    var count: Int { array.elements.count }

    private var nextKey: EncodingIndexKey { EncodingIndexKey(array.elements.count) }

    mutating func encodeNil() throws { array.elements.append(.null) }
    mutating func encode(_ value: Bool) throws { array.elements.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.elements.append(.string(value)) }
    mutating func encode(_ value: Double) throws {
        array.elements.append(try boxDouble(value, parent: path, key: nextKey))
    }
    mutating func encode(_ value: Float) throws {
        array.elements.append(try boxFloat(value, parent: path, key: nextKey))
    }
    mutating func encode(_ value: Int) throws { array.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { array.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { array.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { array.elements.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { array.elements.append(.int(value)) }
    mutating func encode(_ value: UInt) throws { array.elements.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { array.elements.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { array.elements.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { array.elements.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { array.elements.append(.uint(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        array.elements.append(try box(value, state: state, parent: path, key: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodingObjectNode()
        guard let nestedPath = state.nestedPath(path, nextKey) else {
            return KeyedEncodingContainer(
                EncodingTreeKeyedContainer<NestedKey>(state: state, path: path, object: nested))
        }
        array.elements.append(.object(nested))
        return KeyedEncodingContainer(
            EncodingTreeKeyedContainer<NestedKey>(state: state, path: nestedPath, object: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodingArrayNode()
        guard let nestedPath = state.nestedPath(path, nextKey) else {
            return EncodingTreeUnkeyedContainer(state: state, path: path, array: nested)
        }
        array.elements.append(.array(nested))
        return EncodingTreeUnkeyedContainer(state: state, path: nestedPath, array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        guard let nestedPath = state.nestedPath(path, nextKey) else {
            return EncodingTreeEncoder(state: state, path: path)
        }
        let encoder = EncodingTreeEncoder(state: state, path: nestedPath)
        array.elements.append(.deferred(encoder))
        return encoder
    }
}
