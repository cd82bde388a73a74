/// The value types a ``StreamSink`` has written through ``StreamSink/write(_:)``, each with
/// whether it is an array the sink writes itself (``StreamArray``): a conformance is looked up
/// at run time, which costs far more than finding the type again in this short list.
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
}
