import Switchboard

/// The reference, thread-safe, in-memory wishlist: `wishlistEntryUpdate` with
/// `isWishlisted: true` adds the entry (or refreshes its title, price and
/// custom data, keeping its place); `false` removes it (removing an entry that
/// is not there changes nothing). Entries are identified by their whole
/// ``WishlistEntryID``.
public final class Wishlist: Sendable {
    private struct State {
        var entries: [WishlistEntry] = []
        /// The JSON text of each entry in `entries` (same index), written the first time a
        /// state holding it is replied; empty until then. Replies copy it instead of writing
        /// every entry again (``WishlistState/entriesJSON``).
        var entriesJSON: [[UInt8]] = []
        /// Where entries are written, reused.
        var writer = JSONWriter(capacity: 1024)
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
        state.withLock { state in
            for index in state.entries.indices where state.entriesJSON[index].isEmpty {
                state.writer.reset()
                state.entries[index].writeJSON(to: &state.writer)
                state.entriesJSON[index] = state.writer.bytes
            }
            var snapshot = WishlistState(entries: state.entries)
            snapshot.entriesJSON = state.entriesJSON
            return snapshot
        }
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
                    state.entriesJSON[index] = []
                } else {
                    state.entries.append(entry)
                    state.entriesJSON.append([])
                }
            } else if let index {
                state.entries.remove(at: index)
                state.entriesJSON.remove(at: index)
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
