import Switchboard
import SwitchboardCommerce

/// Wires the shop's channels to the cart model, as an app does once its web view is set up.
///
/// Everything here is main-actor code (the target's default isolation) and so is the model: the
/// handlers and responders say so with `{ @MainActor … in }` (an unannotated closure would pick
/// the router's nonisolated `@Sendable` overload, whatever the default isolation), and run on the
/// main actor with no `MainActor.assumeIsolated`, lock or `Task` hop in this code.
final class ShopConnection {
    let router: Router
    let model: CartModel
    private var tokens: [Registration] = []
    private var loops: [Task<Void, Never>] = []

    init(router: Router, model: CartModel) throws {
        self.router = router
        self.model = model
        router.declare(Feature.commerce)
        // LoyaltyLion adds lines: a main-actor handler; on the main thread it runs before
        // `receive` returns, so the page's outcome is the real one.
        tokens.append(router.on(AddCartLine.self) { @MainActor line in model.lines.append(line) })
        // InAppStory reads the cart (a synchronous main-actor reply) and updates it (`async`).
        tokens.append(try router.respond(to: ProductCartGetState.self) { @MainActor _ in model.state })
        tokens.append(
            try router.respond(to: ProductCartUpdate.self) { @MainActor update async throws in model.apply(update) })
        // Removals as an async sequence: the channel is handled while this loop runs.
        loops.append(
            Task {
                for await removal in router.events(RemoveCartLine.self) {
                    model.lines.removeAll { $0.merchandiseId == removal.merchandiseId }
                }
            })
        // Feature state for the UI.
        loops.append(
            Task {
                for await manifest in router.manifests {
                    model.wishlistIsLive = manifest.features[Feature.wishlist.name] ?? false
                }
            })
    }

    /// Ends the loops (their channels go) and the registrations.
    func close() {
        for loop in loops { loop.cancel() }
        for token in tokens { token.cancel() }
    }
}
