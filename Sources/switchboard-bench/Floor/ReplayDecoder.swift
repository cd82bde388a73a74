import Foundation
import Switchboard
import SwitchboardCommerce

/// The floor's decoder: it makes no lookup and reads no JSON, but answers every call
/// synthesized `init(from:)` makes from a queue recorded off the real decoder (one
/// ``ReplayQueue`` per kind of call), in order. It is also its own single-value container.
///
/// What is left is the cost of the protocol calls themselves: the witness calls, the
/// `KeyedDecodingContainer` box each container needs, moving the answers (a retain for
/// a string), and the synthesized code between the calls. A real decoder must make the
/// same calls, so it cannot cost less than this. Leaves the real decoder answers whole
/// (``Leaf/decodes(_:)``: `[String]`, `[String: String]`, ``JSONValue``, …) are answered
/// whole here too, already built: the floor leaves out building them.
///
/// Recording (``RecordingDecoder``) fills the queues; ``rewind()`` starts a replay.
final class ReplayDecoder: Decoder, SingleValueDecodingContainer {
    // `@exclusivity(unchecked)`: the queues are read and advanced in short accesses by
    // the decoder's own methods, one at a time on one thread; a type's `init(from:)`
    // runs between them, never inside one. The checks would be pure cost.
    @exclusivity(unchecked) var keyed = ReplayQueue<Void>()
    @exclusivity(unchecked) var nestedKeyed = ReplayQueue<Void>()
    /// Unkeyed containers, with their `count`.
    @exclusivity(unchecked) var unkeyed = ReplayQueue<Int?>()
    @exclusivity(unchecked) var singleValues = ReplayQueue<Void>()
    @exclusivity(unchecked) var strings = ReplayQueue<String>()
    @exclusivity(unchecked) var ints = ReplayQueue<Int>()
    @exclusivity(unchecked) var bools = ReplayQueue<Bool>()
    @exclusivity(unchecked) var doubles = ReplayQueue<Double>()
    /// The other scalar overloads (`Float`, `Int8` … `UInt64`).
    @exclusivity(unchecked) var otherScalars = ReplayQueue<Any>()
    @exclusivity(unchecked) var optionalStrings = ReplayQueue<String?>()
    @exclusivity(unchecked) var optionalInts = ReplayQueue<Int?>()
    @exclusivity(unchecked) var optionalBools = ReplayQueue<Bool?>()
    @exclusivity(unchecked) var optionalDoubles = ReplayQueue<Double?>()
    @exclusivity(unchecked) var otherOptionals = ReplayQueue<Any?>()
    /// Generic calls: whether the value is there (always for `decode`, not for `decodeIfPresent`).
    @exclusivity(unchecked) var generic = ReplayQueue<Bool>()
    /// `contains`, `decodeNil`, `isAtEnd`.
    @exclusivity(unchecked) var presence = ReplayQueue<Bool>()
    @exclusivity(unchecked) var keys = ReplayQueue<[String]>()
    @exclusivity(unchecked) var superDecoders = ReplayQueue<Void>()
    // Leaves, taken after their generic call (which holds any stop).
    @exclusivity(unchecked) var stringArrays = ReplayQueue<[String]>()
    @exclusivity(unchecked) var stringDictionaries = ReplayQueue<[String: String]>()
    @exclusivity(unchecked) var jsonValues = ReplayQueue<JSONValue>()
    @exclusivity(unchecked) var otherLeaves = ReplayQueue<Any>()

    /// While recording: whether a call has thrown (the calls it unwinds through record no stop of their own).
    var threw = false
    /// While recording: generic values that were not leaves and whose own `init(from:)` ran.
    var structuredRecorded = 0

    /// The decoder being recorded into (``RecordedValue`` finds it here; the bench records on one thread).
    nonisolated(unsafe) static var recording: ReplayDecoder?

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Set for the "containers reused" variant: one keyed container per key type (see ``ContainerCache``).
    var reusedContainers: ContainerCache?

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyed.take()
        if let reusedContainers {
            return reusedContainers.container(for: ObjectIdentifier(Key.self)) {
                KeyedDecodingContainer(ReplayKeyedContainer<Key>(decoder: self))
            }
        }
        return KeyedDecodingContainer(ReplayKeyedContainer<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        ReplayUnkeyedContainer(decoder: self, count: try unkeyed.take())
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try singleValues.take()
        return self
    }

    // MARK: Answers

    /// A generic value: a leaf from its queue, anything else through its own `init(from:)`.
    @inline(__always)
    func value<T: Decodable>(_ type: T.Type) throws -> T {
        _ = try generic.take()
        return try answer(T.self)
    }

    /// A generic value that may be absent.
    @inline(__always)
    func valueIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        guard try generic.take() else { return nil }
        return try answer(T.self)
    }

    @inline(__always)
    private func answer<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == [String].self { return _identityCast(try stringArrays.take(), to: T.self) }
        if T.self == [String: String].self { return _identityCast(try stringDictionaries.take(), to: T.self) }
        if T.self == JSONValue.self { return _identityCast(try jsonValues.take(), to: T.self) }
        if Leaf.decodes(T.self) { return try FloorMismatch.cast(try otherLeaves.take(), T.self) }
        return try T(from: self)
    }

    /// One of the rarer scalar overloads.
    func otherScalar<T>(_ type: T.Type) throws -> T {
        try FloorMismatch.cast(try otherScalars.take(), T.self)
    }

    /// One of the rarer optional scalar overloads.
    func otherOptional<T>(_ type: T.Type) throws -> T? {
        guard let value = try otherOptionals.take() else { return nil }
        return try FloorMismatch.cast(value, T.self)
    }

    // MARK: Single value

    func decodeNil() -> Bool { (try? presence.take()) ?? false }
    func decode(_ type: Bool.Type) throws -> Bool { try bools.take() }
    func decode(_ type: String.Type) throws -> String { try strings.take() }
    func decode(_ type: Double.Type) throws -> Double { try doubles.take() }
    func decode(_ type: Float.Type) throws -> Float { try otherScalar(Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try ints.take() }
    func decode(_ type: Int8.Type) throws -> Int8 { try otherScalar(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try otherScalar(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try otherScalar(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try otherScalar(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try otherScalar(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try otherScalar(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try otherScalar(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try otherScalar(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try otherScalar(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(T.self) }

    // MARK: Replaying and counting

    /// Starts every queue from its first entry again.
    func rewind() {
        keyed.rewind()
        nestedKeyed.rewind()
        unkeyed.rewind()
        singleValues.rewind()
        strings.rewind()
        ints.rewind()
        bools.rewind()
        doubles.rewind()
        otherScalars.rewind()
        optionalStrings.rewind()
        optionalInts.rewind()
        optionalBools.rewind()
        optionalDoubles.rewind()
        otherOptionals.rewind()
        generic.rewind()
        presence.rewind()
        keys.rewind()
        superDecoders.rewind()
        stringArrays.rewind()
        stringDictionaries.rewind()
        jsonValues.rewind()
        otherLeaves.rewind()
    }

    /// The calls recorded off the real decoder (`replayed: false`), or the calls the
    /// replay since the last ``rewind()`` made (`replayed: true`), by kind.
    func counts(replayed: Bool) -> CallCounts {
        func count<Item>(_ queue: ReplayQueue<Item>) -> Int { replayed ? queue.next : queue.items.count }
        let leaves = count(stringArrays) + count(stringDictionaries) + count(jsonValues) + count(otherLeaves)
        let absent = generic.items.prefix(count(generic)).filter { !$0 }.count
        return CallCounts(
            keyedContainers: count(keyed), nestedKeyedContainers: count(nestedKeyed), unkeyedContainers: count(unkeyed),
            singleValueContainers: count(singleValues),
            scalars: count(strings) + count(ints) + count(bools) + count(doubles) + count(otherScalars),
            optionalScalars: count(optionalStrings) + count(optionalInts) + count(optionalBools)
                + count(optionalDoubles) + count(otherOptionals),
            generic: count(generic),
            structured: replayed ? count(generic) - leaves - absent - generic.stopsPassed : structuredRecorded,
            other: count(presence) + count(keys) + count(superDecoders))
    }
}

extension ReplayDecoder {
    /// Rewinds, then decodes one value of each of `kinds` in turn from the replay, as the
    /// bodies were recorded; returns a checksum of the values, `failed` for each that throws.
    func replayAll(_ kinds: [DecodeSection.Kind], failed: Int) -> Int {
        rewind()
        var sum = 0
        for kind in kinds {
            do {
                switch kind {
                case .addCartLine: sum &+= try AddCartLine(from: self).quantity
                case .removeCartLine: sum &+= try RemoveCartLine(from: self).quantity
                case .productCartUpdate: sum &+= try ProductCartUpdate(from: self).offer.quantity
                case .wishlistEntryUpdate: sum &+= try WishlistEntryUpdate(from: self).isWishlisted ? 1 : 2
                }
            } catch {
                sum &+= failed
            }
        }
        return sum
    }
}
