/// A keyed container of a stream that a ``StreamKeyedMaker`` can make.
protocol StreamKeyedMaking: KeyedEncodingContainerProtocol {
    /// A container writing into `sink`, with `level` containers open below it.
    init(sink: StreamSink, level: Int)
}

/// What ``StreamShapes`` keeps of every ``StreamKeyedMaker``, whatever its key type.
class StreamKeyedMakerBase {
    /// Drops the container kept for reuse (it holds the sink): called when each encode is over.
    func forget() {}
}

/// The type of what a ``StreamKeyedMaker`` makes: `KeyedEncodingContainer` (the only conformance),
/// named through a generic parameter of the maker, whose metadata the maker's class then has at
/// hand. Named in code generic over the key, `KeyedEncodingContainer<Key>` is a type of the
/// standard library whose size and copying are only known from metadata the run time looks up
/// in its caches (as costly as the container the maker saves).
protocol StreamKeyedBoxing {
    associatedtype Key: CodingKey
    /// Wraps `container` (the standard library's own initializer).
    init<Container: KeyedEncodingContainerProtocol>(_ container: Container) where Container.Key == Key
}

extension KeyedEncodingContainer: StreamKeyedBoxing {}

/// The maker of the stream's keyed containers for the key type `Key`.
typealias StreamKeyedMakerOf<Key: CodingKey> = StreamKeyedMaker<StreamKeyedContainer<Key>, KeyedEncodingContainer<Key>>

/// Makes the keyed containers of one key type (``StreamEncoder/container(keyedBy:)``, kept in ``StreamShapes``):
/// `Made` is `KeyedEncodingContainer<Container.Key>` (see ``StreamKeyedBoxing``).
///
/// Generic over the container type, not the key: the container's metadata and its conformance
/// are then arguments of the maker's own class, which a call to ``make(sink:level:)`` reads
/// from the maker, rather than being looked up in the run time's caches for every container
/// (a large part of what making a keyed container costs).
final class StreamKeyedMaker<Container: StreamKeyedMaking, Made: StreamKeyedBoxing>: StreamKeyedMakerBase
where Made.Key == Container.Key {
    /// The last container made in the current encode (when ``isKept``), and its level. A
    /// container is nothing but its sink and its level (no state of its own), so the next one
    /// at that level (the next element of an array, say) is this same value, handed out again:
    /// the standard library's box around a new one costs a run-time metadata look-up, an
    /// allocation and a free. Dropped when the encode is over (``forget()``), so none outlives it.
    ///
    /// In memory of its own rather than in an optional property, whose every change would look
    /// `Optional<Made>`'s metadata up. Lifetime: allocated by `init`, freed by `deinit`; holds
    /// an initialised value exactly while `isKept`; no pointer to it leaves this class. Like the
    /// rest of a sink, used by one encode on one thread at a time (an `Encoder` is not `Sendable`).
    private let slot = UnsafeMutablePointer<Made>.allocate(capacity: 1)
    @exclusivity(unchecked) private var isKept = false
    @exclusivity(unchecked) private var keptLevel = 0

    deinit {
        forget()
        slot.deallocate()
    }

    /// A container at `level` (the number of containers open below it) writing into `sink`.
    /// Never inlined: inlined into a caller generic over the key, it would look the types up again.
    @inline(never)
    func make(sink: StreamSink, level: Int) -> Made {
        if isKept {
            if level == keptLevel { return slot.pointee }
            slot.deinitialize(count: 1)
        }
        slot.initialize(to: Made(Container(sink: sink, level: level)))
        isKept = true
        keptLevel = level
        return slot.pointee
    }

    override func forget() {
        if isKept {
            isKept = false
            slot.deinitialize(count: 1)
        }
    }
}
