import Switchboard

/// The reference, thread-safe, in-memory wishlist: `wishlistEntryUpdate` with
/// `isWishlisted: true` adds the entry (or refreshes its title, price and
/// custom data, keeping its place); `false` removes it (removing an entry that
/// is not there changes nothing). Entries are identified by their whole
/// ``WishlistEntryID``.
///
/// Cost: entries are kept in the order they were first added beside a hash index by
/// ID (hashed once per update, outside the lock), so an update takes the same time
/// whatever the number of entries (O(1) amortised). ``snapshot`` (the `wishlistGetState`
/// reply) and ``entries`` hand out the store's own array of entries, copying none.
public final class Wishlist: Sendable {
    private struct State {
        /// The entries in the order they were first added, found by ID (``Wishlist/hash(of:)``) in O(1).
        var entries = InsertionOrderedStore<WishlistEntry>()
    }

    private let state = Locked(State())

    /// Creates an empty wishlist.
    public init() {}

    /// The entries, in the order they were first added.
    public var entries: [WishlistEntry] {
        state.withLock { $0.entries.orderedElements() }
    }

    /// The entries, as `wishlistGetState` replies them.
    public var snapshot: WishlistState {
        WishlistState(entries: entries)
    }

    /// Whether the entry with `id` is on the wishlist (O(1)).
    public func contains(_ id: WishlistEntryID) -> Bool {
        let hash = Wishlist.hash(of: id)
        return state.withLock { $0.entries.slot(hash: hash) { $0.id == id } != nil }
    }

    /// Applies an update.
    /// - Returns: the wishlist after the update (its entries are handed out, not copied).
    @discardableResult
    public func apply(_ update: WishlistEntryUpdate) -> WishlistState {
        let hash = Wishlist.hash(of: update.id)
        let entry = update.isWishlisted ? Wishlist.entry(of: update) : nil
        let (entries, replaced) = state.withLock { state in
            let replaced = Wishlist.apply(update, entry: entry, hash: hash, to: &state)
            return (state.entries.orderedElements(), replaced)
        }
        // The entry replaced is let go after unlocking (a removed one stays in its slot until the
        // store compacts: plain values, no user code in their release; see InsertionOrderedStore).
        withExtendedLifetime(replaced) {}
        return WishlistState(entries: entries)
    }

    /// Applies an update (``apply(_:)``) without listing the wishlist: what the `wishlistEntryUpdate` handler calls.
    func applyDiscardingState(_ update: WishlistEntryUpdate) {
        let hash = Wishlist.hash(of: update.id)
        let entry = update.isWishlisted ? Wishlist.entry(of: update) : nil
        let replaced = state.withLock { Wishlist.apply(update, entry: entry, hash: hash, to: &$0) }
        withExtendedLifetime(replaced) {}
    }

    /// The entry an update adds or refreshes.
    private static func entry(of update: WishlistEntryUpdate) -> WishlistEntry {
        WishlistEntry(id: update.id, title: update.title, price: update.price, customData: update.customData)
    }

    /// The hash an entry is found by: its three parts, a missing part apart from an empty one.
    /// (Inlined: called on its own, it would be handed a copy of the ID, its strings retained and released.)
    @inline(__always)
    static func hash(of id: WishlistEntryID) -> Int {
        var hasher = StoreHasher()
        hasher.combine(id.productId)
        hasher.combine(id.listingId)
        hasher.combine(id.variantId)
        return hasher.finalize()
    }

    /// Adds `entry`, refreshes the entry in place with it, or (when it is `nil`) removes the
    /// entry: one probe, whatever the number of entries.
    /// - Returns: the entry replaced or removed, to be released after unlocking.
    private static func apply(
        _ update: WishlistEntryUpdate, entry: WishlistEntry?, hash: Int, to state: inout State
    ) -> WishlistEntry? {
        let found = state.entries.slot(hash: hash) { $0.id == update.id }
        guard let entry else {
            guard let found else { return nil }
            return state.entries.remove(found)
        }
        guard let found else {
            state.entries.append(entry, hash: hash)
            return nil
        }
        return state.entries.modify(found) { stored in
            var replaced = entry
            swap(&replaced, &stored)
            return replaced
        }
    }

    /// Empties the wishlist.
    public func removeAll() {
        let old = state.withLock { state in
            defer { state = State() }
            return state
        }
        withExtendedLifetime(old) {}
    }
}
