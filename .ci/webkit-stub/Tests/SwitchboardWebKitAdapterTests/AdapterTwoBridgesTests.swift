import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWebKit
import Testing
import WebKit

/// Two bridges on one WKUserContentController: the stub traps, as WebKit raises, on any
/// name added twice in a world, so each of these tests would crash the process if the
/// adapter ever did.
@MainActor
@Suite struct AdapterTwoBridgesTests {
    final class Counter: @unchecked Sendable {
        let value = Locked(0)
        var count: Int { value.withLock { $0 } }
    }

    func routerCounting(_ counter: Counter) -> (Router, Registration) {
        let router = Router()
        let token = router.on(Ping.self) { _ in counter.value.withLock { $0 += 1 } }
        return (router, token)
    }

    @Test func aSecondBridgeTakesTheControllerOverWithoutAddingANameTwice() async throws {
        let (firstCount, secondCount) = (Counter(), Counter())
        let (firstRouter, firstToken) = routerCounting(firstCount)
        let (secondRouter, secondToken) = routerCounting(secondCount)
        let controller = WKUserContentController()
        let first = RouterBridge(router: firstRouter, userContentController: controller)
        let firstProxy = controller._handler(named: "ping")

        let second = RouterBridge(router: secondRouter, userContentController: controller)
        #expect(first.isStopped)
        #expect(first.wasTakenOver)
        #expect(!second.isStopped)
        #expect(controller._handlerNames() == ["ping", "switchboard"])
        #expect(controller._handler(named: "ping") !== firstProxy)
        #expect(controller.userScripts.count == 1)
        #expect(controller.userScripts.first?.source == second.userScriptSource)

        let post = try #require(controller._deliver(name: "ping", body: NSNull(), frameInfo: frame()))
        #expect(await eventually { !post.isPending })
        #expect(secondCount.count == 1)
        #expect(firstCount.count == 0)

        // The first router changing does nothing to the controller any more.
        let more = firstRouter.on(AddCartLine.self) { _ in }
        try? await Task.sleep(for: .milliseconds(20))
        #expect(controller._handlerNames() == ["ping", "switchboard"])
        _ = (firstToken, secondToken, more)
    }

    @Test func releasingTheFirstAfterTheSecondLeavesNothingBehind() async {
        let counter = Counter()
        let (router, token) = routerCounting(counter)
        let controller = WKUserContentController()
        var first: RouterBridge? = RouterBridge(router: router, userContentController: controller)
        var second: RouterBridge? = RouterBridge(router: router, userContentController: controller)
        #expect(controller._handlerNames() == ["ping", "switchboard"])

        second = nil
        #expect(await eventually { controller._handlerNames().isEmpty && controller.userScripts.isEmpty })
        first = nil
        try? await Task.sleep(for: .milliseconds(10))
        #expect(controller._handlerNames().isEmpty)
        // The controller is free again: a third bridge registers normally.
        let third = RouterBridge(router: router, userContentController: controller)
        #expect(controller._handlerNames() == ["ping", "switchboard"])
        _ = (first, second, third, token)
    }

    @Test func releasingTheFirstBeforeTheSecondKeepsTheSecondsHandlers() async throws {
        let counter = Counter()
        let (router, token) = routerCounting(counter)
        let controller = WKUserContentController()
        var first: RouterBridge? = RouterBridge(router: router, userContentController: controller)
        let second = RouterBridge(router: router, userContentController: controller)
        let secondProxy = controller._handler(named: "ping")

        first = nil
        try? await Task.sleep(for: .milliseconds(10))
        #expect(controller._handlerNames() == ["ping", "switchboard"])
        #expect(controller._handler(named: "ping") === secondProxy)
        #expect(controller.userScripts.count == 1)
        let post = try #require(controller._deliver(name: "ping", body: NSNull(), frameInfo: frame()))
        #expect(await eventually { !post.isPending })
        #expect(post.errorMessage == nil)
        #expect(counter.count == 1)

        second.stop()
        #expect(controller._handlerNames().isEmpty)
        _ = (first, token)
    }

    @Test func aBridgeReleasedOffTheMainThreadIsRemovedBeforeTheNextOneAddsItsNames() async throws {
        final class Holder: @unchecked Sendable { var bridge: RouterBridge? }
        let counter = Counter()
        let (router, token) = routerCounting(counter)
        let controller = WKUserContentController()
        let holder = Holder()
        holder.bridge = RouterBridge(router: router, userContentController: controller)
        // Released on another thread while the main actor is busy: its removal is still pending
        // when the next bridge adds "ping" (the stub would trap on a duplicate).
        DispatchQueue.global().sync { holder.bridge = nil }
        let next = RouterBridge(router: router, userContentController: controller)
        let proxy = controller._handler(named: "ping")
        try? await Task.sleep(for: .milliseconds(20))
        #expect(controller._handler(named: "ping") === proxy)
        let post = try #require(controller._deliver(name: "ping", body: NSNull(), frameInfo: frame()))
        #expect(await eventually { !post.isPending })
        #expect(post.errorMessage == nil)
        #expect(counter.count == 1)
        _ = (next, token)
    }

    @Test func bridgesInDifferentWorldsOfOneControllerCoexist() {
        let (router, token) = routerCounting(Counter())
        let controller = WKUserContentController()
        let page = RouterBridge(router: router, userContentController: controller)
        let client = RouterBridge(router: router, userContentController: controller, contentWorld: .defaultClient)
        #expect(!page.isStopped && !client.isStopped)
        #expect(controller._handlerNames(in: .page) == ["ping", "switchboard"])
        #expect(controller._handlerNames(in: .defaultClient) == ["ping", "switchboard"])
        page.stop()
        #expect(controller._handlerNames(in: .defaultClient) == ["ping", "switchboard"])
        _ = token
    }

    @Test func bridgesOnDifferentControllersAreIndependent() {
        let (router, token) = routerCounting(Counter())
        let one = WKUserContentController()
        let two = WKUserContentController()
        let first = RouterBridge(router: router, userContentController: one)
        let second = RouterBridge(router: router, userContentController: two)
        #expect(!first.isStopped && !second.isStopped)
        #expect(one._handlerNames() == ["ping", "switchboard"] && two._handlerNames() == ["ping", "switchboard"])
        _ = token
    }

    @Test func theAppsOwnHandlerNamesAreNeverAddedAndAreReported() async throws {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let controller = WKUserContentController()
        let app = AppHandler()
        controller.add(app, name: "addCartLine")
        let bridge = RouterBridge(router: router, userContentController: controller, reservedNames: ["addCartLine"])
        #expect(bridge.conflictingNames.isEmpty)

        // The router gains a channel the app's handler already holds: no crash, reported.
        let add = router.on(AddCartLine.self) { _ in }
        #expect(await eventually { bridge.conflictingNames == ["addCartLine"] })
        #expect(bridge.registeredNames == ["ping", "switchboard"])
        #expect(controller._handlerNames() == ["addCartLine", "ping", "switchboard"])
        #expect(controller._handler(named: "addCartLine") === app)
        try #require(controller._deliver(name: "addCartLine", body: ["productId": "p"], frameInfo: frame()) != nil)
        #expect(app.received.count == 1)

        // Stopping removes only the bridge's own handlers.
        bridge.stop()
        #expect(controller._handlerNames() == ["addCartLine"])
        add.cancel()
        _ = ping
    }
}
