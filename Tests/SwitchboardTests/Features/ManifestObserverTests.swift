import Foundation
import Switchboard
import Testing

/// The channel a ``ThreadChannelEvent`` registers on, bound per thread (or task), so
/// several threads can register channels of their own at once without a shared variable.
private enum ThreadChannel {
    @TaskLocal static var current: Channel = "threaded"
}

/// A bodyless event whose channel is ``ThreadChannel/current`` when it registers.
private struct ThreadChannelEvent: BodylessEvent {
    static var channel: Channel { ThreadChannel.current }
}

private struct Shaped: Event {
    static let channel: Channel = "shaped"
    let name: String
}

private struct OtherShape: Event {
    static let channel: Channel = "shaped"
    let count: Int
}

private func register(_ router: Router, _ name: String) -> Registration {
    ThreadChannel.$current.withValue(Channel(uncheckedTestName: name)) {
        router.on(ThreadChannelEvent.self) { _ in }
    }
}

extension Channel {
    fileprivate init(uncheckedTestName name: String) {
        self = (try? Channel(validating: name)) ?? "invalid"
    }
}

private final class Canary: Sendable {}

@Suite struct ManifestObserverTests {
    @Test func theLastManifestToldIsTheRoutersAfterABurstFromSeveralThreads() async {
        for round in 0..<(5 * Stress.scale) {
            let router = Router()
            let seen = RouterRecorder<Manifest>()
            let observer = router.observeManifest { seen.append($0) }
            let threads = 4
            let perThread = 150
            let kept = Locked<[Registration]>([])
            await Stress.onThreads(threads) { thread in
                var tokens: [Registration] = []
                for index in 0..<perThread { tokens.append(register(router, "t\(thread)c\(index)")) }
                // Every thread cancels its even channels, so the odd ones stay.
                for (index, token) in tokens.enumerated() where index % 2 == 0 { token.cancel() }
                kept.withLock { $0.append(contentsOf: tokens) }
            }
            let last = seen.all.last
            let expected = (0..<threads).flatMap { thread in
                stride(from: 1, to: perThread, by: 2).map { Channel(uncheckedTestName: "t\(thread)c\($0)") }
            }.sorted()
            #expect(last == router.manifest, "round \(round)")
            #expect(last?.channels == expected, "round \(round)")
            observer.cancel()
            for token in kept.withLock({ $0 }) { token.cancel() }
        }
    }

    @Test func anObserverRegisteringChannelsFromItsCallbackSeesEachInOrder() {
        let router = Router()
        let seen = RouterRecorder<[Channel]>()
        let added = Locked<[Registration]>([])
        let observer = router.observeManifest { manifest in
            seen.append(manifest.channels)
            let count = manifest.channels.count
            if count < 20 { added.withLock { $0.append(register(router, "c\(String(format: "%02d", count))")) } }
        }
        let first = register(router, "a")
        // Each manifest told registers the next channel, from inside the callback; each is told in turn.
        let expected = (0..<20).map { told in
            (["a"] + (0..<told).map { "c\(String(format: "%02d", $0 + 1))" }).map { Channel(uncheckedTestName: $0) }
        }
        #expect(seen.all == expected)
        #expect(router.manifest.channels == expected.last)
        observer.cancel()
        withExtendedLifetime((first, added.withLock { $0 })) {}
    }

    /// Once `cancel()` has returned, no change made afterwards calls the observer: a call made
    /// while telling a change that began after the cancel returned is late. (A call admitted just
    /// before the cancel may still reach the observer's first step a moment after it returned;
    /// that is bounded, as in `CancelUnderTrafficStressTests`.)
    @Test func anObserverCancelledDuringABurstIsNotCalledAfterCancelReturns() async {
        let rounds = 5 * Stress.scale
        var lateBegins = 0
        for _ in 0..<rounds {
            let router = Router()
            let calls = Locked(0)
            // Read lock-free as the observer's very first step: a lock there could keep a call that
            // began before the cancel returned waiting until after it, and count it late.
            let returned = CancelUnderTrafficStressTests.ReturnedMark.make()
            /// The threads whose current registration change began after the cancel returned.
            let changingAfterCancel = Locked<Set<ObjectIdentifier>>([])
            let lateCalls = Locked(0)
            let begunAfterCancel = Locked(0)
            let observer = router.observeManifest { _ in
                let begun = returned.isSet()
                calls.withLock { $0 += 1 }
                if begun { begunAfterCancel.withLock { $0 += 1 } }
                if changingAfterCancel.withLock({ $0.contains(ObjectIdentifier(Thread.current)) }) {
                    lateCalls.withLock { $0 += 1 }
                }
            }
            await Stress.onThreads(3) { thread in
                if thread == 0 {
                    while calls.withLock({ $0 }) < 20 { usleep(100) }
                    observer.cancel()
                    returned.set()
                    return
                }
                /// One registration change, marked when it begins after the cancel returned.
                func change<T>(_ body: () -> T) -> T {
                    let me = ObjectIdentifier(Thread.current)
                    let after = returned.isSet()
                    if after { changingAfterCancel.withLock { _ = $0.insert(me) } }
                    defer { if after { changingAfterCancel.withLock { _ = $0.remove(me) } } }
                    return body()
                }
                var tokens: [Registration] = []
                for index in 0..<300 { tokens.append(change { register(router, "t\(thread)c\(index)") }) }
                for token in tokens { change { token.cancel() } }
            }
            #expect(lateCalls.withLock { $0 } == 0, "a change made after cancel() returned called the observer")
            lateBegins += begunAfterCancel.withLock { $0 }
        }
        // Calls admitted before the cancel whose first step came after it: at most one per
        // changing thread and round, and rare (a thread preempted between its check and the call).
        #expect(
            lateBegins <= max(2, rounds / 5), "\(lateBegins) calls in \(rounds) rounds began after cancel() returned")
    }

    @Test func aManifestIsASnapshotOfTheMomentItWasTaken() {
        let router = Router()
        let a = register(router, "a")
        let before = router.manifest
        let b = register(router, "b")
        a.cancel()
        // Read only now: still the channels of when it was taken.
        #expect(before.channels == ["a"])
        #expect(router.manifest.channels == ["b"])
        #expect(before != router.manifest)
        withExtendedLifetime(b) {}
    }

    @Test func aKeptManifestDoesNotKeepACancelledHandlerAlive() {
        let router = Router()
        let seen = RouterRecorder<Manifest>()
        let observer = router.observeManifest { seen.append($0) }
        weak var weakCanary: Canary?
        var token: Registration?
        do {
            let canary = Canary()
            weakCanary = canary
            token = router.on(Shaped.self) { _ in withExtendedLifetime(canary) {} }
        }
        let kept = router.manifest
        token?.cancel()
        token = nil
        #expect(weakCanary == nil)
        #expect(kept.channels == ["shaped"])
        #expect(seen.count == 2)
        observer.cancel()
    }

    @Test func manifestsCompareAndHashByContentHoweverTheyWereMade() throws {
        let router = Router()
        router.declare(Feature("shaping", needs: "shaped"))
        let token = router.on(Shaped.self) { _ in }
        let live = router.manifest
        let made = Manifest(
            channels: ["shaped"], features: ["shaping": true], contract: live.contract, contracts: live.contracts)
        #expect(live.contracts.keys.sorted() == ["shaped"])
        #expect(live == made && made == live)
        #expect(live.hashValue == made.hashValue)
        #expect(Set([live, made, router.manifest]).count == 1)
        let decoded = try JSONDecoder().decode(Manifest.self, from: JSONEncoder().encode(live))
        #expect(decoded == live)
        #expect(live != Manifest(channels: ["shaped"], features: ["shaping": false], contract: live.contract))
        token.cancel()
        #expect(router.manifest != live)
        #expect(
            router.manifest == Manifest(channels: [], features: ["shaping": false], contract: router.manifest.contract))
    }

    @Test func observersAreNotToldAManifestEqualToTheLastOne() {
        let router = Router()
        let seen = RouterRecorder<Manifest>()
        let churned = Locked(false)
        let observer = router.observeManifest { manifest in
            seen.append(manifest)
            // Once, from the callback: a channel comes and goes. The router's manifest is then
            // the one just told, so it is not told again.
            let first = churned.withLock { done in
                defer { done = true }
                return !done
            }
            guard first else { return }
            register(router, "transient").cancel()
        }
        let shaped = router.on(Shaped.self) { _ in }
        #expect(seen.count == 1)
        // A second handler of the same type: the manifest does not change.
        let again = router.on(Shaped.self) { _ in }
        #expect(seen.count == 1)
        // Another type on the channel: its contract changes.
        let other = router.on(OtherShape.self) { _ in }
        #expect(seen.count == 2)
        other.cancel()
        #expect(seen.count == 3)
        router.declare(Feature("shaping", needs: "shaped"))
        router.declare(Feature("shaping", needs: "shaped"))
        #expect(seen.count == 4)
        let contracts = seen.all.map(\.contract)
        #expect(contracts[0] == contracts[2] && contracts[2] == contracts[3])
        #expect(contracts[0] != contracts[1])
        #expect(seen.all.map(\.channels) == [["shaped"], ["shaped"], ["shaped"], ["shaped"]])
        #expect(seen.all.last == router.manifest)
        observer.cancel()
        withExtendedLifetime((shaped, again)) {}
    }
}
