/// A keyed container of a stream that a ``StreamKeyedMaker`` can make.
protocol StreamKeyedMaking: KeyedEncodingContainerProtocol {
    /// A container writing into `sink`, with `level` containers open below it.
    init(sink: StreamSink, level: Int)
}

/// Makes the keyed containers of one key type (``StreamEncoder/container(keyedBy:)``, kept in ``StreamShapes``).
///
/// Generic over the container type, not the key: the container's metadata and its conformance
/// are then arguments of the maker's own class, which a call to ``make(sink:level:)`` reads
/// from the maker, rather than being looked up in the run time's caches for every container
/// (about half of what a keyed container cost).
final class StreamKeyedMaker<Container: StreamKeyedMaking> {
    /// A container at `level` (the number of containers open below it) writing into `sink`.
    /// Never inlined: inlined into a caller generic over the key, it would look the types up again.
    @inline(never)
    func make(sink: StreamSink, level: Int) -> KeyedEncodingContainer<Container.Key> {
        KeyedEncodingContainer(Container(sink: sink, level: level))
    }
}
