/// What a ``StreamSink`` has found out about the types it writes, kept because the run time's
/// look-ups cost far more than finding a type again in these short lists: the value types
/// written through ``StreamSink/write(_:)``, each with whether it is an array the sink writes
/// itself (``StreamArray``), and a ``StreamKeyedMaker`` for each key type.
final class StreamShapes {
    /// One type, and its `StreamArray` conformance when it has one.
    struct Entry {
        /// The value type.
        var type: ObjectIdentifier
        /// Its `StreamArray` conformance, when it is an `Array` of `Encodable` elements.
        var array: (any StreamArray.Type)?
    }

    /// The most types kept; past them the list starts again.
    static let limit = 16

    private let entries = StreamStack<Entry>(capacity: StreamShapes.limit)

    /// `type` as a ``StreamArray`` when it is one (an `Array` of `Encodable` elements), else `nil`.
    @inline(__always)
    func arrayType<T>(of type: T.Type) -> (any StreamArray.Type)? {
        let identifier = ObjectIdentifier(type)
        let found = entries.withElements { entries -> Entry? in
            for entry in entries where entry.type == identifier { return entry }
            return nil
        }
        if let found { return found.array }
        return add(type)
    }

    private func add<T>(_ type: T.Type) -> (any StreamArray.Type)? {
        let array = type as? any StreamArray.Type
        if entries.count >= StreamShapes.limit { entries.removeAll(from: 0) }
        entries.append(Entry(type: ObjectIdentifier(type), array: array))
        return array
    }

    /// The key types that have a maker of their containers, in the order of ``makers``.
    private let makerKeys = StreamStack<ObjectIdentifier>(capacity: StreamShapes.limit)
    /// The maker of each key type in ``makerKeys``: the ``StreamKeyedMakerOf`` that `Key` (``add(_:for:)``
    /// and ``maker(for:)`` pair the two by type).
    @exclusivity(unchecked) private var makers: [StreamKeyedMakerBase] = []

    /// The maker listed for the key type `Key` (see ``StreamEncoder/container(keyedBy:)``).
    @inline(__always)
    func maker<Key: CodingKey>(for key: Key.Type) -> StreamKeyedMakerOf<Key>? {
        let identifier = ObjectIdentifier(key)
        guard let index = makerKeys.withElements({ $0.firstIndex(of: identifier) }) else { return nil }
        // Listed for `Key` by `add(_:for:)`, whose signature makes it this type.
        return unsafeDowncast(makers[index], to: StreamKeyedMakerOf<Key>.self)
    }

    /// Makes every maker drop the container it keeps for reuse (see ``StreamKeyedMaker``).
    func forgetContainers() {
        for maker in makers { maker.forget() }
    }

    /// Lists `maker` for the key type `Key`.
    func add<Key: CodingKey>(_ maker: StreamKeyedMakerOf<Key>, for key: Key.Type) {
        if makerKeys.count >= StreamShapes.limit {
            makerKeys.removeAll(from: 0)
            makers.removeAll(keepingCapacity: true)
        }
        makerKeys.append(ObjectIdentifier(key))
        makers.append(maker)
    }
}
