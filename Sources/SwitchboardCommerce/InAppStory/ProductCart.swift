import Switchboard

/// InAppStory's cart contents: the reply to `productCartUpdate` and `productCartGetState`.
///
/// Totals are decimal text (`"31.50"`), computed exactly by the reference ``Cart``.
public struct ProductCart: Codable, Hashable, Sendable {
    /// The products in the cart.
    public var offers: [ProductCartOffer] {
        didSet { offersJSON = nil }
    }
    /// The total price of the products in the cart.
    public var price: String
    /// The old total price (without discounts).
    public var oldPrice: String?
    /// The currency of the cart.
    public var priceCurrency: String
    /// The JSON text of each of ``offers`` (same order), as ``ProductCartOffer/writeJSON(to:)``
    /// writes it, when the reference ``Cart`` made this value; `nil` otherwise, and after any
    /// change to ``offers``. Not part of the value: not encoded, compared or hashed.
    var offersJSON: [[UInt8]]? = nil

    enum CodingKeys: String, CodingKey {
        case offers, price, oldPrice, priceCurrency
    }

    /// Creates a cart, as the SDK's initializer does.
    public init(offers: [ProductCartOffer], price: String, oldPrice: String?, priceCurrency: String) {
        self.offers = offers
        self.price = price
        self.oldPrice = oldPrice
        self.priceCurrency = priceCurrency
    }

    /// Whether the two carts hold the same offers and totals.
    public static func == (lhs: ProductCart, rhs: ProductCart) -> Bool {
        lhs.offers == rhs.offers && lhs.price == rhs.price && lhs.oldPrice == rhs.oldPrice
            && lhs.priceCurrency == rhs.priceCurrency
    }

    /// Hashes the offers and totals.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(offers)
        hasher.combine(price)
        hasher.combine(oldPrice)
        hasher.combine(priceCurrency)
    }
}
