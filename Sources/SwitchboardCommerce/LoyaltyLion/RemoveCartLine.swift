import Switchboard

/// LoyaltyLion's `removeCartLine`: a line must be removed from the cart
/// (Shopify's `cartLinesRemove`), typically because the shopper cancelled a
/// redeemed free product reward.
///
/// ```json
/// {"lineId": "gid://shopify/CartLine/1", "merchandiseId": "gid://shopify/ProductVariant/1001",
///  "productId": "gid://shopify/Product/100", "quantity": 1, "attributes": {"__lion_sfp_id": "19fdf4cb"}}
/// ```
/// Every field is required; `lineId` identifies the line, the other fields describe it.
public struct RemoveCartLine: Event, Hashable, Codable {
    /// `removeCartLine`.
    public static let channel: Channel = "removeCartLine"

    /// The CartLine ID to remove, e.g. `gid://shopify/CartLine/1`.
    public var lineId: String
    /// The ProductVariant ID of the line.
    public var merchandiseId: String
    /// The Product ID of the line.
    public var productId: String
    /// The quantity of the line.
    public var quantity: Int
    /// The attributes of the line.
    public var attributes: [String: String]

    /// Creates the event.
    public init(lineId: String, merchandiseId: String, productId: String, quantity: Int, attributes: [String: String]) {
        self.lineId = lineId
        self.merchandiseId = merchandiseId
        self.productId = productId
        self.quantity = quantity
        self.attributes = attributes
    }
}
