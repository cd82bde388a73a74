import Switchboard

/// One line of the reference ``Cart``, as `addCartLine` created it.
public struct CartLine: Codable, Hashable, Sendable {
    /// The line's ID, `gid://shopify/CartLine/<n>`, with `n` counting from 1 in each cart.
    public var lineId: String
    /// The ProductVariant ID.
    public var merchandiseId: String
    /// The Product ID.
    public var productId: String
    /// The quantity (at least 1).
    public var quantity: Int
    /// The line's attributes.
    public var attributes: [String: String]

    /// Creates a line.
    public init(lineId: String, merchandiseId: String, productId: String, quantity: Int, attributes: [String: String]) {
        self.lineId = lineId
        self.merchandiseId = merchandiseId
        self.productId = productId
        self.quantity = quantity
        self.attributes = attributes
    }
}
