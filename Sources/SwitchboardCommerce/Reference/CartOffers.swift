/// A cart's offers with each offer's prices parsed once, when the offer is set, and the
/// last ``ProductCart`` made from them, kept until the offers change.
///
/// ``Cart/update(_:)`` parses only the offer it sets and ``Cart/productCart()`` reuses the
/// kept reply, so neither re-reads the other offers' price text. The replies and errors are
/// those of pricing every offer from its text in order: every offer kept here was priced
/// when it was set, so only the offer being set can fail to parse.
struct CartOffers {
    /// The offers, in the order they were first added.
    private(set) var offers: [ProductCartOffer] = []
    /// `offers[i]`'s price × quantity, beside it.
    private var prices: [CartTotals.Term] = []
    /// `offers[i]`'s old price (its price when it has none) × quantity, beside it.
    private var oldPrices: [CartTotals.Term] = []
    /// How many offers have an old price (the cart's `oldPrice` is present when some has).
    private var oldPriceCount = 0
    /// The cart made from `offers`, until they change.
    private var reply: ProductCart?

    /// The offers with their totals: the kept reply, or a new one (kept when made).
    mutating func cart() -> Result<ProductCart, CartError> {
        if let reply { return .success(reply) }
        let made = makeCart()
        if case .success(let cart) = made { reply = cart }
        return made
    }

    /// Sets `offer`'s quantity (0 removes it; `offer.quantity` is not negative), replacing
    /// the offer's other fields, and returns the cart; on failure nothing changes.
    mutating func set(_ offer: ProductCartOffer) -> Result<ProductCart, CartError> {
        let index = offers.indices.first { offers[$0].offerId == offer.offerId }
        guard offer.quantity > 0 else {
            guard let index else { return cart() }
            return change(undo: .insert(remove(at: index), at: index))
        }
        // The offer's prices, in the order the cart reports their errors.
        guard let priceText = offer.price else { return .failure(.missingPrice(offerId: offer.offerId)) }
        guard let price = CartTotals.parse(priceText) else {
            return .failure(.unparsablePrice(offerId: offer.offerId, field: "price", value: priceText))
        }
        var old: CartTotals.Price?
        if let oldText = offer.oldPrice {
            guard let parsed = CartTotals.parse(oldText) else {
                return .failure(.unparsablePrice(offerId: offer.offerId, field: "oldPrice", value: oldText))
            }
            old = parsed
        }
        let entry = Entry(
            offer: offer,
            price: CartTotals.Term(price: price, quantity: offer.quantity),
            oldPrice: CartTotals.Term(price: old ?? price, quantity: offer.quantity),
            hasOldPrice: old != nil
        )
        guard let index else {
            append(entry)
            return change(undo: .removeLast)
        }
        return change(undo: .restore(replace(at: index, with: entry), at: index))
    }

    /// Empties the offers.
    mutating func removeAll() {
        self = CartOffers()
    }

    // MARK: - Changing

    /// One offer with its parsed terms, as it goes in or comes out.
    private struct Entry {
        var offer: ProductCartOffer
        var price: CartTotals.Term
        var oldPrice: CartTotals.Term
        var hasOldPrice: Bool
    }

    /// How to take back a change when the cart it leaves cannot be made.
    private enum Undo {
        case insert(Entry, at: Int)
        case restore(Entry, at: Int)
        case removeLast
    }

    /// Makes the cart after a change, keeping it, or takes the change back when it cannot be made.
    private mutating func change(undo: Undo) -> Result<ProductCart, CartError> {
        let made = makeCart()
        switch (made, undo) {
        case (.success(let cart), _): reply = cart
        case (.failure, .insert(let entry, let index)): insert(entry, at: index)
        case (.failure, .restore(let entry, let index)): replace(at: index, with: entry)
        case (.failure, .removeLast): _ = remove(at: offers.count - 1)
        }
        return made
    }

    private mutating func append(_ entry: Entry) {
        // Dropped first (as in every change), so the offers array is not shared with it when changed.
        reply = nil
        offers.append(entry.offer)
        prices.append(entry.price)
        oldPrices.append(entry.oldPrice)
        if entry.hasOldPrice { oldPriceCount += 1 }
    }

    private mutating func insert(_ entry: Entry, at index: Int) {
        reply = nil
        offers.insert(entry.offer, at: index)
        prices.insert(entry.price, at: index)
        oldPrices.insert(entry.oldPrice, at: index)
        if entry.hasOldPrice { oldPriceCount += 1 }
    }

    private mutating func remove(at index: Int) -> Entry {
        reply = nil
        let price = prices.remove(at: index)
        let oldPrice = oldPrices.remove(at: index)
        let offer = offers.remove(at: index)
        let hasOldPrice = offer.oldPrice != nil
        if hasOldPrice { oldPriceCount -= 1 }
        return Entry(offer: offer, price: price, oldPrice: oldPrice, hasOldPrice: hasOldPrice)
    }

    @discardableResult
    private mutating func replace(at index: Int, with entry: Entry) -> Entry {
        reply = nil
        // Swapped, not copied: the old offer moves into the returned entry.
        var offer = entry.offer
        swap(&offer, &offers[index])
        let old = Entry(
            offer: offer, price: prices[index], oldPrice: oldPrices[index], hasOldPrice: offer.oldPrice != nil)
        prices[index] = entry.price
        oldPrices[index] = entry.oldPrice
        oldPriceCount += (entry.hasOldPrice ? 1 : 0) - (old.hasOldPrice ? 1 : 0)
        return old
    }

    // MARK: - Totals

    /// The cart from the parsed terms: the currency check reads each offer's currency, no price text.
    private func makeCart() -> Result<ProductCart, CartError> {
        // The currency, and whether a second one was seen (the error then lists them all).
        var currency: String?
        var mixed = false
        // Field by field (`offers[index].currency`), not offer by offer: a copy of an offer retains all its strings.
        for index in offers.indices {
            guard let offerCurrency = offers[index].currency else { continue }
            if let currency {
                if currency != offerCurrency { mixed = true }
            } else {
                currency = offerCurrency
            }
        }
        if mixed {
            // Distinct currencies in order of appearance, sorted for the message.
            var currencies: [String] = []
            for index in offers.indices {
                if let currency = offers[index].currency, !currencies.contains(currency) { currencies.append(currency) }
            }
            return .failure(.mixedCurrencies(currencies.sorted()))
        }
        guard let total = CartTotals.total(of: prices) else { return .failure(.totalTooLarge(field: "price")) }
        var oldTotal: String?
        if oldPriceCount > 0 {
            guard let computed = CartTotals.total(of: oldPrices) else {
                return .failure(.totalTooLarge(field: "oldPrice"))
            }
            oldTotal = computed
        }
        return .success(ProductCart(offers: offers, price: total, oldPrice: oldTotal, priceCurrency: currency ?? ""))
    }
}
