import Switchboard

/// The reference, thread-safe, in-memory wishlist: `wishlistEntryUpdate` with
/// `isWishlisted: true` adds the entry (or refreshes its title, price and
/// custom data, keeping its place); `false` removes it (removing an entry that
/// is not there changes nothing). Entries are identified by their whole
/// ``WishlistEntryID``.
public final class Wishlist: Sendable {
    private struct State {
        var entries: [WishlistEntry] = []
    }

    private let state = Locked(State())

    /// Creates an empty wishlist.
    public init() {}

    /// The entries, in the order they were first added.
    public var entries: [WishlistEntry] {
        state.withLock { $0.entries }
    }

    /// The entries, as `wishlistGetState` replies them.
    public var snapshot: WishlistState {
        WishlistState(entries: state.withLock { $0.entries })
    }

    /// Whether the entry with `id` is on the wishlist.
    public func contains(_ id: WishlistEntryID) -> Bool {
        state.withLock { state in state.entries.indices.contains { state.entries[$0].id == id } }
    }

    /// Applies an update.
    /// - Returns: the wishlist after the update.
    @discardableResult
    public func apply(_ update: WishlistEntryUpdate) -> WishlistState {
        let entries = state.withLock { state -> [WishlistEntry] in
            // Indices, not `firstIndex(where:)`, which hands its predicate a copy of each entry.
            let index = state.entries.indices.first { state.entries[$0].id == update.id }
            if update.isWishlisted {
                let entry = WishlistEntry(
                    id: update.id, title: update.title, price: update.price, customData: update.customData)
                if let index {
                    state.entries[index] = entry
                } else {
                    state.entries.append(entry)
                }
            } else if let index {
                state.entries.remove(at: index)
            }
            return state.entries
        }
        return WishlistState(entries: entries)
    }

    /// Empties the wishlist.
    public func removeAll() {
        state.withLock { $0 = State() }
    }
}
