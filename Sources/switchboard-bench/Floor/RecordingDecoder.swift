import Foundation
import Switchboard

/// A `Decoder` between a type's synthesized `init(from:)` and the real decoder: it
/// forwards every call and records the answer (or the error) in a ``ReplayDecoder``'s
/// queues, which a replay then gives back in the same order. Its count of calls is the
/// real decoder's (see ``ReplayDecoder/counts(replayed:)``).
struct RecordingDecoder: Decoder, SingleValueDecodingContainer {
    let real: any Decoder
    let tape: ReplayDecoder
    /// The real single-value container, once asked for.
    var single: (any SingleValueDecodingContainer)?

    init(real: any Decoder, tape: ReplayDecoder, single: (any SingleValueDecodingContainer)? = nil) {
        self.real = real
        self.tape = tape
        self.single = single
    }

    var codingPath: [any CodingKey] { real.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { real.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let container = try tape.recordStructure(\.keyed) {
            try real.container(keyedBy: Key.self)
        }
        return KeyedDecodingContainer(RecordingKeyedContainer(real: container, tape: tape))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try tape.recordUnkeyed { try real.unkeyedContainer() }
        return RecordingUnkeyedContainer(real: container, tape: tape)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        let container = try tape.recordStructure(\.singleValues) {
            try real.singleValueContainer()
        }
        return RecordingDecoder(real: real, tape: tape, single: container)
    }

    /// The real single-value container (this type is one only when ``singleValueContainer()`` made it).
    private var value: any SingleValueDecodingContainer {
        get throws {
            guard let single else { throw FloorMismatch(expected: "a single-value container") }
            return single
        }
    }

    func decodeNil() -> Bool { (try? tape.record(\.presence, placeholder: false) { try value.decodeNil() }) ?? false }
    func decode(_ type: Bool.Type) throws -> Bool {
        try tape.record(\.bools, placeholder: false) { try value.decode(type) }
    }
    func decode(_ type: String.Type) throws -> String {
        try tape.record(\.strings, placeholder: "") { try value.decode(type) }
    }
    func decode(_ type: Double.Type) throws -> Double {
        try tape.record(\.doubles, placeholder: 0) { try value.decode(type) }
    }
    func decode(_ type: Int.Type) throws -> Int { try tape.record(\.ints, placeholder: 0) { try value.decode(type) } }
    func decode(_ type: Float.Type) throws -> Float { try other { try value.decode(type) } }
    func decode(_ type: Int8.Type) throws -> Int8 { try other { try value.decode(type) } }
    func decode(_ type: Int16.Type) throws -> Int16 { try other { try value.decode(type) } }
    func decode(_ type: Int32.Type) throws -> Int32 { try other { try value.decode(type) } }
    func decode(_ type: Int64.Type) throws -> Int64 { try other { try value.decode(type) } }
    func decode(_ type: UInt.Type) throws -> UInt { try other { try value.decode(type) } }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try other { try value.decode(type) } }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try other { try value.decode(type) } }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try other { try value.decode(type) } }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try other { try value.decode(type) } }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let container = try value
        let decoded = try tape.recordGeneric(T.self) { leaf in
            leaf ? try container.decode(T.self) : try container.decode(RecordedValue<T>.self).value
        }
        guard let decoded else { throw FloorMismatch(expected: "\(T.self)") }
        return decoded
    }

    /// One of the rarer scalar overloads.
    private func other<T>(_ call: () throws -> T) throws -> T {
        try tape.recordOther(call)
    }
}
