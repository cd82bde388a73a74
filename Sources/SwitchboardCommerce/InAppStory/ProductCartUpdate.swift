import Switchboard

/// InAppStory's `productCartUpdate`: set the quantity of an offer in the cart to
/// the one received (replace, never add), and reply with the whole cart.
///
/// ```json
/// {"offer": {"offerId": "sku-7", "imageUrls": [], "availability": 1, "quantity": 2,
///            "price": "10.50", "currency": "EUR"}}
/// ```
public struct ProductCartUpdate: Request, Hashable, Codable {
    /// The reply: the cart after the update.
    public typealias Reply = ProductCart

    /// `productCartUpdate`.
    public static let channel: Channel = "productCartUpdate"

    /// The offer, with the quantity that should be in the cart.
    public var offer: ProductCartOffer

    /// Creates the request.
    public init(offer: ProductCartOffer) {
        self.offer = offer
    }
}
