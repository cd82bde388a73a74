import Switchboard

/// InAppStory's cart contents: the reply to `productCartUpdate` and `productCartGetState`.
///
/// Totals are decimal text (`"31.50"`), computed exactly by the reference ``Cart``.
public struct ProductCart: Codable, Hashable, Sendable {
    /// The products in the cart.
    public var offers: [ProductCartOffer]
    /// The total price of the products in the cart.
    public var price: String
    /// The old total price (without discounts).
    public var oldPrice: String?
    /// The currency of the cart.
    public var priceCurrency: String

    /// Creates a cart, as the SDK's initializer does.
    public init(offers: [ProductCartOffer], price: String, oldPrice: String?, priceCurrency: String) {
        self.offers = offers
        self.price = price
        self.oldPrice = oldPrice
        self.priceCurrency = priceCurrency
    }
}
