import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// A content controller stand-in shared by several registries: one handler per name
/// in each world, as WebKit keeps them; a second add of a name is recorded as the
/// crash WebKit would cause.
@MainActor
final class SharedController {
    private(set) var handlers: [String: [String: ObjectIdentifier]] = [:]  // world → name → registry
    private(set) var crashes: [String] = []
    private(set) var scripts: [ObjectIdentifier: String] = [:]

    func names(in world: String = "page") -> [String] { (handlers[world] ?? [:]).keys.sorted() }

    func add(_ name: String, world: String, by owner: ObjectIdentifier) {
        if handlers[world]?[name] != nil {
            crashes.append("Attempt to add script message handler with name '\(name)' when one already exists.")
            return
        }
        handlers[world, default: [:]][name] = owner
    }

    func remove(_ name: String, world: String) { handlers[world]?[name] = nil }
    func owner(of name: String, world: String = "page") -> ObjectIdentifier? { handlers[world]?[name] }
    func setScript(_ source: String?, by owner: ObjectIdentifier) { scripts[owner] = source }
}

/// The shape of SwitchboardWebKit's registry over a shared controller.
@MainActor
final class SharedControllerRegistry: ScriptMessageHandlerRegistry {
    let controller: SharedController
    let world: String
    private let worldObject: AnyObject
    init(_ controller: SharedController, world: String = "page", worldObject: AnyObject = PageWorld.shared) {
        self.controller = controller
        self.world = world
        self.worldObject = worldObject
    }
    var id: ObjectIdentifier { ObjectIdentifier(self) }
    func addHandler(named name: String) { controller.add(name, world: world, by: id) }
    func removeHandler(named name: String) { controller.remove(name, world: world) }
    func setUserScript(source: String?) { controller.setScript(source, by: id) }
    var handlerScope: HandlerScope? { HandlerScope(controller: controller, world: worldObject) }
}

final class PageWorld: Sendable { static let shared = PageWorld() }

/// Holds a bridge so that its last release can happen on any thread.
final class BridgeHolder: @unchecked Sendable {
    var bridge: RouterBridge?
    init(_ bridge: RouterBridge) { self.bridge = bridge }
}

@MainActor
@Suite struct TwoBridgesTests {
    @Test func aSecondBridgeOnTheSameControllerTakesOverWithoutADuplicateAdd() {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let controller = SharedController()
        let firstRegistry = SharedControllerRegistry(controller)
        let first = RouterBridge(router: router, registry: firstRegistry)
        let secondRegistry = SharedControllerRegistry(controller)
        let second = RouterBridge(router: router, registry: secondRegistry)

        #expect(controller.crashes.isEmpty)
        #expect(first.isStopped && first.wasTakenOver)
        #expect(first.registeredNames.isEmpty && first.userScriptSource == nil)
        #expect(!second.isStopped && !second.wasTakenOver)
        #expect(controller.owner(of: "ping") == secondRegistry.id)
        #expect(controller.scripts[firstRegistry.id] == nil)
        #expect(controller.scripts[secondRegistry.id] == second.userScriptSource)
        _ = ping
    }

    @Test func aTakenOverBridgeAnswersWithAFailureAndNoLongerFollowsItsRouter() async {
        let firstRouter = Router()
        let delivered = Locked(0)
        let ping = firstRouter.on(Ping.self) { _ in delivered.withLock { $0 += 1 } }
        let controller = SharedController()
        let first = RouterBridge(router: firstRouter, registry: SharedControllerRegistry(controller))
        let second = RouterBridge(router: Router(), registry: SharedControllerRegistry(controller))

        let box = ReplyBox()
        #expect(first.handle(name: "ping", body: nil, replyHandler: box.handler).kind == .stopped)
        #expect(await eventually { box.calls == 1 })
        #expect(
            envelope(box.error)
                == ErrorEnvelope(
                    kind: .unavailable, channel: "ping",
                    message: "ping: the Switchboard bridge is stopped (another bridge took over its content controller)"
                ))
        #expect(delivered.withLock { $0 } == 0)

        let add = firstRouter.on(AddCartLine.self) { _ in }
        try? await Task.sleep(for: .milliseconds(20))
        #expect(controller.names() == ["switchboard"])  // the second bridge's hello handler, nothing more
        #expect(controller.crashes.isEmpty)
        _ = (ping, add, second)
    }

    @Test func releasingTheFirstAfterTheSecondRemovesEverythingOnceAndFreesTheController() async {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let controller = SharedController()
        var first: RouterBridge? = RouterBridge(router: router, registry: SharedControllerRegistry(controller))
        var second: RouterBridge? = RouterBridge(router: router, registry: SharedControllerRegistry(controller))
        #expect(controller.names() == ["ping", "switchboard"])

        second = nil
        #expect(await eventually { controller.names().isEmpty })
        first = nil
        try? await Task.sleep(for: .milliseconds(10))
        #expect(controller.names().isEmpty)

        let third = RouterBridge(router: router, registry: SharedControllerRegistry(controller))
        #expect(!third.isStopped)
        #expect(controller.names() == ["ping", "switchboard"])
        #expect(controller.crashes.isEmpty)
        _ = (first, second, ping)
    }

    @Test func releasingTheFirstBeforeTheSecondLeavesTheSecondsHandlers() async {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let controller = SharedController()
        var first: RouterBridge? = RouterBridge(router: router, registry: SharedControllerRegistry(controller))
        let secondRegistry = SharedControllerRegistry(controller)
        let second = RouterBridge(router: router, registry: secondRegistry)

        first = nil
        try? await Task.sleep(for: .milliseconds(10))
        #expect(controller.names() == ["ping", "switchboard"])
        #expect(controller.owner(of: "ping") == secondRegistry.id)
        #expect(second.registeredNames == ["ping", "switchboard"])

        let add = router.on(AddCartLine.self) { _ in }
        #expect(await eventually { controller.names() == ["addCartLine", "ping", "switchboard"] })
        second.stop()
        #expect(controller.names().isEmpty)
        #expect(controller.crashes.isEmpty)
        _ = (first, ping, add)
    }

    @Test func aStoppedFirstBridgeIsNotTakenOverAndAThirdTakesOverFromTheSecond() {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let controller = SharedController()
        let first = RouterBridge(router: router, registry: SharedControllerRegistry(controller))
        first.stop()
        let second = RouterBridge(router: router, registry: SharedControllerRegistry(controller))
        #expect(!first.wasTakenOver)
        let third = RouterBridge(router: router, registry: SharedControllerRegistry(controller))
        #expect(second.wasTakenOver)
        #expect(!third.isStopped)
        #expect(controller.names() == ["ping", "switchboard"])
        #expect(controller.crashes.isEmpty)
        _ = ping
    }

    @Test func aBridgeReleasedOffTheMainThreadIsCleanedUpBeforeTheNextOneRegisters() async {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let controller = SharedController()
        let holder = BridgeHolder(RouterBridge(router: router, registry: SharedControllerRegistry(controller)))
        #expect(controller.names() == ["ping", "switchboard"])
        // The last release happens on another thread; the main actor is busy meanwhile, so the
        // released bridge's removal is still pending when the next bridge is created.
        DispatchQueue.global().sync { holder.bridge = nil }
        let nextRegistry = SharedControllerRegistry(controller)
        let next = RouterBridge(router: router, registry: nextRegistry)
        #expect(controller.crashes.isEmpty)
        #expect(controller.owner(of: "ping") == nextRegistry.id)
        // The pending removal runs later and finds nothing of its own left to remove.
        try? await Task.sleep(for: .milliseconds(20))
        #expect(controller.owner(of: "ping") == nextRegistry.id)
        #expect(next.registeredNames == ["ping", "switchboard"])
        _ = ping
    }

    @Test func aBridgeReleasedOffTheMainThreadStillRemovesItsHandlers() async {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let controller = SharedController()
        let holder = BridgeHolder(RouterBridge(router: router, registry: SharedControllerRegistry(controller)))
        DispatchQueue.global().sync { holder.bridge = nil }
        #expect(await eventually { controller.names().isEmpty })
        _ = ping
    }

    @Test func bridgesInOtherWorldsOrOnOtherControllersDoNotInterfere() {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let controller = SharedController()
        let page = RouterBridge(router: router, registry: SharedControllerRegistry(controller))
        let client = RouterBridge(
            router: router, registry: SharedControllerRegistry(controller, world: "client", worldObject: PageWorld()))
        let elsewhere = RouterBridge(router: router, registry: SharedControllerRegistry(SharedController()))
        let unscoped = RouterBridge(router: router, registry: FakeRegistry())
        #expect(![page, client, elsewhere, unscoped].contains { $0.isStopped })
        #expect(controller.names(in: "page") == ["ping", "switchboard"])
        #expect(controller.names(in: "client") == ["ping", "switchboard"])
        _ = ping
    }

    @Test func reservedNamesAreNeverAddedAndLiveOnesAreReported() async {
        let router = Router()
        let controller = SharedController()
        let app = PageWorld()
        controller.add("addCartLine", world: "page", by: ObjectIdentifier(app))
        let bridge = RouterBridge(
            router: router, registry: SharedControllerRegistry(controller),
            alsoRegistering: [Ping.channel], reservedNames: ["addCartLine", "ping"])
        #expect(bridge.conflictingNames == ["ping"])
        #expect(bridge.registeredNames == ["switchboard"])  // the hello handler only

        let add = router.on(AddCartLine.self) { _ in }
        #expect(await eventually { bridge.conflictingNames == ["addCartLine", "ping"] })
        #expect(controller.owner(of: "addCartLine") == ObjectIdentifier(app))
        #expect(controller.crashes.isEmpty)
        // The manifest still lists the channel: it is live in the router.
        #expect(bridge.userScriptSource?.contains(#""addCartLine""#) == true)
        add.cancel()
        #expect(await eventually { bridge.conflictingNames == ["ping"] })
        bridge.stop()
        #expect(controller.names() == ["addCartLine"])
    }
}
