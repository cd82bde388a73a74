import Foundation
import Switchboard
import Testing

/// `router.events(E.self)`: the channel's typed events as an `AsyncSequence`, a handler of the
/// channel while a task iterates it.
@Suite struct EventSequenceTests {
    /// Waits until the router's manifest says whether `channel` is handled.
    static func waitUntil(_ router: Router, handles channel: Channel, _ handled: Bool = true) async {
        for await manifest in router.manifests where manifest.channels.contains(channel) == handled { return }
    }

    @Test func eventsComeInOrderAndTheChannelCountsAsHandledWhileIterated() async {
        let router = Router()
        router.declare(Feature("cart", needs: "addCartLine"))
        #expect(!router.isEnabled(featureNamed: "cart"))
        let loop = Task {
            var skus: [String] = []
            for await line in router.events(CartLine.self) {
                skus.append(line.sku)
                if skus.count == 100 { break }
            }
            return skus
        }
        await Self.waitUntil(router, handles: "addCartLine")
        #expect(router.isEnabled(featureNamed: "cart"))
        #expect(router.manifest.features["cart"] == true)
        let outcomes = (0..<100).map { router.receive(name: "addCartLine", body: cartLineBody("m\($0)")) }
        #expect(outcomes.allSatisfy { $0.handledCount == 1 })
        #expect(await loop.value == (0..<100).map { "m\($0)" })
        // The loop ended: the channel went with it.
        #expect(!router.isHandled("addCartLine"))
        #expect(!router.isEnabled(featureNamed: "cart"))
        #expect(router.receive(name: "addCartLine", body: cartLineBody("after")).handledCount == nil)
    }

    @Test func cancellingTheIteratingTaskUnsubscribes() async {
        let router = Router()
        let loop = Task {
            var count = 0
            for await _ in router.events(CartLine.self) { count += 1 }
            return count
        }
        await Self.waitUntil(router, handles: "addCartLine")
        _ = router.receive(name: "addCartLine", body: cartLineBody("m1"))
        loop.cancel()
        let count = await loop.value
        #expect(count <= 1)
        #expect(!router.isHandled("addCartLine"))
    }

    @Test @MainActor func aMainActorLoopUpdatesAMainActorModel() async {
        let model = CartModel()
        let router = Router()
        let loop = Task { @MainActor in
            for await line in router.events(CartLine.self) { model.add(line) }
        }
        await Self.waitUntil(router, handles: "addCartLine")
        _ = await Stress.offThePool { router.receive(name: "addCartLine", body: cartLineBody("m1")) }
        await model.waitForLines(1)
        #expect(model.lines == ["m1"])
        loop.cancel()
        await loop.value
        #expect(!router.isHandled("addCartLine"))
    }

    @Test func anEventThatDoesNotFitABoundedBufferIsReported() async {
        let router = Router()
        let (diagnostics, observation) = router.recordDiagnostics()
        var iterator = router.events(CartLine.self, bufferingPolicy: .bufferingOldest(2)).makeAsyncIterator()
        for sku in ["m1", "m2", "m3"] { _ = router.receive(name: "addCartLine", body: cartLineBody(sku)) }
        #expect(diagnostics.kinds == ["eventsOverflow"])
        #expect(diagnostics.all.first?.channel == "addCartLine")
        #expect(await iterator.next()?.sku == "m1")
        #expect(await iterator.next()?.sku == "m2")
        withExtendedLifetime(observation) {}
    }

    @Test func twoLoopsEachGetEveryEventAndTheChannelStaysWhileOneRuns() async {
        let router = Router()
        let events = router.events(CartLine.self)
        var first = events.makeAsyncIterator()
        var second: EventSequence<CartLine>.Iterator? = events.makeAsyncIterator()
        _ = router.receive(name: "addCartLine", body: cartLineBody("m1"))
        #expect(await first.next()?.sku == "m1")
        #expect(await second?.next()?.sku == "m1")
        second = nil
        #expect(router.isHandled("addCartLine"))
        #expect(router.receive(name: "addCartLine", body: cartLineBody("m2")).handledCount == 1)
        #expect(await first.next()?.sku == "m2")
    }

    @Test func anInvalidBodyIsInvalidAndNotInTheSequence() async {
        let router = Router()
        var iterator = router.events(CartLine.self).makeAsyncIterator()
        guard case .invalid = router.receive(name: "addCartLine", body: ["sku": 1]) else {
            Issue.record("expected invalid")
            return
        }
        _ = router.receive(name: "addCartLine", body: cartLineBody("m1"))
        #expect(await iterator.next()?.sku == "m1")
    }
}
