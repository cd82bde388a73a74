import Foundation
import Switchboard
import SwitchboardCommerce
import SwitchboardTestSupport
import Testing

@Suite struct CartLineTests {
    let reward = AddCartLine(
        merchandiseId: "gid://shopify/ProductVariant/1001", productId: "gid://shopify/Product/100",
        quantity: 1, attributes: ["__lion_sfp_id": "19fdf4cb"])

    @Test func addingALineGivesItTheNextShopifyLineID() throws {
        let cart = Cart()
        let first = try cart.add(reward)
        var other = reward
        other.merchandiseId = "gid://shopify/ProductVariant/1002"
        let second = try cart.add(other)
        #expect(first.lineId == "gid://shopify/CartLine/1")
        #expect(second.lineId == "gid://shopify/CartLine/2")
        #expect(cart.lines.map(\.merchandiseId) == [reward.merchandiseId, other.merchandiseId])
    }

    @Test func sameMerchandiseAndAttributesAddQuantitiesToOneLine() throws {
        let cart = Cart()
        try cart.add(reward)
        var more = reward
        more.quantity = 2
        let line = try cart.add(more)
        #expect(line.lineId == "gid://shopify/CartLine/1")
        #expect(line.quantity == 3)
        #expect(cart.lines.count == 1)
    }

    @Test func differentAttributesMakeASeparateLine() throws {
        let cart = Cart()
        try cart.add(reward)
        var other = reward
        other.attributes = ["__lion_sfp_id": "aa01"]
        try cart.add(other)
        #expect(cart.lines.count == 2)
    }

    @Test func removingALineByIDRemovesIt() throws {
        let cart = Cart()
        let line = try cart.add(reward)
        let removed = try cart.removeLine(id: line.lineId)
        #expect(removed == line)
        #expect(cart.lines.isEmpty)
    }

    @Test func removingAnUnknownLineFailsNamingIt() {
        let cart = Cart()
        #expect(throws: CartError.unknownLine(lineId: "gid://shopify/CartLine/99")) {
            try cart.removeLine(id: "gid://shopify/CartLine/99")
        }
        let message = CartError.unknownLine(lineId: "gid://shopify/CartLine/99").description
        #expect(message.contains("gid://shopify/CartLine/99"))
    }

    @Test(arguments: [0, -1, Int.min])
    func addingLessThanOneFails(quantity: Int) {
        let cart = Cart()
        var line = reward
        line.quantity = quantity
        #expect(throws: CartError.invalidLineQuantity(merchandiseId: reward.merchandiseId, quantity: quantity)) {
            try cart.add(line)
        }
        #expect(cart.lines.isEmpty)
    }

    @Test func quantitiesThatWouldOverflowFailAndLeaveTheLine() throws {
        let cart = Cart()
        var huge = reward
        huge.quantity = Int.max
        try cart.add(huge)
        #expect(throws: CartError.lineQuantityOverflow(lineId: "gid://shopify/CartLine/1")) { try cart.add(reward) }
        #expect(cart.lines.first?.quantity == Int.max)
    }

    @Test func concurrentAddsAreAllCounted() async throws {
        let cart = Cart()
        let reward = reward
        await onDispatchThread {
            DispatchQueue.concurrentPerform(iterations: 200) { index in
                var line = reward
                line.merchandiseId = "gid://shopify/ProductVariant/\(index % 4)"
                _ = try? cart.add(line)
            }
        }
        #expect(cart.lines.count == 4)
        #expect(cart.lines.map(\.quantity).reduce(0, +) == 200)
        #expect(Set(cart.lines.map(\.lineId)).count == 4)
    }
}

@Suite struct ProductCartTests {
    func offer(
        _ id: String, price: String? = "10.50", oldPrice: String? = nil, currency: String? = "EUR", quantity: Int = 1
    ) -> ProductCartOffer {
        ProductCartOffer(
            offerId: id, name: "Product \(id)", imageUrls: ["https://cdn.example.com/\(id).jpg"], currency: currency,
            price: price, oldPrice: oldPrice, availability: 1, quantity: quantity)
    }

    @Test func totalIsPriceTimesQuantityWithThePricesFractionDigits() throws {
        let cart = Cart()
        let result = try cart.update(offer("sku-1", price: "10.50", quantity: 3))
        #expect(result.price == "31.50")
        #expect(result.priceCurrency == "EUR")
        #expect(result.oldPrice == nil)
        #expect(result.offers.count == 1)
    }

    @Test func totalUsesTheMostPreciseOfferPrice() throws {
        let cart = Cart()
        try cart.update(offer("a", price: "2", quantity: 2))
        let result = try cart.update(offer("b", price: "0.125", quantity: 1))
        #expect(result.price == "4.125")
    }

    @Test func decimalArithmeticIsExactWhereDoubleIsNot() throws {
        let cart = Cart()
        try cart.update(offer("a", price: "0.10"))
        let result = try cart.update(offer("b", price: "0.20"))
        #expect(result.price == "0.30")
    }

    @Test func oldPriceCountsOffersWithoutOneAtTheirPrice() throws {
        let cart = Cart()
        try cart.update(offer("a", price: "8.00", oldPrice: "10.00", quantity: 2))
        let result = try cart.update(offer("b", price: "5.5", quantity: 1))
        #expect(result.price == "21.50")
        #expect(result.oldPrice == "25.50")
    }

    @Test func updateSetsTheQuantityInsteadOfAddingToIt() throws {
        let cart = Cart()
        try cart.update(offer("a", quantity: 2))
        let result = try cart.update(offer("a", quantity: 5))
        #expect(result.offers.map(\.quantity) == [5])
        #expect(result.price == "52.50")
    }

    @Test func quantityZeroRemovesTheOffer() throws {
        let cart = Cart()
        try cart.update(offer("a"))
        try cart.update(offer("b"))
        let result = try cart.update(offer("a", quantity: 0))
        #expect(result.offers.map(\.offerId) == ["b"])
        #expect(try cart.update(offer("zzz", quantity: 0)).offers.map(\.offerId) == ["b"])
    }

    @Test func anUpdateKeepsTheOffersPlace() throws {
        let cart = Cart()
        try cart.update(offer("a"))
        try cart.update(offer("b"))
        let result = try cart.update(offer("a", quantity: 4))
        #expect(result.offers.map(\.offerId) == ["a", "b"])
    }

    @Test func negativeQuantityFailsAndChangesNothing() throws {
        let cart = Cart()
        try cart.update(offer("a", quantity: 2))
        #expect(throws: CartError.negativeQuantity(offerId: "a", quantity: -1)) {
            try cart.update(offer("a", quantity: -1))
        }
        #expect(cart.offers.map(\.quantity) == [2])
    }

    @Test func mixedCurrenciesFailNamingThem() throws {
        let cart = Cart()
        try cart.update(offer("a", currency: "EUR"))
        #expect(throws: CartError.mixedCurrencies(["EUR", "USD"])) { try cart.update(offer("b", currency: "USD")) }
        #expect(cart.offers.map(\.offerId) == ["a"])
        #expect(CartError.mixedCurrencies(["EUR", "USD"]).description.contains("EUR, USD"))
    }

    @Test func theCurrencyIsTheOffersOneAndAMissingPriceIsReportedBeforeMixedCurrencies() throws {
        let cart = Cart()
        try cart.update(offer("a", currency: nil))
        #expect(try cart.update(offer("b", currency: "EUR")).priceCurrency == "EUR")
        #expect(try cart.update(offer("c", currency: nil)).priceCurrency == "EUR")
        #expect(throws: CartError.missingPrice(offerId: "d")) {
            try cart.update(offer("d", price: nil, currency: "USD"))
        }
        #expect(throws: CartError.mixedCurrencies(["EUR", "GBP"])) { try cart.update(offer("a", currency: "GBP")) }
        #expect(cart.offers.map(\.offerId) == ["a", "b", "c"])
        #expect(try cart.productCart().price == "31.50")
    }

    @Test(arguments: ["ten", "10,50", "1e3", "-5.00", " 10.50", "10.", ".5", ""])
    func unparsablePriceFailsNamingTheOfferAndPrice(price: String) {
        let cart = Cart()
        let error = CartError.unparsablePrice(offerId: "a", field: "price", value: price)
        #expect(throws: error) { try cart.update(offer("a", price: price)) }
        #expect(cart.offers.isEmpty)
        #expect(error.description.contains("\"a\""))
    }

    @Test func unparsableOldPriceFailsNamingTheField() {
        #expect(throws: CartError.unparsablePrice(offerId: "a", field: "oldPrice", value: "n/a")) {
            try Cart().update(offer("a", oldPrice: "n/a"))
        }
    }

    @Test func anOfferWithoutAPriceFails() {
        #expect(throws: CartError.missingPrice(offerId: "a")) { try Cart().update(offer("a", price: nil)) }
    }

    @Test func offersWithoutCurrencyJoinTheCartsCurrency() throws {
        let cart = Cart()
        try cart.update(offer("a", currency: nil))
        #expect(try cart.productCart().priceCurrency == "")
        #expect(try cart.update(offer("b", currency: "RUB")).priceCurrency == "RUB")
    }

    @Test func anEmptyCartCostsZero() throws {
        let cart = try Cart().productCart()
        #expect(cart == ProductCart(offers: [], price: "0", oldPrice: nil, priceCurrency: ""))
    }

    @Test func hugeButExactTotalsAreWrittenInFull() throws {
        let cart = Cart()
        let result = try cart.update(offer("a", price: "99999999999999.99", quantity: 1_000_000_000))
        #expect(result.price == "99999999999999990000000.00")
    }

    @Test func totalsTooLargeToBeExactFail() {
        let cart = Cart()
        #expect(throws: CartError.totalTooLarge(field: "price")) {
            try cart.update(offer("a", price: "99999999999999999999.99", quantity: Int.max))
        }
        #expect(cart.offers.isEmpty)
    }
}
