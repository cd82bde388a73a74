import Switchboard

/// The reference cart changed: pushed to the page (`Router.push(_:)`) after every change the
/// reference handlers make (`addCartLine`, `removeCartLine`, `productCartUpdate`), so a page can
/// show the cart without asking for it.
///
/// Its body is the cart as `productCartGetState` replies it (``ProductCart``: offers and totals),
/// with the LoyaltyLion cart lines beside it:
/// ```json
/// {"offers":[…],"price":"31.50","priceCurrency":"EUR","lines":[{"lineId":"gid://shopify/CartLine/1",…}]}
/// ```
public struct CartChanged: Push, Codable, Hashable {
    /// `cartChanged`.
    public static let channel: Channel = "cartChanged"

    /// The offers in the cart (InAppStory).
    public var offers: [ProductCartOffer]
    /// The total price of the offers.
    public var price: String
    /// The old total price (without discounts), when some offer has one.
    public var oldPrice: String?
    /// The currency of the offers (`""` when there are none).
    public var priceCurrency: String
    /// The cart lines (LoyaltyLion), in the order they were created.
    public var lines: [CartLine]

    /// Creates the push from a cart's offers and lines.
    public init(cart: ProductCart, lines: [CartLine]) {
        offers = cart.offers
        price = cart.price
        oldPrice = cart.oldPrice
        priceCurrency = cart.priceCurrency
        self.lines = lines
    }
}
