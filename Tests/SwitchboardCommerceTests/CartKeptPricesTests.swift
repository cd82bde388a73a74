import Foundation
import Switchboard
import SwitchboardCommerce
import Testing

/// The cart keeps each offer's parsed prices and its last reply: these check that what it
/// keeps follows every change, failed ones included, and never depends on the history.
@Suite struct CartKeptPricesTests {
    func offer(
        _ id: String, price: String? = "10.50", oldPrice: String? = nil, currency: String? = "EUR", quantity: Int = 1
    ) -> ProductCartOffer {
        ProductCartOffer(
            offerId: id, name: "Product \(id)", imageUrls: [], currency: currency,
            price: price, oldPrice: oldPrice, availability: 1, quantity: quantity)
    }

    @Test func replacingOrRemovingTheOnlyOfferWithAnOldPriceDropsTheCartsOldPrice() throws {
        let cart = Cart()
        try cart.update(offer("a", price: "8.00", oldPrice: "10.00"))
        try cart.update(offer("b", price: "1.5"))
        #expect(try cart.productCart().oldPrice == "11.50")
        #expect(try cart.update(offer("a", price: "8.00")).oldPrice == nil)
        #expect(try cart.productCart().oldPrice == nil)
        #expect(try cart.update(offer("b", price: "1.5", oldPrice: "2")).oldPrice == "10.00")
        #expect(try cart.update(offer("b", quantity: 0)).oldPrice == nil)
        #expect(
            try cart.productCart()
                == ProductCart(
                    offers: [offer("a", price: "8.00")], price: "8.00", oldPrice: nil, priceCurrency: "EUR"))
    }

    @Test func aRefusedUpdateKeepsTheReplacedOffersPrices() throws {
        let cart = Cart()
        try cart.update(offer("a", price: "2.25", oldPrice: "3", quantity: 2))
        let before = try cart.update(offer("b", price: "1"))
        #expect(throws: CartError.totalTooLarge(field: "price")) {
            try cart.update(offer("a", price: "99999999999999999999.99", quantity: Int.max))
        }
        #expect(throws: CartError.unparsablePrice(offerId: "a", field: "oldPrice", value: "x")) {
            try cart.update(offer("a", oldPrice: "x"))
        }
        #expect(throws: CartError.mixedCurrencies(["EUR", "USD"])) { try cart.update(offer("a", currency: "USD")) }
        #expect(try cart.productCart() == before)
        // The kept prices are a's old ones: b's new quantity is the only change in the total.
        #expect(try cart.update(offer("b", price: "1", quantity: 3)).price == "7.50")
    }

    @Test func emptyingTheCartForgetsTheKeptReply() throws {
        let cart = Cart()
        try cart.update(offer("a", oldPrice: "11"))
        cart.removeAll()
        #expect(try cart.productCart() == ProductCart(offers: [], price: "0", oldPrice: nil, priceCurrency: ""))
        #expect(try cart.update(offer("b", price: "1", currency: "USD")).priceCurrency == "USD")
    }

    /// Any sequence of updates, refused ones included, leaves the cart a fresh cart given
    /// only its final offers (in order) would be: same reply, same errors after it.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func theCartDependsOnlyOnItsOffers(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let prices: [String?] = ["1", "0.5", "10.125", "99999999999999999999.99", "bad", nil]
        let oldPrices: [String?] = [nil, nil, "2", "3.75", "x"]
        let currencies: [String?] = ["EUR", "EUR", nil, "USD"]
        let cart = Cart()
        for _ in 0..<200 {
            let update = offer(
                "o\(random.below(6))",
                price: prices[random.below(prices.count)],
                oldPrice: oldPrices[random.below(oldPrices.count)],
                currency: currencies[random.below(currencies.count)],
                quantity: [0, 1, 2, 7, Int.max][random.below(5)])
            let got = Result<ProductCart, CartError> { () throws(CartError) in try cart.update(update) }
            let fresh = Cart()
            for kept in cart.offers { try fresh.update(kept) }
            let expected = try fresh.productCart()
            #expect(try cart.productCart() == expected)
            if case .success(let reply) = got { #expect(reply == expected) }
        }
    }
}
