import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// A Linux stand-in for WebKit's structure: the content controller retains its
/// handler objects strongly, as `WKUserContentController` does.
@MainActor
final class RetainingController {
    var handlers: [String: AnyObject] = [:]
}

/// The shape of SwitchboardWebKit's proxy: holds the bridge weakly.
@MainActor
final class WeakProxy {
    weak var bridge: RouterBridge?
}

/// The shape of SwitchboardWebKit's registry: controller weakly, proxy strongly.
@MainActor
final class ControllerRegistry: ScriptMessageHandlerRegistry {
    weak var controller: RetainingController?
    let proxy = WeakProxy()
    init(controller: RetainingController) { self.controller = controller }
    func addHandler(named name: String) { controller?.handlers[name] = proxy }
    func removeHandler(named name: String) { controller?.handlers[name] = nil }
    func setUserScript(source: String?) {}
}

/// A view controller that owns a "web view" (its controller) and the bridge, as an app would.
@MainActor
final class Owner {
    let controller = RetainingController()
    var bridge: RouterBridge?
    init(router: Router) {
        let registry = ControllerRegistry(controller: controller)
        let bridge = RouterBridge(router: router, registry: registry)
        registry.proxy.bridge = bridge
        self.bridge = bridge
    }
}

@MainActor
@Suite struct OwnershipTests {
    @Test func releasingTheOwnerReleasesTheBridgeAndTheController() async {
        let router = Router()
        let token = router.on(Ping.self) { _ in }
        weak var weakOwner: Owner?
        weak var weakBridge: RouterBridge?
        weak var weakController: RetainingController?
        do {
            let owner = Owner(router: router)
            weakOwner = owner
            weakBridge = owner.bridge
            weakController = owner.controller
            #expect(owner.controller.handlers.keys.sorted() == ["ping", "switchboard"])
        }
        #expect(weakOwner == nil)
        #expect(weakBridge == nil)
        #expect(weakController == nil)
        _ = token
    }

    @Test func aReleasedBridgeRemovesItsHandlersAndStopsObservingTheRouter() async {
        let router = Router()
        let token = router.on(Ping.self) { _ in }
        let registry = FakeRegistry()
        weak var weakBridge: RouterBridge?
        do {
            let bridge = RouterBridge(router: router, registry: registry)
            weakBridge = bridge
            #expect(registry.handlers == ["ping", "switchboard"])
        }
        #expect(weakBridge == nil)
        #expect(await eventually { registry.handlers.isEmpty && registry.script == nil })
        let later = router.on(AddCartLine.self) { _ in }
        try? await Task.sleep(for: .milliseconds(20))
        #expect(registry.handlers.isEmpty)
        #expect(registry.misuses.isEmpty)
        _ = (token, later)
    }

    @Test func theRouterDoesNotKeepTheBridgeAlive() {
        let router = Router()
        let token = router.on(Ping.self) { _ in }
        weak var weakBridge: RouterBridge?
        let registry = FakeRegistry()
        var bridge: RouterBridge? = RouterBridge(router: router, registry: registry)
        weakBridge = bridge
        #expect(weakBridge != nil)
        bridge = nil
        #expect(weakBridge == nil)
        _ = (token, bridge)
    }

    @Test func aProxyWhoseBridgeIsGoneHasNothingToCall() {
        let router = Router()
        let owner = Owner(router: router)
        let registry = ControllerRegistry(controller: owner.controller)
        do {
            let bridge = RouterBridge(router: router, registry: registry)
            registry.proxy.bridge = bridge
        }
        #expect(registry.proxy.bridge == nil)
    }
}
