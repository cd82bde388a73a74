/// One kind of answer a ``ReplayDecoder`` gives, in the order a real decoder gave them:
/// the floor's "typed queue" (see ``FloorSection``).
///
/// Every call of one kind (`decode(String.self, forKey:)`, `container(keyedBy:)`, …)
/// takes the next entry, so after a replay `next` is the number of such calls the
/// replay made, and `items.count` the number the real decoder received while it was
/// recorded. Where the real decoder threw, the entry is a placeholder and its position
/// is a stop: the replay throws the recorded error there.
struct ReplayQueue<Item> {
    /// The answers, one per call.
    private(set) var items: [Item] = []
    /// The next entry to answer with.
    private(set) var next = 0
    /// Positions where the recorded call threw, ascending, and what it threw.
    private var stops: [Int] = []
    private var errors: [any Error] = []
    /// The next stop (`Int.max` when there is none), and its index in `stops`.
    private var nextStop = Int.max
    private var stopIndex = 0

    /// How many stops the replay has passed (calls that threw).
    var stopsPassed: Int { stopIndex }

    /// The next answer; throws the recorded error at a stop.
    @inline(__always)
    mutating func take() throws -> Item {
        let index = next
        next = index &+ 1
        if index == nextStop { try stop() }
        // A replay that asks for more than was recorded is not the recording's: an error, not a trap.
        guard index < items.count else { throw FloorMismatch(expected: "\(Item.self)") }
        return items[index]
    }

    /// Throws the error recorded at the current stop, and moves on to the next stop.
    @inline(never)
    private mutating func stop() throws {
        let error = errors[stopIndex]
        stopIndex += 1
        nextStop = stopIndex < stops.count ? stops[stopIndex] : .max
        throw error
    }

    /// Starts the replay from the first entry again.
    mutating func rewind() {
        next = 0
        stopIndex = 0
        nextStop = stops.first ?? .max
    }

    // MARK: Recording

    /// Records one answer; returns its position.
    @discardableResult
    mutating func record(_ item: Item) -> Int {
        items.append(item)
        return items.count - 1
    }

    /// Replaces the answer at `position` (recorded before the call it answers had finished).
    mutating func replace(_ item: Item, at position: Int) {
        items[position] = item
    }

    /// Marks the call at `position` as one that threw `error`.
    mutating func recordStop(at position: Int, _ error: any Error) {
        stops.append(position)
        errors.append(error)
        if stops.count == 1 { nextStop = position }
    }

    /// Records a call that threw `error` (with `placeholder` in its place).
    mutating func recordThrow(_ error: any Error, placeholder: Item) {
        recordStop(at: record(placeholder), error)
    }
}
