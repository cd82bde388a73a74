import Foundation
import Switchboard

// Filling a ``ReplayDecoder``'s queues from the real decoder (``RecordingDecoder`` and its containers).

extension ReplayDecoder {
    /// Runs one call forwarded to the real decoder and records its answer (`item` of its
    /// result) in `queue`, or, when it throws, a stop (unless a call it made threw first).
    func record<Result, Item>(
        _ queue: ReferenceWritableKeyPath<ReplayDecoder, ReplayQueue<Item>>, placeholder: Item,
        _ item: (Result) -> Item, _ call: () throws -> Result
    ) throws -> Result {
        do {
            let result = try call()
            self[keyPath: queue].record(item(result))
            return result
        } catch {
            if !threw {
                threw = true
                self[keyPath: queue].recordThrow(error, placeholder: placeholder)
            }
            throw error
        }
    }

    /// ``record(_:placeholder:_:_:)`` of a call whose result is the answer.
    func record<Item>(
        _ queue: ReferenceWritableKeyPath<ReplayDecoder, ReplayQueue<Item>>, placeholder: Item,
        _ call: () throws -> Item
    ) throws -> Item {
        try record(queue, placeholder: placeholder, { $0 }, call)
    }

    /// ``record(_:placeholder:_:_:)`` of a call that makes a keyed or single-value container or a decoder.
    func recordStructure<Result>(
        _ queue: ReferenceWritableKeyPath<ReplayDecoder, ReplayQueue<Void>>, _ call: () throws -> Result
    ) throws -> Result {
        try record(queue, placeholder: (), { _ in () }, call)
    }

    /// ``record(_:placeholder:_:_:)`` of a call that makes an unkeyed container (its count recorded).
    func recordUnkeyed(
        _ call: () throws -> any UnkeyedDecodingContainer
    ) throws -> any UnkeyedDecodingContainer {
        try record(\.unkeyed, placeholder: nil, { $0.count }, call)
    }

    /// ``record(_:placeholder:_:_:)`` of one of the rarer scalar overloads.
    func recordOther<T>(_ call: () throws -> T) throws -> T {
        try record(\.otherScalars, placeholder: 0 as Int, { $0 as Any }, call)
    }

    /// ``record(_:placeholder:_:_:)`` of one of the rarer optional scalar overloads.
    func recordOptional<T>(_ call: () throws -> T?) throws -> T? {
        try record(\.otherOptionals, placeholder: nil, { $0.map { $0 as Any } }, call)
    }

    /// Records a generic call: `call(leaf)` forwards it to the real decoder, as `T` when `T` is a
    /// leaf, else as ``RecordedValue`` of `T` (so that `T`'s own `init(from:)` is recorded too).
    func recordGeneric<T: Decodable>(_ type: T.Type, _ call: (_ leaf: Bool) throws -> T?) throws -> T? {
        let position = generic.record(true)
        let leaf = Leaf.decodes(T.self)
        do {
            let value = try call(leaf)
            generic.replace(value != nil, at: position)
            if let value {
                if leaf { recordLeaf(value) } else { structuredRecorded += 1 }
            }
            return value
        } catch {
            if !threw {
                threw = true
                generic.recordStop(at: position, error)
            } else if !leaf {
                structuredRecorded += 1
            }
            throw error
        }
    }

    private func recordLeaf<T>(_ value: T) {
        if T.self == [String].self {
            stringArrays.record(_identityCast(value, to: [String].self))
        } else if T.self == [String: String].self {
            stringDictionaries.record(_identityCast(value, to: [String: String].self))
        } else if T.self == JSONValue.self {
            jsonValues.record(_identityCast(value, to: JSONValue.self))
        } else {
            otherLeaves.record(value)
        }
    }

    /// Records `T` decoded by `decoder`'s `decode(_:)` into this decoder; returns the value, or the error.
    func recordRoot<T: Decodable>(_ type: T.Type, _ decode: () throws -> RecordedValue<T>) -> Result<T, any Error> {
        threw = false
        ReplayDecoder.recording = self
        defer { ReplayDecoder.recording = nil }
        return Result { try decode().value }
    }
}
