import Foundation
import Switchboard
import Testing

/// Two `cancel()` calls of one token on two threads: the second returns only once
/// the handler can no longer start, even while the first is still under way (here,
/// held in a manifest observer it calls after removing the entry, before it sets
/// the handler's cancel flag).
/// In ``CancelAndOrderStressTests`` (serialized): it sets the shared ``Gate/current``.
extension CancelAndOrderStressTests {
    /// Runs `body` on a new thread; the semaphore is signalled when it returns.
    static func onNewThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done
    }

    @Test func aSecondCancelReturnsOnlyOnceTheHandlerCanNoLongerStart() async {
        let router = Router()
        let holdObserver = Locked(false)
        let observerGate = Gate()
        let observer = router.observeManifest { manifest in
            if holdObserver.withLock({ $0 }) && !manifest.channels.contains(GatedPing.channel) {
                observerGate.pass()
            }
        }
        let secondCancelReturned = Locked(false)
        let lateCalls = Locked(0)
        let token = router.on(GatedPing.self) { _ in
            if secondCancelReturned.withLock({ $0 }) { lateCalls.withLock { $0 += 1 } }
        }
        let decodeGate = Gate()
        Gate.current.withLock { $0 = decodeGate }
        defer {
            decodeGate.open()
            observerGate.open()
            Gate.current.withLock { $0 = Gate() }
            Gate.current.withLock { $0 }.open()
        }

        // The steps wait for threads (at gates, for semaphores): on a thread of their own, so that
        // no thread of Swift's cooperative pool is blocked meanwhile.
        let (senderReturned, firstReturned) = await Stress.offThePool { () -> (Bool, Bool) in
            // A sender reads the route (the handler is in it) and waits in the body's decoding.
            let sender = Self.onNewThread { _ = router.receive(name: GatedPing.channel.name, body: ["seq": 1]) }
            decodeGate.waitForArrivals(1)
            // The first cancel removes the entry, then is held in the manifest observer.
            holdObserver.withLock { $0 = true }
            let first = Self.onNewThread { token.cancel() }
            observerGate.waitForArrivals(1)
            // The second cancel, while the first is still under way.
            token.cancel()
            secondCancelReturned.withLock { $0 = true }
            decodeGate.open()
            let senderReturned = sender.wait(timeout: .now() + 10) == .success
            observerGate.open()
            return (senderReturned, first.wait(timeout: .now() + 10) == .success)
        }
        #expect(senderReturned)
        #expect(firstReturned)
        #expect(lateCalls.withLock { $0 } == 0, "the handler started after the second cancel() returned")
        withExtendedLifetime(observer) {}
    }
}
