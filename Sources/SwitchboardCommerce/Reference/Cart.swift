import Foundation
import Switchboard

/// The reference, thread-safe, in-memory cart that the commerce handlers and
/// the `switchboard` CLI use. It holds two kinds of content side by side:
///
/// - **Cart lines** (LoyaltyLion, Shopify-style): ``add(_:)`` merges a line
///   with an existing one of the same merchandise and attributes (quantities
///   add, as `cartLinesAdd` does), otherwise creates a line with the next
///   ``CartLine/lineId`` (`gid://shopify/CartLine/1`, `…/2`, …);
///   ``removeLine(id:)`` removes a line by ID.
/// - **Offers** (InAppStory): ``update(_:)`` **sets** an offer's quantity (it
///   never adds); 0 removes the offer; ``productCart()`` is the offers with
///   exact totals.
///
/// Totals are computed in `Decimal`: `price` is the sum of price × quantity,
/// written with as many fraction digits as the most precise offer price
/// (`"10.50"` × 3 is `"31.50"`); `oldPrice` likewise, counting offers without
/// an old price at their price, and present only when some offer has one;
/// `priceCurrency` is the offers' currency (`""` when the cart has none).
/// An update that would leave the cart with a price that is missing or not
/// decimal text, or with two currencies, is refused and changes nothing.
///
/// Cost: lines are kept in creation order beside two hash indexes (by merchandise
/// and attributes, and by line number), so ``add(_:)`` and ``removeLine(id:)`` take the
/// same time whatever the number of lines (O(1) amortised: a removal leaves a gap
/// that is closed once gaps outnumber lines); ``lines`` lists them all. A line's
/// merchandise and attributes are hashed once per add, outside the lock, and compared
/// only with a line of the same hash. ``update(_:)`` and ``productCart()`` return the
/// whole cart with its totals, as `productCartUpdate` and `productCartGetState` reply
/// it: an offer's prices are parsed once, when it is set, so an update parses one offer
/// and sums the kept values, and ``productCart()`` returns the cart kept since the last change.
public final class Cart: Sendable {
    struct State {
        /// The lines in the order they were created, found by merchandise and attributes
        /// (``Cart/identityHash(merchandiseId:attributes:)``) and by line number in O(1).
        var lines = InsertionOrderedStore<CartLine>(numbered: true)
        var nextLine = 1
        /// The offers with their parsed prices and the last cart made from them.
        var offers = CartOffers()
    }

    private let state = Locked(State())

    /// Creates an empty cart.
    public init() {}

    // MARK: - Cart lines

    /// The cart lines, in the order they were created.
    public var lines: [CartLine] {
        state.withLock { $0.lines.orderedElements() }
    }

    /// Adds a line, or adds to the quantity of the line with the same
    /// merchandise and attributes.
    /// - Returns: the line as it is now.
    /// - Throws: ``CartError/invalidLineQuantity(merchandiseId:quantity:)`` below 1,
    ///   ``CartError/lineQuantityOverflow(lineId:)`` when the quantities would overflow.
    @discardableResult
    public func add(_ line: AddCartLine) throws(CartError) -> CartLine {
        try add(line, returning: { $0 })
    }

    /// Adds a line (``add(_:)``) without copying it out: what the `addCartLine` handler calls.
    func addDiscardingLine(_ line: AddCartLine) throws(CartError) {
        try add(line, returning: { _ in () })
    }

    /// Adds a line; `result` reads what to return from the line as it is now, under the lock.
    private func add<T>(_ line: AddCartLine, returning result: (borrowing CartLine) -> T) throws(CartError) -> T {
        guard line.quantity >= 1 else {
            throw .invalidLineQuantity(merchandiseId: line.merchandiseId, quantity: line.quantity)
        }
        let hash = Cart.identityHash(merchandiseId: line.merchandiseId, attributes: line.attributes)
        let outcome = state.withLock { state -> Result<T, CartError> in
            // One probe, whatever the number of lines; the line is changed where it is.
            let found = state.lines.slot(hash: hash) {
                Cart.sameText($0.merchandiseId, line.merchandiseId)
                    && Cart.sameAttributes($0.attributes, line.attributes)
            }
            if let found {
                return state.lines.modify(found) { existing -> Result<T, CartError> in
                    let (sum, overflow) = existing.quantity.addingReportingOverflow(line.quantity)
                    guard !overflow else { return .failure(.lineQuantityOverflow(lineId: existing.lineId)) }
                    existing.quantity = sum
                    return .success(result(existing))
                }
            }
            let number = state.nextLine
            let created = CartLine(
                lineId: Cart.lineID(number),
                merchandiseId: line.merchandiseId,
                productId: line.productId,
                quantity: line.quantity,
                attributes: line.attributes
            )
            state.nextLine += 1
            let value = result(created)
            state.lines.append(created, hash: hash, number: number)
            return .success(value)
        }
        return try outcome.get()
    }

    /// Removes the line with ID `id`.
    /// - Returns: the removed line.
    /// - Throws: ``CartError/unknownLine(lineId:)`` when the cart has no such line.
    @discardableResult
    public func removeLine(id: String) throws(CartError) -> CartLine {
        // Every line ID this cart made is the prefix and a number: anything else names no line.
        guard let number = Cart.lineNumber(in: id) else { throw .unknownLine(lineId: id) }
        let removed = state.withLock { state -> CartLine? in
            guard let slot = state.lines.slot(number: number) else { return nil }
            return state.lines.remove(slot)
        }
        guard let removed else { throw .unknownLine(lineId: id) }
        return removed
    }

    // MARK: - Offers

    /// The offers, in the order they were first added.
    public var offers: [ProductCartOffer] {
        state.withLock { $0.offers.offers }
    }

    /// Sets the quantity of `offer` in the cart to `offer.quantity` (replacing the
    /// offer's other fields with the ones received); 0 removes the offer.
    /// - Returns: the whole cart after the update.
    /// - Throws: ``CartError`` for a negative quantity, or when the cart's totals
    ///   could not be computed after the update (missing or unparsable price,
    ///   mixed currencies); the cart is then unchanged.
    @discardableResult
    public func update(_ offer: ProductCartOffer) throws(CartError) -> ProductCart {
        guard offer.quantity >= 0 else {
            throw .negativeQuantity(offerId: offer.offerId, quantity: offer.quantity)
        }
        return try state.withLock { $0.offers.set(offer) }.get()
    }

    /// The offers with their totals, as `productCartGetState` replies them.
    /// - Throws: ``CartError`` when the totals cannot be computed (never for a
    ///   cart changed only through ``update(_:)``).
    public func productCart() throws(CartError) -> ProductCart {
        try state.withLock { $0.offers.cart() }.get()
    }

    /// Empties the cart: lines and offers. Line IDs keep counting.
    public func removeAll() {
        state.withLock { state in
            state.lines.removeAll()
            state.offers.removeAll()
        }
    }
}
