import Switchboard

/// The reference, thread-safe, in-memory wishlist: `wishlistEntryUpdate` with
/// `isWishlisted: true` adds the entry (or refreshes its title, price and
/// custom data, keeping its place); `false` removes it (removing an entry that
/// is not there changes nothing). Entries are identified by their whole
/// ``WishlistEntryID``.
///
/// Cost: entries are kept in the order they were first added beside a hash index by
/// ID, so an update takes the same time whatever the number of entries (O(1)
/// amortised); ``snapshot`` (the `wishlistGetState` reply) and ``entries`` list them all.
public final class Wishlist: Sendable {
    /// An entry as the store keeps it.
    private struct Stored {
        var entry: WishlistEntry
    }

    private struct State {
        /// The entries in the order they were first added, found by ID in O(1).
        var entries = InsertionOrderedStore<Prehashed<WishlistEntryID>, Stored>()
    }

    private let state = Locked(State())

    /// Creates an empty wishlist.
    public init() {}

    /// The entries, in the order they were first added.
    public var entries: [WishlistEntry] {
        state.withLock { state in
            var entries: [WishlistEntry] = []
            entries.reserveCapacity(state.entries.count)
            state.entries.forEachElement { entries.append($0.entry) }
            return entries
        }
    }

    /// The entries, as `wishlistGetState` replies them (it lists them all: O(count)).
    public var snapshot: WishlistState {
        WishlistState(entries: entries)
    }

    /// Whether the entry with `id` is on the wishlist (O(1)).
    public func contains(_ id: WishlistEntryID) -> Bool {
        state.withLock { $0.entries.contains(Prehashed(id)) }
    }

    /// Applies an update.
    /// - Returns: the wishlist after the update, which lists every entry (O(count));
    ///   the `wishlistEntryUpdate` handler does not ask for it, and its update is O(1) amortised.
    @discardableResult
    public func apply(_ update: WishlistEntryUpdate) -> WishlistState {
        state.withLock { state in
            Wishlist.apply(update, to: &state)
            var entries: [WishlistEntry] = []
            entries.reserveCapacity(state.entries.count)
            state.entries.forEachElement { entries.append($0.entry) }
            return WishlistState(entries: entries)
        }
    }

    /// Applies an update (``apply(_:)``) without listing the wishlist: what the `wishlistEntryUpdate` handler calls.
    func applyDiscardingState(_ update: WishlistEntryUpdate) {
        state.withLock { Wishlist.apply(update, to: &$0) }
    }

    /// Adds, refreshes (in place) or removes the entry: one hash lookup, whatever the number of entries.
    private static func apply(_ update: WishlistEntryUpdate, to state: inout State) {
        let id = Prehashed(update.id)
        guard update.isWishlisted else {
            state.entries.remove(id)
            return
        }
        let entry = WishlistEntry(
            id: update.id, title: update.title, price: update.price, customData: update.customData)
        let refreshed: Void? = state.entries.modify(id) { (stored: inout Stored) in
            stored = Stored(entry: entry)
        }
        if refreshed == nil { state.entries.append(Stored(entry: entry), for: id) }
    }

    /// Empties the wishlist.
    public func removeAll() {
        state.withLock { $0 = State() }
    }
}
