import Foundation
import Switchboard

/// The keyed container of a ``RecordingDecoder``: forwards every call to the real
/// container and records the answer in the ``ReplayDecoder``'s queue of its kind.
struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let real: KeyedDecodingContainer<Key>
    let tape: ReplayDecoder

    var codingPath: [any CodingKey] { real.codingPath }
    var allKeys: [Key] {
        let keys = real.allKeys
        tape.keys.record(keys.map(\.stringValue))
        return keys
    }

    func contains(_ key: Key) -> Bool {
        let found = real.contains(key)
        tape.presence.record(found)
        return found
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        try tape.record(\.presence, placeholder: false) { try real.decodeNil(forKey: key) }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try tape.record(\.bools, placeholder: false) { try real.decode(type, forKey: key) }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try tape.record(\.strings, placeholder: "") { try real.decode(type, forKey: key) }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try tape.record(\.doubles, placeholder: 0) { try real.decode(type, forKey: key) }
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try tape.record(\.ints, placeholder: 0) { try real.decode(type, forKey: key) }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try other { try real.decode(type, forKey: key) }
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try other { try real.decode(type, forKey: key) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try other { try real.decode(type, forKey: key) }
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try other { try real.decode(type, forKey: key) }
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try other { try real.decode(type, forKey: key) }
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try other { try real.decode(type, forKey: key) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try other { try real.decode(type, forKey: key) }
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try other { try real.decode(type, forKey: key) }
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try other { try real.decode(type, forKey: key) }
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try other { try real.decode(type, forKey: key) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let decoded = try tape.recordGeneric(T.self) { leaf in
            leaf ? try real.decode(T.self, forKey: key) : try real.decode(RecordedValue<T>.self, forKey: key).value
        }
        guard let decoded else { throw FloorMismatch(expected: "\(T.self)") }
        return decoded
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try tape.record(\.optionalBools, placeholder: nil) { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try tape.record(\.optionalStrings, placeholder: nil) { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try tape.record(\.optionalDoubles, placeholder: nil) { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try tape.record(\.optionalInts, placeholder: nil) { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try tape.recordOptional { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try tape.recordOptional { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try tape.recordOptional { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try tape.recordOptional { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try tape.recordOptional { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try tape.recordOptional { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try tape.recordOptional { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try tape.recordOptional { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try tape.recordOptional { try real.decodeIfPresent(type, forKey: key) }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try tape.recordOptional { try real.decodeIfPresent(type, forKey: key) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try tape.recordGeneric(T.self) { leaf in
            leaf
                ? try real.decodeIfPresent(T.self, forKey: key)
                : try real.decodeIfPresent(RecordedValue<T>.self, forKey: key)?.value
        }
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try tape.recordStructure(\.nestedKeyed) {
            try real.nestedContainer(keyedBy: NestedKey.self, forKey: key)
        }
        return KeyedDecodingContainer(RecordingKeyedContainer<NestedKey>(real: container, tape: tape))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let container = try tape.recordUnkeyed {
            try real.nestedUnkeyedContainer(forKey: key)
        }
        return RecordingUnkeyedContainer(real: container, tape: tape)
    }

    func superDecoder() throws -> any Decoder {
        let decoder = try tape.recordStructure(\.superDecoders) { try real.superDecoder() }
        return RecordingDecoder(real: decoder, tape: tape)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let decoder = try tape.recordStructure(\.superDecoders) {
            try real.superDecoder(forKey: key)
        }
        return RecordingDecoder(real: decoder, tape: tape)
    }

    /// One of the rarer scalar overloads.
    private func other<T>(_ call: () throws -> T) throws -> T {
        try tape.recordOther(call)
    }
}
