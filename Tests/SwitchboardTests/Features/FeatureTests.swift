import Foundation
import Switchboard
import Testing

private struct AddCartLine: Event {
    static let channel: Channel = "addCartLine"
}

private struct RemoveCartLine: Event {
    static let channel: Channel = "removeCartLine"
}

private let rewards = Feature("freeProductRewards", needs: AddCartLine.channel, RemoveCartLine.channel)

@Suite struct FeatureTests {
    @Test func aFeatureIsEnabledOnlyWhileEveryChannelItNeedsHasAHandler() {
        let router = Router()
        router.declare(rewards)
        #expect(!router.isEnabled(rewards))
        let add = router.on(AddCartLine.self) { _ in }
        #expect(!router.isEnabled(rewards))
        let remove = router.on(RemoveCartLine.self) { _ in }
        #expect(router.isEnabled(rewards))
        #expect(router.isEnabled(featureNamed: "freeProductRewards"))
        remove.cancel()
        #expect(!router.isEnabled(rewards))
        #expect(!router.isEnabled(featureNamed: "freeProductRewards"))
        withExtendedLifetime(add) {}
    }

    @Test func anUndeclaredFeatureIsAnsweredButNotInTheManifest() {
        let router = Router()
        let add = router.on(AddCartLine.self) { _ in }
        let remove = router.on(RemoveCartLine.self) { _ in }
        #expect(router.isEnabled(rewards))
        #expect(!router.isEnabled(featureNamed: "freeProductRewards"))
        #expect(router.manifest.features.isEmpty)
        withExtendedLifetime((add, remove)) {}
    }

    @Test func aResponderCountsAsAHandlerForAFeature() throws {
        let router = Router()
        let feature = Feature("echoing", needs: [Echo.channel])
        router.declare(feature)
        let token = try router.respond(to: Echo.self) { _, reply in reply.succeed("") }
        #expect(router.isEnabled(feature))
        #expect(router.manifest.channels == ["echo"])
        withExtendedLifetime(token) {}
    }

    @Test func observersAreToldEachChangeInOrder() {
        let router = Router()
        let seen = RouterRecorder<Manifest>()
        let observer = router.observeManifest { seen.append($0) }
        router.declare(rewards)
        let add = router.on(AddCartLine.self) { _ in }
        let second = router.on(AddCartLine.self) { _ in }  // no change: addCartLine was live already
        let remove = router.on(RemoveCartLine.self) { _ in }
        remove.cancel()
        #expect(
            seen.all.map(\.features) == [
                ["freeProductRewards": false], ["freeProductRewards": false],
                ["freeProductRewards": true], ["freeProductRewards": false],
            ])
        #expect(seen.all.map(\.channels) == [[], ["addCartLine"], ["addCartLine", "removeCartLine"], ["addCartLine"]])
        observer.cancel()
        add.cancel()
        #expect(seen.count == 4)
        withExtendedLifetime(second) {}
    }

    @Test func anObserverCanCallBackIntoTheRouter() {
        let router = Router()
        let seen = RouterRecorder<[Channel]>()
        let added = Locked<[Registration]>([])
        let observer = router.observeManifest { manifest in
            seen.append(manifest.channels)
            if manifest.channels == ["addCartLine"] {
                added.withLock { $0.append(router.on(RemoveCartLine.self) { _ in }) }
            }
        }
        let add = router.on(AddCartLine.self) { _ in }
        #expect(seen.all == [["addCartLine"], ["addCartLine", "removeCartLine"]])
        #expect(router.manifest.channels == ["addCartLine", "removeCartLine"])
        withExtendedLifetime((observer, add)) {}
    }

    @Test func theManifestEncodesInAStableSortedOrder() throws {
        let router = Router()
        router.declare(
            Feature("zeta", needs: "removeCartLine"), rewards, Feature("alpha", needs: "addCartLine"))
        let remove = router.on(RemoveCartLine.self) { _ in }
        let add = router.on(AddCartLine.self) { _ in }
        let ready = router.on(Ready.self) { _ in }
        let contract = try #require(router.manifest.contract)
        let digests = router.manifest.contracts
        let addDigest = try #require(digests["addCartLine"])
        let removeDigest = try #require(digests["removeCartLine"])
        let readyDigest = try #require(digests["sdkReady"])
        let perChannel =
            #""contracts":{"addCartLine":"\#(addDigest)","removeCartLine":"\#(removeDigest)","sdkReady":"\#(readyDigest)"}"#
        let expected =
            #"{"channels":["addCartLine","removeCartLine","sdkReady"],"#
            + #""features":{"alpha":true,"freeProductRewards":true,"zeta":true},"contract":"\#(contract)","#
            + perChannel + "}"
        // Switchboard's encoder keeps encode order, so the text is the same every time.
        let json = String(decoding: try BodyEncoder().encodeJSON(router.manifest), as: UTF8.self)
        #expect(json == expected)
        // Foundation's encoder reorders keys unless asked to sort them.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let sorted =
            #"{"channels":["addCartLine","removeCartLine","sdkReady"],"contract":"\#(contract)","#
            + perChannel + ","
            + #""features":{"alpha":true,"freeProductRewards":true,"zeta":true}}"#
        #expect(String(decoding: try encoder.encode(router.manifest), as: UTF8.self) == sorted)
        let decoded = try JSONDecoder().decode(Manifest.self, from: Data(json.utf8))
        #expect(decoded == router.manifest)
        withExtendedLifetime((remove, add, ready)) {}
    }

    @Test func redeclaringAFeatureReplacesIt() {
        let router = Router()
        let add = router.on(AddCartLine.self) { _ in }
        router.declare(Feature("rewards", needs: "addCartLine", "removeCartLine"))
        #expect(router.manifest.features == ["rewards": false])
        router.declare(Feature("rewards", needs: "addCartLine"))
        #expect(router.manifest.features == ["rewards": true])
        withExtendedLifetime(add) {}
    }

    @Test func aFeatureListsItsChannelsOnceAndSorted() {
        let feature = Feature("f", needs: "b", "a", "b")
        #expect(feature.channels == ["a", "b"])
        #expect(feature.description == "f(a, b)")
    }
}
