/// Elements kept in the order they were first inserted and found by key in O(1),
/// as swift-collections' `OrderedDictionary` keeps them, for the reference stores
/// (``Cart``'s lines, ``Wishlist``'s entries).
///
/// The elements are one array in insertion order beside a ``SlotIndex`` from each
/// element's hash to its slot (and, for stores that number their elements, one from
/// that number). The store does not know keys: the caller hashes a key once
/// (``StoreHasher``) and says which element has it (`where:`), which is asked only of
/// elements with an equal hash. So no key is kept twice, and no `Hasher` runs.
///
/// Removing an element marks its slot removed instead of shifting the elements after
/// it; once the removed slots outnumber the elements (and there are more than a
/// handful), one pass moves the elements down and re-indexes them. So insertion,
/// lookup, replacement and removal are O(1) amortised. ``orderedElements()`` first
/// drops the removed slots, then hands out the array itself: no element is copied,
/// and the array is copied only if the store changes while the caller still holds it.
///
/// A removed element stays in its slot until the next compaction, and is freed then,
/// inside whatever lock guards the store. The stores hold plain values decoded from
/// messages (strings, numbers, `JSONValue`s: no user type, closure or object), so that
/// release runs no user code.
struct InsertionOrderedStore<Element> {
    private struct Slot {
        /// The hash the element was inserted under.
        let hash: Int
        /// The element's number, for stores that find elements by number; otherwise 0.
        let number: Int
        var isLive: Bool
    }

    /// The elements in insertion order, removed ones included until the next compaction.
    private var elements: [Element] = []
    /// What the store knows of each element, by slot.
    private var slots: [Slot] = []
    private var byHash = SlotIndex()
    /// Elements by number (empty when the store does not number its elements).
    private var byNumber = SlotIndex()
    private let numbered: Bool
    /// How many elements are live.
    private(set) var count = 0

    /// Compaction waits for at least this many removed slots (a small store never compacts).
    private static var minimumRemoved: Int { 32 }

    /// An empty store.
    /// - Parameter numbered: whether elements are also found by a number given when they are appended.
    init(numbered: Bool = false) {
        self.numbered = numbered
    }

    /// Whether the store holds no element.
    var isEmpty: Bool { count == 0 }

    /// The slot of the element with `hash` for which `matches` is true, if any.
    func slot(hash: Int, where matches: (Element) -> Bool) -> Int? {
        byHash.first(hash) { slot in matches(elements[slot]) }
    }

    /// The slot of the element appended with `number`, if it is still there.
    func slot(number: Int) -> Int? {
        byNumber.first(number) { slot in slots[slot].number == number }
    }

    /// The element in `slot` (a slot ``slot(hash:where:)`` or ``slot(number:)`` returned).
    subscript(slot: Int) -> Element {
        elements[slot]
    }

    /// Changes the element in `slot` in place (keeping its place in the order) and returns what `change` returns.
    mutating func modify<T, Failure: Error>(
        _ slot: Int, _ change: (inout Element) throws(Failure) -> T
    ) throws(Failure) -> T {
        try change(&elements[slot])
    }

    /// Appends `element`, found by `hash` (and by `number` in a numbered store), after every element there is.
    /// - Precondition: no element has the same key (callers look it up first).
    mutating func append(_ element: Element, hash: Int, number: Int = 0) {
        let slot = elements.count
        elements.append(element)
        slots.append(Slot(hash: hash, number: number, isLive: true))
        byHash.insert(hash, slot: slot)
        if numbered { byNumber.insert(number, slot: slot) }
        count += 1
    }

    /// Removes the element in `slot`, keeping the order of the others.
    /// - Returns: the element removed.
    @discardableResult
    mutating func remove(_ slot: Int) -> Element {
        let removed = elements[slot]
        let info = slots[slot]
        slots[slot].isLive = false
        byHash.remove(info.hash, slot: slot)
        if numbered { byNumber.remove(info.number, slot: slot) }
        count -= 1
        let removedSlots = slots.count - count
        if removedSlots >= Self.minimumRemoved, removedSlots > count { compact() }
        return removed
    }

    /// Removes every element.
    mutating func removeAll() {
        elements = []
        slots = []
        byHash.removeAll(reservingFor: 0)
        byNumber.removeAll(reservingFor: 0)
        count = 0
    }

    /// The elements, in insertion order: the store's own array once the removed slots are dropped (O(1)
    /// when there are none, else O(slots)).
    mutating func orderedElements() -> [Element] {
        if slots.count != count { compact() }
        return elements
    }

    /// Moves the live elements down over the removed slots and re-indexes them: each pass
    /// costs O(slots), and follows at least as many removals or a listing of every element.
    private mutating func compact() {
        byHash.removeAll(reservingFor: count)
        byNumber.removeAll(reservingFor: numbered ? count : 0)
        var next = 0
        elements.withUnsafeMutableBufferPointer { elements in
            guard let base = elements.baseAddress else { return }
            for index in slots.indices where slots[index].isLive {
                if index != next {
                    // Swapped by moving (`swapAt` would copy each element three times, retaining its values):
                    // the removed element in `next` goes where the live one was.
                    let removed = (base + next).move()
                    (base + next).moveInitialize(from: base + index, count: 1)
                    (base + index).initialize(to: removed)
                    slots[next] = slots[index]
                }
                byHash.insert(slots[next].hash, slot: next)
                if numbered { byNumber.insert(slots[next].number, slot: next) }
                next += 1
            }
        }
        // One at a time: `removeLast(_:)` goes through `replaceSubrange`, which copied the buffer.
        while elements.count > next { elements.removeLast() }
        while slots.count > next { slots.removeLast() }
    }
}
