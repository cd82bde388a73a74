import Switchboard

/// One entry on the wishlist, as the reference ``Wishlist`` keeps it.
public struct WishlistEntry: Codable, Hashable, Sendable {
    /// The entry's identifier.
    public var id: WishlistEntryID
    /// The product title, as last sent.
    public var title: String?
    /// The display price, as last sent.
    public var price: String?
    /// The app's custom data, as last sent.
    public var customData: JSONValue?

    /// Creates an entry.
    public init(id: WishlistEntryID, title: String? = nil, price: String? = nil, customData: JSONValue? = nil) {
        self.id = id
        self.title = title
        self.price = price
        self.customData = customData
    }
}

/// The wishlist's contents: the reply to `wishlistGetState`.
///
/// ```json
/// {"entries": [{"id": {"productId": "P-220", "listingId": "L-220-1"}, "title": "Linen shirt"}]}
/// ```
public struct WishlistState: Codable, Hashable, Sendable {
    /// The entries, in the order they were first added.
    public var entries: [WishlistEntry]

    /// Creates a state.
    public init(entries: [WishlistEntry]) {
        self.entries = entries
    }
}
