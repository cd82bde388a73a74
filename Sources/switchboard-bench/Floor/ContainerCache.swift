/// Keyed containers kept by key type for the floor's "containers reused" variant: a
/// decoder or encoder whose containers hold no state of their own can hand out the same
/// `KeyedDecodingContainer`/`KeyedEncodingContainer` box for every container of one key
/// type, so it pays neither the generic metadata and witness-table lookups that making
/// one takes nor its allocation. (A real decoder could do the same with a container it
/// re-points, when nothing else holds it.)
///
/// Keyed by the key type only, so one cache must serve one kind of container: the replay
/// decoder and the discard encoder each have their own (FloorWorkload), and `Container`
/// is then always the same box type for a given key.
final class ContainerCache {
    // `@exclusivity(unchecked)`: read and appended in short accesses on one thread, no user code inside.
    @exclusivity(unchecked) private var keys: [ObjectIdentifier] = []
    @exclusivity(unchecked) private var boxes: [AnyObject] = []

    /// The container kept for `key`, or the one `make` makes (then kept).
    @inline(__always)
    func container<Container>(for key: ObjectIdentifier, _ make: () -> Container) -> Container {
        for index in keys.indices where keys[index] == key {
            return unsafeBitCast(boxes[index], to: Container.self)
        }
        let made = make()
        keys.append(key)
        boxes.append(unsafeBitCast(made, to: AnyObject.self))
        return made
    }
}
