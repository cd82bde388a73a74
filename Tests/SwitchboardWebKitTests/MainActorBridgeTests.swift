import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// WebKit's delegate runs on the main actor: a message it hands to the bridge reaches a
/// main-actor handler before `handle` returns, and the page's reply is the real outcome.
@MainActor
@Suite struct MainActorBridgeTests {
    @MainActor final class Pings {
        var count = 0
    }

    @Test func aMessageFromTheMainActorRunsAMainActorHandlerBeforeHandleReturns() async {
        let router = Router()
        let pings = Pings()
        let token = router.on(Ping.self) { @MainActor _ in pings.count += 1 }
        let bridge = RouterBridge(router: router, registry: FakeRegistry())
        let box = ReplyBox()
        let outcome = bridge.handle(name: "ping", body: nil, replyHandler: box.handler)
        #expect(outcome.kind == .handled)
        #expect(pings.count == 1)
        #expect(await eventually { box.calls == 1 })
        #expect(box.valueJSON == "null")
        withExtendedLifetime(token) {}
    }

    @Test func aMainActorHandlersErrorRejectsThePagesPromise() async {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "refused" }
        }
        let router = Router()
        let token = router.on(Ping.self) { @MainActor _ in throw Refused() }
        let bridge = RouterBridge(router: router, registry: FakeRegistry())
        let box = ReplyBox()
        #expect(bridge.handle(name: "ping", body: nil, replyHandler: box.handler).kind == .failed)
        #expect(await eventually { box.calls == 1 })
        #expect(box.error?.contains("refused") == true)
        withExtendedLifetime(token) {}
    }
}
