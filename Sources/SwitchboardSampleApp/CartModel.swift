import Observation
import SwitchboardCommerce

/// The app's cart, as a SwiftUI app holds it: `@Observable`, on the main actor (this target is
/// built with `.defaultIsolation(MainActor.self)`, so no annotation is needed), no lock and no
/// `@unchecked Sendable`.
@Observable final class CartModel {
    var lines: [AddCartLine] = []
    var wishlistIsLive = false

    /// The cart as InAppStory's `productCartGetState` replies it.
    var state: ProductCart {
        let offers = lines.map { line in
            ProductCartOffer(offerId: line.merchandiseId, quantity: line.quantity)
        }
        return ProductCart(offers: offers, price: "\(lines.count * 10).00", oldPrice: nil, priceCurrency: "EUR")
    }

    /// The cart after an InAppStory update: the offer's quantity set (0 removes it).
    func apply(_ update: ProductCartUpdate) -> ProductCart {
        lines.removeAll { $0.merchandiseId == update.offer.offerId }
        if update.offer.quantity > 0 {
            lines.append(
                AddCartLine(
                    merchandiseId: update.offer.offerId, productId: update.offer.offerId,
                    quantity: update.offer.quantity, attributes: [:]))
        }
        return state
    }
}
