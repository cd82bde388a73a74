import Switchboard
import Testing

/// A handler that goes while its kept messages are being delivered, and another that
/// registers then: the new one gets what was left in arrival order.
@Suite struct DrainHandoverTests {
    @Test func aHandlerRegisteredWhenTheFirstWentMidDrainGetsTheRestInArrivalOrder() {
        let router = Router()
        router.setBufferPolicy(.keep(max: 10, for: .seconds(60)), for: Ping.channel)
        for count in 1...4 { _ = router.receive(name: Ping.channel.name, body: ["count": count]) }

        let first = RouterRecorder<Int>()
        let second = RouterRecorder<Int>()
        let secondToken = Locked<Registration?>(nil)
        // When a message is kept again (the first handler has gone), a second handler
        // registers at once, from the diagnostic, while the first one's drain is still running.
        let observer = router.observeDiagnostics { diagnostic in
            guard diagnostic.kind == .kept, secondToken.withLock({ $0 == nil }) else { return }
            let token = router.on(Ping.self) { ping in second.append(ping.count) }
            secondToken.withLock { $0 = token }
        }
        let token = router.on(Ping.self) { ping in
            first.append(ping.count)
            // After its first message the channel loses its handler (replaced, then the
            // replacement cancelled), during the drain that delivers the kept messages.
            if ping.count == 1 { router.replaceHandlers(of: Ping.self) { _, _ in }.cancel() }
        }
        _ = router.receive(name: Ping.channel.name, body: ["count": 5])

        #expect(first.all == [1])
        #expect(second.all == [2, 3, 4, 5])
        withExtendedLifetime((observer, token)) {}
        secondToken.withLock { $0 }?.cancel()
    }
}
