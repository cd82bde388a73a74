import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardTesting
import Testing

/// A `@MainActor` test that sends through the harness (and replays fixtures) to main-actor
/// handlers and responders: they run on the main actor at once, with no trap and no hop, so the
/// test asserts on its model right after the call.
@Suite struct MainActorHarnessTests {
    @MainActor final class Cart {
        var quantity = 0
    }

    struct ShopState: Request, Encodable {
        typealias Reply = Int
        static let channel: Channel = "productCartGetState"
    }

    @Test @MainActor func aHarnessSendReachesAMainActorHandlerBeforeItReturns() async {
        let cart = Cart()
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = router.on(TestCartLine.self) { @MainActor line in cart.quantity += line.quantity }
        let log = FailureLog()
        let harness = StrictHarness(router: router, reporter: .capturing(into: log))
        harness.send("addCartLine", body: line(2), expecting: .handled(by: 1))
        #expect(cart.quantity == 2)
        harness.send(TestCartLine(merchandiseId: "m1", productId: "p1", quantity: 3, attributes: [:]))
        #expect(cart.quantity == 5)
        await harness.finish()
        #expect(log.messages == [])
        withExtendedLifetime(token) {}
    }

    @Test @MainActor func aHarnessRequestReachesAMainActorResponder() async throws {
        let cart = Cart()
        cart.quantity = 4
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: ShopState.self) { @MainActor _ in cart.quantity }
        let log = FailureLog()
        let harness = StrictHarness(router: router, reporter: .capturing(into: log))
        #expect(await harness.request(ShopState()) == 4)
        let untyped = await harness.request("productCartGetState")
        #expect(try untyped?.get().value(as: Int.self) == 4)
        await harness.finish()
        #expect(log.messages == [])
        withExtendedLifetime(token) {}
    }

    @Test @MainActor func aMainActorHandlersErrorFailsTheSendsOutcome() async {
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = router.on(TestCartLine.self) { @MainActor line in
            if line.quantity < 0 { throw RejectError() }
        }
        let log = FailureLog()
        let harness = StrictHarness(router: router, reporter: .capturing(into: log))
        let outcome = harness.send("addCartLine", body: line(-1), expecting: .failed)
        guard case .failed = outcome else {
            Issue.record("expected failed, got \(outcome)")
            return
        }
        await harness.finish()
        #expect(log.messages == [])
        withExtendedLifetime(token) {}
    }

    @Test @MainActor func replayFromTheMainActorRunsMainActorHandlersAtOnce() async {
        let cart = Cart()
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = router.on(TestCartLine.self) { @MainActor line in cart.quantity += line.quantity }
        let results = await router.replay([
            FixtureMessage(name: "addCartLine", body: MessageBody(line(1)), line: 1),
            FixtureMessage(name: "addCartLine", body: MessageBody(line(2)), line: 2),
        ])
        #expect(results.map(\.outcome.kind) == [.handled, .handled])
        #expect(cart.quantity == 3)
        withExtendedLifetime(token) {}
    }

    @Test func theHarnessRequestsAsTheAppUnderAnOriginPolicy() async throws {
        let policy = try OriginPolicy(allowing: ["https://shop.example.com"])
        let app = CountingApp(
            router: Router(options: RouterOptions(defaultDeadline: .seconds(60), originPolicy: policy)))
        let log = FailureLog()
        let harness = StrictHarness(
            router: app.router, replyTimeout: patientReplyTimeout, reporter: .capturing(into: log))
        #expect(await harness.request(GetCount()) == 0)
        #expect(try await harness.request("getCount")?.get().value(as: Int.self) == 0)
        // A send is a page's message: refused without a sender the policy admits.
        harness.send("sdkReady", expecting: .rejected)
        await harness.finish()
        #expect(log.messages == [])
    }
}
