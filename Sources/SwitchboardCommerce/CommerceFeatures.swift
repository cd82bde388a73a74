import Switchboard

extension Feature {
    /// LoyaltyLion's free product rewards: redeemable only when the host adds
    /// and removes cart lines (`addCartLine`, `removeCartLine`).
    public static let freeProductRewards = Feature(
        "freeProductRewards", needs: AddCartLine.channel, RemoveCartLine.channel)

    /// InAppStory's product cart: stories add to the host's cart and read it
    /// (`productCartUpdate`, `productCartGetState`).
    public static let productCart = Feature(
        "productCart", needs: ProductCartUpdate.channel, ProductCartGetState.channel)

    /// InAppStory's go-to-cart button (`productCartClicked`).
    public static let cartButton = Feature("cartButton", needs: ProductCartClicked.channel)

    /// Poq's wishlist button (`wishlistEntryUpdate`).
    public static let wishlist = Feature("wishlist", needs: WishlistEntryUpdate.channel)

    /// Every commerce feature, sorted by name.
    public static let commerce: [Feature] = [.cartButton, .freeProductRewards, .productCart, .wishlist]
}
