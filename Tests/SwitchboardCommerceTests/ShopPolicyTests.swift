import Switchboard
import SwitchboardCommerce
import Testing

/// docs/security.md's configuration (a shop page, its subdomains, an embedded wishlist
/// widget, an ad) behaves as the guide says.
@Suite struct ShopPolicyTests {
    @Test func theShopPageWithACDNAndAWidgetBehavesAsDocumented() throws {
        let shop = try OriginPolicy(allowing: ["https://shop.example.com", "https://*.shop.example.com"])
        let router = Router(options: RouterOptions(originPolicy: shop))
        let widget = try OriginPolicy(
            allowing: ["https://shop.example.com", "https://widget.wishlist.example"], allowsSubframes: true)
        router.setOriginPolicy(widget, for: "wishlistEntryUpdate")
        router.setOriginPolicy(widget, for: "wishlistGetState")
        let commerce = try router.installReferenceCommerce()
        let line: [String: Any] = [
            "merchandiseId": "gid://shopify/ProductVariant/1", "productId": "p1", "quantity": 1, "attributes": [:],
        ]
        let page = MessageSender(securityOriginProtocol: "https", host: "shop.example.com", port: 0, isMainFrame: true)
        let handled = router.receive(name: "addCartLine", body: MessageBody(line), sender: page, replyHandler: nil)
        #expect(handled.description == "handled by 1")
        let ad = MessageSender(securityOriginProtocol: "https", host: "ads.example.net", port: 0, isMainFrame: false)
        let refused = router.receive(name: "addCartLine", body: MessageBody(line), sender: ad, replyHandler: nil)
        #expect(
            refused.description
                == "rejected: origin https://ads.example.net is not allowed (allowed: https://shop.example.com, https://*.shop.example.com (main frame only))"
        )
        #expect(commerce.cart.lines.count == 1, "the ad changed nothing")
        let frame = MessageSender(
            securityOriginProtocol: "https", host: "widget.wishlist.example", port: 0, isMainFrame: false)
        let entry: [String: Any] = ["id": ["productId": "1234"], "isWishlisted": true]
        let wished = router.receive(
            name: "wishlistEntryUpdate", body: MessageBody(entry), sender: frame, replyHandler: nil)
        #expect(wished.description == "handled by 1")
        #expect(router.manifest(for: frame).channels == ["wishlistEntryUpdate", "wishlistGetState"])
        let cartFromWidget = router.receive(
            name: "addCartLine", body: MessageBody(line), sender: frame, replyHandler: nil)
        #expect(cartFromWidget.kind == .rejected)
    }
}
