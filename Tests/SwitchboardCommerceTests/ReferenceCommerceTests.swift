import Foundation
import Switchboard
import SwitchboardCommerce
import Testing

@Suite struct ReferenceCommerceTests {
    let reward: [String: Any] = [
        "merchandiseId": "gid://shopify/ProductVariant/1001", "productId": "gid://shopify/Product/100",
        "quantity": 1, "attributes": ["__lion_sfp_id": "19fdf4cb"],
    ]

    func offer(_ id: String, price: String = "10.50", quantity: Int) -> [String: Any] {
        [
            "offerId": id, "name": "Story product", "imageUrls": ["https://cdn.example.com/\(id).jpg"],
            "currency": "EUR", "price": price, "availability": 1, "quantity": quantity,
        ]
    }

    @Test func oneLineInstallsEveryChannelAndEnablesEveryFeature() throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        #expect(commerce.channels == ReferenceCommerce.channels)
        #expect(router.manifest.channels == ReferenceCommerce.channels)
        #expect(
            router.manifest.features == [
                "cartButton": true, "freeProductRewards": true, "productCart": true, "wishlist": true,
            ])
    }

    @Test func installingOnlySomeChannelsGatesTheFeatures() throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce(only: [AddCartLine.channel, RemoveCartLine.channel])
        #expect(commerce.channels == [AddCartLine.channel, RemoveCartLine.channel])
        #expect(router.isEnabled(.freeProductRewards))
        #expect(!router.isEnabled(.productCart))
        #expect(router.manifest.features["cartButton"] == false)
        #expect(router.receive(name: "sdkReady", body: nil).kind == .unhandled)
    }

    @Test func anUnknownChannelIsRefused() {
        let router = Router()
        #expect(throws: CommerceInstallError.unknownChannels(["addToBasket"])) {
            _ = try router.installReferenceCommerce(only: ["addToBasket", AddCartLine.channel])
        }
        #expect(router.manifest.channels.isEmpty)
    }

    @Test func releasingTheInstallationUninstallsTheHandlers() throws {
        let router = Router()
        var commerce: CommerceInstallation? = try router.installReferenceCommerce()
        #expect(commerce != nil)
        commerce = nil
        #expect(router.manifest.channels.isEmpty)
        #expect(router.manifest.features["productCart"] == false)
    }

    @Test func aResponderAlreadyThereMakesTheInstallFailWithoutInstallingAnything() throws {
        let router = Router()
        let mine = try router.respond(to: ProductCartGetState.self) { _, reply in
            reply.succeed(ProductCart(offers: [], price: "0", oldPrice: nil, priceCurrency: "USD"))
        }
        #expect(throws: CommerceInstallError.responderExists(.responderExists(ProductCartGetState.channel))) {
            _ = try router.installReferenceCommerce()
        }
        #expect(router.manifest.channels == [ProductCartGetState.channel])
        mine.cancel()
    }

    @Test func aHandlerLeftOutWithExceptIsYours() throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce(except: [AddCartLine.channel])
        let seen = Locked2<[String]>([])
        let mine = router.on(AddCartLine.self) { line, _ in seen.append(line.merchandiseId) }
        #expect(router.receive(name: "addCartLine", body: reward).kind == .handled)
        #expect(seen.value == ["gid://shopify/ProductVariant/1001"])
        #expect(commerce.cart.lines.isEmpty)
        mine.cancel()
    }

    @Test func aHandlerReplacedAfterInstallingOverridesTheReference() throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        let mine = router.replaceResponder(of: ProductCartGetState.self) { _, reply in
            reply.succeed(ProductCart(offers: [], price: "1.00", oldPrice: nil, priceCurrency: "USD"))
        }
        let outcome = router.receive(name: "productCartGetState", body: nil)
        guard case .replied(let value) = outcome else {
            Issue.record("expected a reply, got \(outcome)")
            return
        }
        #expect(value.value(as: ProductCart.self)?.price == "1.00")
        // The other reference handlers are still in place.
        #expect(router.receive(name: "addCartLine", body: reward).kind == .handled)
        #expect(commerce.cart.lines.count == 1)
        mine.cancel()
    }

    @Test func addAndRemoveCartLineGoThroughTheCart() throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        #expect(router.receive(name: "addCartLine", body: reward).kind == .handled)
        let line = try #require(commerce.cart.lines.first)
        #expect(line.lineId == "gid://shopify/CartLine/1")
        var remove = reward
        remove["lineId"] = line.lineId
        #expect(router.receive(name: "removeCartLine", body: remove).kind == .handled)
        #expect(commerce.cart.lines.isEmpty)
    }

    @Test func removingAnUnknownLineFailsWithAMessageNamingIt() throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        var remove = reward
        remove["lineId"] = "gid://shopify/CartLine/404"
        let outcome = router.receive(name: "removeCartLine", body: remove)
        guard case .failed(let failure) = outcome else {
            Issue.record("expected a failure, got \(outcome)")
            return
        }
        #expect(failure.message.contains("gid://shopify/CartLine/404"))
        #expect(commerce.cart.lines.isEmpty)
    }

    @Test func productCartUpdateRepliesTheWholeCart() async throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        _ = router.receive(name: "productCartUpdate", body: ["offer": offer("sku-1", quantity: 1)])
        let result = await router.request(name: "productCartUpdate", body: ["offer": offer("sku-2", quantity: 3)])
        let cart = try #require(try result.get().value(as: ProductCart.self))
        #expect(cart.offers.map(\.offerId) == ["sku-1", "sku-2"])
        #expect(cart.price == "42.00")
        #expect(try commerce.cart.productCart() == cart)
        let typed = try await router.request(ProductCartGetState())
        #expect(typed == cart)
    }

    @Test func aRefusedUpdateFailsTheRequestWithTheCartsMessage() async throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        let result = await router.request(name: "productCartUpdate", body: ["offer": offer("sku-1", quantity: -2)])
        guard case .failure(.responderFailed(_, let message, _)) = result else {
            Issue.record("expected responderFailed, got \(result)")
            return
        }
        #expect(message == CartError.negativeQuantity(offerId: "sku-1", quantity: -2).description)
        #expect(commerce.cart.offers.isEmpty)
    }

    @Test func wishlistUpdatesAndStateGoThroughTheWishlist() async throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        let update: [String: Any] = [
            "id": ["productId": "P-220", "listingId": "L-220-1"], "isWishlisted": true, "title": "Linen shirt",
        ]
        #expect(router.receive(name: "wishlistEntryUpdate", body: update).kind == .handled)
        let state = try await router.request(WishlistGetState())
        #expect(state.entries.map(\.id) == [WishlistEntryID(productId: "P-220", listingId: "L-220-1")])
        #expect(commerce.wishlist.entries.first?.title == "Linen shirt")
    }

    @Test func sdkReadyAndCartClicksAreCounted() throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        #expect(router.receive(name: "sdkReady", body: nil).kind == .handled)
        #expect(router.receive(name: "productCartClicked", body: ["ignored": true]).kind == .handled)
        #expect(router.receive(name: "productCartClicked", body: nil).kind == .handled)
        #expect(commerce.commerce.sdkReadyCount == 1)
        #expect(commerce.commerce.cartButtonClicks == 2)
    }

    @Test func aBodyThatDoesNotDecodeIsInvalidAndChangesNothing() throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        var wrong = reward
        wrong["quantity"] = "1"
        #expect(router.receive(name: "addCartLine", body: wrong).kind == .invalid)
        #expect(commerce.cart.lines.isEmpty)
    }
}

/// A tiny lock-protected box for test observations.
final class Locked2<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func mutate(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

extension Locked2 where Value == [String] {
    func append(_ element: String) { mutate { $0.append(element) } }
}
