import Switchboard
import SwitchboardCommerce
import Testing

@Suite struct WishlistTests {
    let shirt = WishlistEntryID(productId: "P-220", listingId: "L-220-1", variantId: "V-220-1-M")

    @Test func wishlistingAddsAnEntryAndUnwishlistingRemovesIt() {
        let wishlist = Wishlist()
        wishlist.apply(WishlistEntryUpdate(id: shirt, isWishlisted: true, title: "Linen shirt", price: "59.00"))
        #expect(wishlist.contains(shirt))
        #expect(wishlist.entries == [WishlistEntry(id: shirt, title: "Linen shirt", price: "59.00")])
        let state = wishlist.apply(WishlistEntryUpdate(id: shirt, isWishlisted: false))
        #expect(state.entries.isEmpty)
    }

    @Test func entriesDifferByVariant() {
        let wishlist = Wishlist()
        wishlist.apply(WishlistEntryUpdate(id: shirt, isWishlisted: true))
        var large = shirt
        large.variantId = "V-220-1-L"
        wishlist.apply(WishlistEntryUpdate(id: large, isWishlisted: true))
        #expect(wishlist.entries.map(\.id) == [shirt, large])
    }

    @Test func wishlistingAgainRefreshesTheEntryInPlace() {
        let wishlist = Wishlist()
        wishlist.apply(WishlistEntryUpdate(id: shirt, isWishlisted: true, title: "Old"))
        wishlist.apply(WishlistEntryUpdate(id: WishlistEntryID(productId: "P-1"), isWishlisted: true))
        let custom = JSONValue.object(["isPersonalisable": .bool(true)])
        wishlist.apply(WishlistEntryUpdate(id: shirt, isWishlisted: true, title: "New", customData: custom))
        #expect(wishlist.entries.first == WishlistEntry(id: shirt, title: "New", customData: custom))
        #expect(wishlist.entries.count == 2)
    }

    @Test func removingAnEntryThatIsNotThereChangesNothing() {
        let wishlist = Wishlist()
        wishlist.apply(WishlistEntryUpdate(id: shirt, isWishlisted: true))
        wishlist.apply(WishlistEntryUpdate(id: WishlistEntryID(productId: "P-9"), isWishlisted: false))
        #expect(wishlist.entries.count == 1)
    }
}
