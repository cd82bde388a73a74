/// A growable stack of plain values for ``StreamSink``: its open containers and the spans of
/// their keys, pushed and read once or more per member, without the uniqueness check and
/// copy-on-write of an `Array` in a class.
///
/// Lifetime: the buffer is allocated by `init` and only replaced by `grow` (which frees the old
/// one after copying it) and freed by `deinit`; a stack is a final class that no code outside
/// this file reaches into, and its `Element`s are trivial (no references), so no pointer to
/// the buffer outlives the call that made it and nothing needs deinitialising.
final class StreamStack<Element: BitwiseCopyable> {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The number of elements.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 4)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The element at `index` (which must be below ``count``).
    subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "StreamStack index out of range")
            return base[index]
        }
        @inline(__always) set {
            precondition(index >= 0 && index < count, "StreamStack index out of range")
            base[index] = newValue
        }
    }

    @inline(__always)
    func append(_ element: Element) {
        if _slowPath(count == capacity) { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    /// Removes and returns the last element (the stack must not be empty).
    @inline(__always)
    func removeLast() -> Element {
        precondition(count > 0, "StreamStack is empty")
        count &-= 1
        return base[count]
    }

    /// Drops the elements from `index` on.
    @inline(__always)
    func removeAll(from index: Int) {
        if index >= 0 && index < count { count = index }
    }

    /// Calls `body` with the elements (valid only during the call).
    @inline(__always)
    func withElements<Result>(_ body: (UnsafeBufferPointer<Element>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: base, count: count))
    }

    private func grow() {
        let grown = capacity &* 2
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: grown)
        fresh.initialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = grown
    }
}
