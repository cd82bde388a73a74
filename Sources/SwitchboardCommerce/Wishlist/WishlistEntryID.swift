import Switchboard

/// The identifier of a wishlist entry, as Poq's wishlist widget maps it from the
/// current product selection: the product, and optionally its listing and variant.
/// Two entries are the same entry when all three parts are equal.
public struct WishlistEntryID: Codable, Hashable, Sendable, CustomStringConvertible {
    /// The product ID.
    public var productId: String
    /// The listing ID, when the product is shown through a listing.
    public var listingId: String?
    /// The selected variant's ID, when a variant is selected.
    public var variantId: String?

    /// Creates an identifier.
    public init(productId: String, listingId: String? = nil, variantId: String? = nil) {
        self.productId = productId
        self.listingId = listingId
        self.variantId = variantId
    }

    /// `productId/listingId/variantId`, with `-` for a missing part.
    public var description: String {
        "\(productId)/\(listingId ?? "-")/\(variantId ?? "-")"
    }
}
