import Switchboard

/// Poq's `wishlistEntryUpdate`: the shopper added an entry to the wishlist
/// (`isWishlisted: true`) or removed it (`false`).
///
/// ```json
/// {"id": {"productId": "P-220", "listingId": "L-220-1", "variantId": "V-220-1-M"},
///  "isWishlisted": true, "title": "Linen shirt", "price": "59.00",
///  "customData": {"isPersonalisable": true}}
/// ```
/// `customData` is the app's own payload, passed through untouched. A handler
/// decodes a typed view of it with `context.decode(MyData.self, at: "customData")`.
public struct WishlistEntryUpdate: Event, Hashable, Codable {
    /// `wishlistEntryUpdate`.
    public static let channel: Channel = "wishlistEntryUpdate"

    /// The entry.
    public var id: WishlistEntryID
    /// Whether the entry is now on the wishlist.
    public var isWishlisted: Bool
    /// The product title.
    public var title: String?
    /// The display price, as text (e.g. `"59.00"`).
    public var price: String?
    /// The app's custom data for the entry, any JSON.
    public var customData: JSONValue?

    /// Creates the event.
    public init(
        id: WishlistEntryID, isWishlisted: Bool, title: String? = nil, price: String? = nil,
        customData: JSONValue? = nil
    ) {
        self.id = id
        self.isWishlisted = isWishlisted
        self.title = title
        self.price = price
        self.customData = customData
    }
}
