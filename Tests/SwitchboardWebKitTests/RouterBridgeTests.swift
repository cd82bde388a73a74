import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

@MainActor
@Suite struct RouterBridgeTests {
    @Test func registersExactlyTheRoutersChannelsAtCreation() {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let add = router.on(AddCartLine.self) { _ in }
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)

        #expect(registry.handlers == ["addCartLine", "ping", "switchboard"])
        #expect(registry.calls == ["add addCartLine", "add ping", "add switchboard"])
        #expect(bridge.registeredNames == ["addCartLine", "ping", "switchboard"])
        _ = (ping, add)
    }

    @Test func addsAndRemovesHandlersAsRegistrationsComeAndGo() async {
        let router = Router()
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        #expect(registry.handlers == ["switchboard"])

        let first = router.on(AddCartLine.self) { _ in }
        #expect(await eventually { registry.handlers == ["addCartLine", "switchboard"] })
        let second = router.on(AddCartLine.self) { _ in }
        let responder = try? router.respond(to: CartTotal.self) { request, reply in
            reply(.success(Total(amount: "0", currency: request.currency)))
        }
        #expect(await eventually { registry.handlers == ["addCartLine", "cartTotal", "switchboard"] })

        first.cancel()
        // One handler is left on addCartLine: nothing is removed.
        #expect(await eventually { bridge.registeredNames == ["addCartLine", "cartTotal", "switchboard"] })
        second.cancel()
        #expect(await eventually { registry.handlers == ["cartTotal", "switchboard"] })
        responder?.cancel()
        #expect(await eventually { registry.handlers == ["switchboard"] })

        #expect(
            registry.calls == [
                "add switchboard", "add addCartLine", "add cartTotal", "remove addCartLine", "remove cartTotal",
            ])
        #expect(registry.misuses.isEmpty)
    }

    @Test func followsChangesMadeOnOtherThreadsWithoutDuplicates() async {
        let router = Router()
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        let tokens = await withTaskGroup(of: Registration.self) { group in
            for _ in 0..<20 {
                group.addTask { router.on(Ping.self) { _ in } }
                group.addTask { router.on(AddCartLine.self) { _ in } }
            }
            var tokens: [Registration] = []
            for await token in group { tokens.append(token) }
            return tokens
        }
        #expect(await eventually { registry.handlers == ["addCartLine", "ping", "switchboard"] })
        for token in tokens { token.cancel() }
        #expect(await eventually { registry.handlers == ["switchboard"] })
        #expect(registry.misuses.isEmpty)
        #expect(bridge.registeredNames == ["switchboard"])
    }

    @Test func registersRequestedChannelsBeforeTheyHaveAHandler() async {
        let router = Router()
        router.setBufferPolicy(.keepLast, for: Ping.channel)
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry, alsoRegistering: [Ping.channel])
        #expect(registry.handlers == ["ping", "switchboard"])

        let box = ReplyBox()
        #expect(bridge.handle(name: "ping", body: nil, replyHandler: box.handler).kind == .kept)
        let delivered = Locked(0)
        let token = router.on(Ping.self) { _ in delivered.withLock { $0 += 1 } }
        #expect(delivered.withLock { $0 } == 1)
        #expect(await eventually { box.calls == 1 })
        #expect(box.valueJSON == "null")
        token.cancel()
        // Still registered: it was asked for explicitly.
        #expect(await eventually { bridge.registeredNames == ["ping", "switchboard"] })
        #expect(registry.handlers == ["ping", "switchboard"])
    }

    @Test func publishesTheManifestAndUpdatesItOnEveryChange() async {
        let router = Router()
        router.declare(Feature("freeProductRewards", needs: AddCartLine.channel, RemoveCartLine.channel))
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        #expect(
            embeddedManifest(in: registry.script ?? "")?.core
                == Manifest(
                    channels: [], features: ["freeProductRewards": false], contract: Contract(types: []).digest))

        let add = router.on(AddCartLine.self) { _ in }
        let remove = router.on(RemoveCartLine.self) { _ in }
        #expect(
            await eventually {
                embeddedManifest(in: registry.script ?? "")?.core
                    == Manifest(
                        channels: ["addCartLine", "removeCartLine"], features: ["freeProductRewards": true],
                        contract: Contract(types: [AddCartLine.self, RemoveCartLine.self]).digest)
            })
        #expect(bridge.userScriptSource == registry.script)
        remove.cancel()
        #expect(
            await eventually {
                embeddedManifest(in: registry.script ?? "")?.core.features == ["freeProductRewards": false]
            })
        _ = add
    }

    @Test func stopRemovesEverythingItAddedAndAnswersLaterMessagesWithAFailure() async {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        bridge.stop()
        #expect(registry.handlers.isEmpty)
        #expect(registry.script == nil)
        #expect(bridge.isStopped)

        let later = router.on(AddCartLine.self) { _ in }
        try? await Task.sleep(for: .milliseconds(20))
        #expect(registry.handlers.isEmpty)

        let box = ReplyBox()
        bridge.handle(name: "ping", body: nil, replyHandler: box.handler)
        #expect(await eventually { box.calls == 1 })
        #expect(box.valueJSON == nil)
        #expect(
            envelope(box.error)
                == ErrorEnvelope(
                    kind: .unavailable, channel: "ping", message: "ping: the Switchboard bridge is stopped"))
        #expect(registry.misuses.isEmpty)
        _ = (ping, later)
    }
}
