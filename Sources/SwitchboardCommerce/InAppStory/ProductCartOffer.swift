import Switchboard

/// InAppStory's product object: one offer selected in a story, with the
/// quantity that should be in the cart. Fields, names, types and optionality
/// are the SDK's; prices are strings (`"10.50"`) so that no digit is lost.
public struct ProductCartOffer: Codable, Hashable, Sendable {
    /// The product ID; offers are identified by it in the cart.
    public var offerId: String
    /// The product group ID.
    public var groupId: String?
    /// The product name.
    public var name: String?
    /// The product description.
    public var description: String?
    /// A link to an external resource for the product.
    public var url: String?
    /// The cover image address.
    public var coverUrl: String?
    /// The addresses of the product images.
    public var imageUrls: [String]
    /// The currency the product is priced in, e.g. `EUR`.
    public var currency: String?
    /// The current price (after discounts), as decimal text, e.g. `"10.50"`.
    public var price: String?
    /// The old price (before discounts), as decimal text.
    public var oldPrice: String?
    /// Whether the product has age restrictions.
    public var adult: Bool?
    /// The product availability.
    public var availability: Int
    /// The product size.
    public var size: String?
    /// The product color.
    public var color: String?
    /// The quantity of the product that should be in the cart (it replaces, never adds).
    public var quantity: Int

    /// Creates an offer.
    public init(
        offerId: String,
        groupId: String? = nil,
        name: String? = nil,
        description: String? = nil,
        url: String? = nil,
        coverUrl: String? = nil,
        imageUrls: [String] = [],
        currency: String? = nil,
        price: String? = nil,
        oldPrice: String? = nil,
        adult: Bool? = nil,
        availability: Int = 1,
        size: String? = nil,
        color: String? = nil,
        quantity: Int
    ) {
        self.offerId = offerId
        self.groupId = groupId
        self.name = name
        self.description = description
        self.url = url
        self.coverUrl = coverUrl
        self.imageUrls = imageUrls
        self.currency = currency
        self.price = price
        self.oldPrice = oldPrice
        self.adult = adult
        self.availability = availability
        self.size = size
        self.color = color
        self.quantity = quantity
    }
}
