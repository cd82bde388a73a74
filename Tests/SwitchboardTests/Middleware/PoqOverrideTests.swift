import Foundation
import Switchboard
import Testing

// The Poq wishlist widget, in Switchboard terms: a default analytics middleware
// tracks wishlist events; an app overrides one case (added to wishlist with
// `customData.isPersonalisable`) and delegates everything else to the default.

private struct WishlistEntryUpdate: Event {
    static let channel: Channel = "wishlistEntryUpdate"
    struct ID: Decodable, Sendable, Equatable {
        let productId: String
        let listingId: String?
        let variantId: String?
    }
    let id: ID
    let isWishlisted: Bool
}

private struct CustomWishlistWidgetData: Decodable, Sendable {
    let isPersonalisable: Bool?
}

/// The default analytics the widget ships with.
private struct DefaultWishlistAnalytics: MessageMiddleware {
    let tracker: RouterRecorder<String>

    func handle(_ message: Message, next: MiddlewareNext) -> Outcome {
        let outcome = next(message)
        if let update = message.event(as: WishlistEntryUpdate.self) {
            tracker.append(update.isWishlisted ? "added \(update.id.productId)" : "removed \(update.id.productId)")
        }
        return outcome
    }
}

/// `makeAnalyticsMiddleware()` overridden: wraps the default and delegates to it.
private func makeCustomAnalyticsMiddleware(
    wrapping defaultMiddleware: some MessageMiddleware, personalised: RouterRecorder<String>
) -> Middleware {
    Middleware { message, next in
        if let update = message.event(as: WishlistEntryUpdate.self), update.isWishlisted,
            (try? message.body.decode(CustomWishlistWidgetData?.self, at: "customData"))??.isPersonalisable == true
        {
            // Override "added to wishlist" to track the custom data.
            let outcome = next(message)
            personalised.append("personalised \(update.id.productId)")
            return outcome
        }
        return defaultMiddleware.handle(message, next: next)
    }
}

@Suite struct PoqOverrideTests {
    @Test func theCustomMiddlewareOverridesOneCaseAndDelegatesTheRest() {
        let router = Router()
        let tracked = RouterRecorder<String>()
        let personalised = RouterRecorder<String>()
        let delivered = RouterRecorder<String>()
        let analytics = router.use(
            makeCustomAnalyticsMiddleware(
                wrapping: DefaultWishlistAnalytics(tracker: tracked), personalised: personalised),
            name: "analytics")
        let widget = router.on(WishlistEntryUpdate.self) { update in delivered.append(update.id.productId) }

        func send(_ productId: String, wishlisted: Bool, personalisable: Any?) -> Outcome {
            var body: [String: Any] = ["id": ["productId": productId, "listingId": "l1"], "isWishlisted": wishlisted]
            if let personalisable { body["customData"] = ["isPersonalisable": personalisable] }
            return router.receive(name: "wishlistEntryUpdate", body: body)
        }
        #expect(send("p1", wishlisted: true, personalisable: true).kind == .handled)  // overridden
        #expect(send("p2", wishlisted: true, personalisable: false).kind == .handled)  // falls through
        #expect(send("p3", wishlisted: true, personalisable: nil).kind == .handled)  // no custom data
        #expect(send("p4", wishlisted: false, personalisable: true).kind == .handled)  // removal
        _ = router.receive(name: "other", body: nil)  // not a wishlist event: default ignores it

        #expect(personalised.all == ["personalised p1"])
        #expect(tracked.all == ["added p2", "added p3", "removed p4"])
        #expect(delivered.all == ["p1", "p2", "p3", "p4"])  // every message still reaches the widget once
        withExtendedLifetime((analytics, widget)) {}
    }

    @Test func theCustomWidgetReplacesTheDefaultInOneLine() {
        let router = Router()
        let seen = RouterRecorder<String>()
        let defaults = router.on(WishlistEntryUpdate.self) { _ in seen.append("default widget") }
        let custom = router.replaceHandlers(of: WishlistEntryUpdate.self) { _, _ in seen.append("custom widget") }
        _ = router.receive(name: "wishlistEntryUpdate", body: ["id": ["productId": "p"], "isWishlisted": true])
        #expect(seen.all == ["custom widget"])
        withExtendedLifetime((defaults, custom)) {}
    }
}
