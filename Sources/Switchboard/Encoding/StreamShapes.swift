/// What a ``StreamSink`` has found out about the types it writes, kept because the run time's
/// look-ups cost far more than finding a type again in these short lists: the value types
/// written through ``StreamSink/write(_:)``, each with whether it is an array the sink writes
/// itself (``StreamArray``), and a ``StreamKeyedMaker`` for each key type.
final class StreamShapes {
    /// One type, and its `StreamArray` conformance when it has one.
    struct Entry {
        var type: ObjectIdentifier
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

    /// One key type, and the maker of its containers (a `StreamKeyedMaker<StreamKeyedContainer<Key>>`,
    /// unretained: ``owners`` holds it).
    struct Maker {
        var key: ObjectIdentifier
        var maker: UnsafeRawPointer
    }

    /// The makers of keyed containers, by key type.
    private let makers = StreamStack<Maker>(capacity: StreamShapes.limit)
    /// The makers ``makers`` points to, held for as long as they are listed there.
    @exclusivity(unchecked) private var owners: [AnyObject] = []

    /// The maker listed for the key type `key` (see ``StreamEncoder/container(keyedBy:)``), unretained.
    @inline(__always)
    func maker(for key: ObjectIdentifier) -> UnsafeRawPointer? {
        makers.withElements { makers -> UnsafeRawPointer? in
            for maker in makers where maker.key == key { return maker.maker }
            return nil
        }
    }

    /// Lists `maker` for the key type `key`, and holds it for as long as it is listed.
    func add(maker: AnyObject, for key: ObjectIdentifier) {
        if makers.count >= StreamShapes.limit {
            makers.removeAll(from: 0)
            owners.removeAll(keepingCapacity: true)
        }
        owners.append(maker)
        makers.append(Maker(key: key, maker: Unretained.unretainedPointer(maker)))
    }
}
