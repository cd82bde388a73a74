import Switchboard

/// LoyaltyLion's `addCartLine`: a shopper redeemed a free product reward and a
/// line must be added to the cart (Shopify's `cartLinesAdd`).
///
/// ```json
/// {"merchandiseId": "gid://shopify/ProductVariant/1001", "productId": "gid://shopify/Product/100",
///  "quantity": 1, "attributes": {"__lion_sfp_id": "19fdf4cb"}}
/// ```
/// Every field is required. `attributes` are Shopify cart-line attributes, which
/// are string key/value pairs: a value that is not a string makes the message
/// `invalid` (`body.attributes.__lion_sfp_id: Expected to decode String but found a number instead.`).
public struct AddCartLine: Event, Hashable, Codable {
    /// `addCartLine`.
    public static let channel: Channel = "addCartLine"

    /// The ProductVariant ID to add, e.g. `gid://shopify/ProductVariant/1001`.
    public var merchandiseId: String
    /// The Product ID, e.g. `gid://shopify/Product/100`.
    public var productId: String
    /// How many to add.
    public var quantity: Int
    /// The line's attributes, e.g. `["__lion_sfp_id": "19fdf4cb"]` (the discount marker).
    public var attributes: [String: String]

    /// Creates the event.
    public init(merchandiseId: String, productId: String, quantity: Int, attributes: [String: String]) {
        self.merchandiseId = merchandiseId
        self.productId = productId
        self.quantity = quantity
        self.attributes = attributes
    }
}
