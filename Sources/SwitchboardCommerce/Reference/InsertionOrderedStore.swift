/// Elements kept in the order they were first inserted and found by key in O(1),
/// as swift-collections' `OrderedDictionary` keeps them, for the reference stores
/// (``Cart``'s lines, ``Wishlist``'s entries).
///
/// The order is an array of slots beside a hash index from key to slot. Removing
/// an element empties its slot (a tombstone) instead of shifting the elements after
/// it; once the empty slots outnumber the elements (and there are more than a
/// handful), one pass moves the elements down and re-indexes them. So insertion,
/// lookup, replacement and removal are O(1) amortised, and walking the elements in
/// order is O(count) (at most twice as many slots as elements are visited).
struct InsertionOrderedStore<Key: Hashable, Element> {
    private struct Slot {
        let key: Key
        var element: Element
    }

    /// The elements in insertion order; `nil` where one was removed.
    private var slots: [Slot?] = []
    /// The slot of each element's key.
    private var positions: [Key: Int] = [:]

    /// Compaction waits for at least this many empty slots (a small store never compacts).
    private static var minimumTombstones: Int { 32 }

    /// An empty store.
    init() {}

    /// How many elements the store holds.
    var count: Int { positions.count }

    /// Whether the store holds no element.
    var isEmpty: Bool { positions.isEmpty }

    /// Whether an element has `key`.
    func contains(_ key: Key) -> Bool {
        positions[key] != nil
    }

    /// The element with `key`, if any.
    subscript(key: Key) -> Element? {
        guard let slot = positions[key] else { return nil }
        return slots[slot]?.element
    }

    /// Changes the element with `key` in place (keeping its place in the order) and
    /// returns what `change` returns; `nil` (and `change` is not called) when no element has `key`.
    mutating func modify<T, Failure: Error>(
        _ key: Key, _ change: (inout Element) throws(Failure) -> T
    ) throws(Failure) -> T? {
        guard let slot = positions[key], slots[slot] != nil else { return nil }
        // Changed where it is (a copy would retain and release all it holds); the `!` is checked just above.
        return try change(&slots[slot]!.element)
    }

    /// Appends `element` under `key`, after every element there is.
    /// - Precondition: no element has `key` (callers check with ``contains(_:)`` or ``modify(_:_:)``).
    mutating func append(_ element: Element, for key: Key) {
        positions[key] = slots.count
        slots.append(Slot(key: key, element: element))
    }

    /// Removes the element with `key`, keeping the order of the others.
    /// - Returns: the removed element, or `nil` when no element has `key`.
    @discardableResult
    mutating func remove(_ key: Key) -> Element? {
        guard let slot = positions.removeValue(forKey: key) else { return nil }
        let removed = slots[slot]?.element
        slots[slot] = nil
        compactIfSparse()
        return removed
    }

    /// Removes every element.
    mutating func removeAll() {
        slots = []
        positions = [:]
    }

    /// Calls `body` with each element, in insertion order.
    func forEachElement(_ body: (Element) throws -> Void) rethrows {
        for slot in slots {
            if let slot { try body(slot.element) }
        }
    }

    /// Calls `change` with each element in insertion order, to change it in place.
    mutating func modifyEach(_ change: (inout Element) -> Void) {
        // Changed where they are; the `!` is checked by the `where` clause.
        for index in slots.indices where slots[index] != nil {
            change(&slots[index]!.element)
        }
    }

    /// The elements, in insertion order.
    var elements: [Element] {
        var elements: [Element] = []
        elements.reserveCapacity(count)
        forEachElement { elements.append($0) }
        return elements
    }

    /// Moves the elements down over the empty slots once these outnumber them: each
    /// pass costs O(slots) and follows at least as many removals, so removal stays O(1) amortised.
    private mutating func compactIfSparse() {
        let tombstones = slots.count - positions.count
        guard tombstones >= Self.minimumTombstones, tombstones > positions.count else { return }
        if positions.isEmpty {
            slots.removeAll(keepingCapacity: true)
            return
        }
        var next = 0
        for index in slots.indices {
            guard let slot = slots[index] else { continue }
            if index != next {
                slots[next] = slot
                positions[slot.key] = next
            }
            next += 1
        }
        slots.removeLast(slots.count - next)
    }
}
