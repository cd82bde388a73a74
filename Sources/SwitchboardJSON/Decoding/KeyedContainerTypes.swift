import Foundation

/// A keyed container type that is made from one source's fields: ``SourceKeyedContainer``.
/// (Its primary associated types let a cached metatype be opened with `Key` and `Fields` known.)
protocol KeyedContainerMaking<Key, Fields>: KeyedDecodingContainerProtocol {
    associatedtype Fields
    init(fields: Fields)
}

extension KeyedContainerMaking {
    /// A container of this type over `fields`, as the standard library's wrapper. (Called on
    /// an opened existential metatype, so `Self`'s metadata and witness tables are given,
    /// not looked up: a static method of the generic struct would look them up again.)
    @inline(__always)
    static func container(_ fields: Fields) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Self(fields: fields))
    }
}

extension SourceKeyedContainer: KeyedContainerMaking {}

/// The keyed container type of each key type a source has made containers for on a
/// thread, so that making one (every `container(keyedBy:)`) does not ask the runtime again.
///
/// `SourceKeyedContainer<Fields, Key>` is generic over the user's `Key`, which is only
/// known at run time: naming the type in `container(keyedBy:)` would look its metadata
/// and its conformance up in the runtime's tables on every call, most of what making a
/// container costs beyond the standard library's own box. Here the type is looked up
/// once per key type and kept, as an existential metatype (its metadata and witness
/// table), in a ``KeyedContainerType`` found by the key type's identity. One table per
/// source and thread, lent by the thread's slot for each lookup: no lock (a table for the
/// whole process would take one for every container), no slot taken and given back.
final class KeyedContainerTypes<Fields: KeyedMemberReader> {
    /// Unchecked: only ``container(_:keyedBy:tables:)`` touches it, on the table's own thread,
    /// for a look-up or an insertion that runs no other code.
    @exclusivity(unchecked) private var table = Table()

    /// A container of key type `Key` over `fields`, with the calling thread's table in `slot`.
    static func container<Key: CodingKey>(
        _ fields: Fields, keyedBy type: Key.Type, tables slot: ThreadSpare<KeyedContainerTypes>
    ) -> KeyedDecodingContainer<Key> {
        let id = ObjectIdentifier(Key.self)
        // `AnyObject?` out of the closure: a `KeyedContainerType<Key, Fields>?` would be looked up at run time.
        if let found = slot.withSpare({ $0?.table.type(for: id) }) {
            // The table holds, under `Key`'s identity, the `KeyedContainerType<Key, Fields>` made
            // below for this `Key` and no other (checked in debug builds).
            return unsafeDowncast(found, to: KeyedContainerType<Key, Fields>.self).container(fields)
        }
        // Once per key type and thread: look the type up, and keep it in the thread's table.
        let made = KeyedContainerType<Key, Fields>()
        if slot.withSpare({ $0 == nil }) { slot.keep(KeyedContainerTypes()) }
        slot.withSpare { $0?.table.insert(made, for: id) }
        return made.container(fields)
    }

    /// Open addressing by the key type's identity (types are never removed).
    private struct Table {
        private var ids: [ObjectIdentifier?] = Array(repeating: nil, count: 16)
        private var types: [AnyObject?] = Array(repeating: nil, count: 16)
        private var count = 0

        @inline(__always)
        private func slot(_ id: ObjectIdentifier) -> Int {
            // Metadata addresses are aligned: mix the higher bits in.
            let bits = UInt(bitPattern: Int(bitPattern: id))
            return Int(truncatingIfNeeded: (bits >> 4) ^ (bits >> 12)) & (ids.count - 1)
        }

        func type(for id: ObjectIdentifier) -> AnyObject? {
            var index = slot(id)
            while let stored = ids[index] {
                if stored == id { return types[index] }
                index = (index + 1) & (ids.count - 1)
            }
            return nil
        }

        mutating func insert(_ type: AnyObject, for id: ObjectIdentifier) {
            if self.type(for: id) != nil { return }
            if 2 * (count + 1) > ids.count { grow() }
            var index = slot(id)
            while ids[index] != nil { index = (index + 1) & (ids.count - 1) }
            ids[index] = id
            types[index] = type
            count += 1
        }

        private mutating func grow() {
            var old: [(ObjectIdentifier, AnyObject)] = []
            for (id, type) in zip(ids, types) {
                if let id, let type { old.append((id, type)) }
            }
            ids = Array(repeating: nil, count: 2 * ids.count)
            types = Array(repeating: nil, count: ids.count)
            count = 0
            for (id, type) in old { insert(type, for: id) }
        }
    }
}

/// The keyed container type of one key type over one source's fields, looked up once.
final class KeyedContainerType<Key: CodingKey, Fields: KeyedMemberReader> {
    /// `SourceKeyedContainer<Fields, Key>.self`: its metadata and witness table.
    private let type: any KeyedContainerMaking<Key, Fields>.Type = SourceKeyedContainer<Fields, Key>.self

    /// A container over `fields` (the runtime is not asked for the type again).
    @inline(__always)
    func container(_ fields: Fields) -> KeyedDecodingContainer<Key> {
        type.container(fields)
    }
}
