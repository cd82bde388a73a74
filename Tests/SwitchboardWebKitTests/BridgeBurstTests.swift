import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// The channel a ``BurstEvent`` registers on, bound per thread (or task).
private enum BurstChannel {
    @TaskLocal static var current: Channel = "burst"
}

private struct BurstEvent: BodylessEvent {
    static var channel: Channel { BurstChannel.current }
}

private func register(_ router: Router, _ name: String) -> Registration {
    BurstChannel.$current.withValue((try? Channel(validating: name)) ?? "invalid") {
        router.on(BurstEvent.self) { _ in }
    }
}

@MainActor
@Suite struct BridgeBurstTests {
    @Test func aBurstOnTheMainActorIsFollowedOnceWithEachNameAddedOnce() async {
        let router = Router()
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry, alsoRegistering: ["c7"], reservedNames: ["c3"])
        let updatesAtStart = registry.scriptUpdates
        let names = (0..<500).map { "c\($0)" }
        let tokens = names.map { register(router, $0) }
        let wanted = Set(names).subtracting(["c3"]).union(["switchboard"])
        #expect(await eventually { registry.handlers == wanted })
        // One sync for the whole burst: one script, of the manifest after it.
        #expect(registry.scriptUpdates == updatesAtStart + 1)
        #expect(embeddedManifest(in: registry.script ?? "") == router.manifest)
        #expect(bridge.conflictingNames == ["c3"])

        for token in tokens { token.cancel() }
        #expect(await eventually { registry.handlers == ["c7", "switchboard"] })
        #expect(registry.scriptUpdates == updatesAtStart + 2)
        #expect(embeddedManifest(in: registry.script ?? "")?.channels == [])
        #expect(bridge.registeredNames == ["c7", "switchboard"])
        #expect(bridge.conflictingNames.isEmpty)
        #expect(registry.misuses.isEmpty)
        // Each name added once and removed once (c7 and the hello handler stay, c3 is never added).
        #expect(registry.calls.count == 2 * (wanted.count - 2) + 2)
    }

    @Test func burstsFromSeveralThreadsEndWithTheRoutersManifestPublished() async {
        let router = Router()
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        let kept = Locked<[Registration]>([])
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    var tokens = (0..<200).map { register(router, "t\(thread)c\($0)") }
                    // Cancel the even ones again.
                    for index in stride(from: 0, to: tokens.count, by: 2) { tokens[index].cancel() }
                    tokens = tokens.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
                    kept.withLock { $0.append(contentsOf: tokens) }
                }
            }
        }
        let expected = Set((0..<4).flatMap { thread in stride(from: 1, to: 200, by: 2).map { "t\(thread)c\($0)" } })
        #expect(await eventually { registry.handlers == expected.union(["switchboard"]) })
        #expect(await eventually { embeddedManifest(in: registry.script ?? "") == router.manifest })
        #expect(Set(bridge.registeredNames) == expected.union(["switchboard"]))
        #expect(registry.misuses.isEmpty)
        for token in kept.withLock({ $0 }) { token.cancel() }
        #expect(await eventually { registry.handlers == ["switchboard"] })
        #expect(await eventually { embeddedManifest(in: registry.script ?? "")?.channels == [] })
    }

    @Test func stoppingWithASyncPendingAddsNothingAfterwards() async {
        let router = Router()
        let registry = FakeRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        let tokens = (0..<50).map { register(router, "c\($0)") }
        // The sync the burst scheduled has not run yet (the main actor has not been given up).
        bridge.stop()
        try? await Task.sleep(for: .milliseconds(20))
        #expect(registry.handlers.isEmpty)
        #expect(registry.script == nil)
        #expect(registry.misuses.isEmpty)
        withExtendedLifetime(tokens) {}
    }
}
