// A sample app's side of the bridge, built in CI in Swift 6 mode with
// `.defaultIsolation(MainActor.self)` (what new Xcode projects use) and warnings as errors.
// It needs no SwiftUI: the model is `@Observable` and main-actor, as a SwiftUI app's is, and
// this program plays the web view (messages arrive on the main actor, as WebKit delivers them).

import Foundation
import Switchboard
import SwitchboardCommerce

let router = Router()
let model = CartModel()
let connection = try ShopConnection(router: router, model: model)
let features = FeatureModel(router: router)

// Wait until the removal loop is subscribed (it counts as a handler while it runs).
for await manifest in router.manifests where manifest.channels.contains(RemoveCartLine.channel) { break }

// A page adds a line: handled before `receive` returns.
let added = router.receive(
    name: "addCartLine",
    body: ["merchandiseId": "m1", "productId": "p1", "quantity": 2, "attributes": ["source": "web"]])
print("addCartLine:", added, "- lines:", model.lines.count)

// A story reads the cart: the reply is in the outcome.
print("productCartGetState:", router.receive(name: "productCartGetState", body: nil))

// The app asks itself (`MessageSender.app`, admitted by any origin policy), keeping its isolation.
let cart = try await router.request(ProductCartGetState())
print("offers:", cart.offers.map(\.offerId))

// An update through the async main-actor responder.
let updated = try await router.request(ProductCartUpdate(offer: ProductCartOffer(offerId: "m2", quantity: 1)))
print("after update:", updated.offers.map(\.offerId))

// A message from another thread: the handler still runs on the main actor, later.
let fromElsewhere = await Task.detached {
    router.receive(
        name: "addCartLine", body: ["merchandiseId": "m3", "productId": "p3", "quantity": 1, "attributes": [:]])
}.value
print("from another thread:", fromElsewhere)
while !model.lines.contains(where: { $0.merchandiseId == "m3" }) { await Task.yield() }

// A removal goes through the event loop.
_ = router.receive(
    name: "removeCartLine",
    body: ["lineId": "l1", "merchandiseId": "m1", "productId": "p1", "quantity": 2, "attributes": [:]])
while model.lines.contains(where: { $0.merchandiseId == "m1" }) { await Task.yield() }
print("lines:", model.lines.map(\.merchandiseId))
print("productCart live:", features.isEnabled(.productCart), "- wishlist live:", model.wishlistIsLive)

connection.close()
