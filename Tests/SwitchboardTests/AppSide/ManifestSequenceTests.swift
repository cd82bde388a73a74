import Foundation
import Observation
import Switchboard
import Testing

/// `router.manifests` (the current manifest, then each change) and `FeatureModel` (the same as
/// `@Observable` main-actor state).
@Suite struct ManifestSequenceTests {
    @Test func theCurrentManifestComesFirstThenEachChange() async {
        let router = Router()
        router.declare(Feature("cart", needs: "addCartLine", "productCartGetState"))
        let ready = router.on(Ready.self) { _ in }
        var manifests = router.manifests.makeAsyncIterator()
        #expect(await manifests.next()?.channels == ["sdkReady"])
        let lines = router.on(CartLine.self) { _ in }
        let afterLines = await manifests.next()
        #expect(afterLines?.channels == ["addCartLine", "sdkReady"])
        #expect(afterLines?.features["cart"] == false)
        let state = try? router.respond(to: CartLines.self) { _, reply in reply.succeed([]) }
        #expect(await manifests.next()?.features["cart"] == true)
        lines.cancel()
        let afterCancel = await manifests.next()
        #expect(afterCancel?.channels == ["productCartGetState", "sdkReady"])
        #expect(afterCancel?.features["cart"] == false)
        withExtendedLifetime((ready, state)) {}
    }

    @Test func anEventLoopComesAndGoesInTheManifests() async {
        let router = Router()
        var manifests = router.manifests.makeAsyncIterator()
        #expect(await manifests.next()?.channels == [])
        let loop = Task {
            for await _ in router.events(CartLine.self) {}
        }
        #expect(await manifests.next()?.channels == ["addCartLine"])
        loop.cancel()
        #expect(await manifests.next()?.channels == [])
    }

    @Test func cancellingTheIteratingTaskStopsObserving() async {
        let router = Router()
        let loop = Task {
            var count = 0
            for await _ in router.manifests { count += 1 }
            return count
        }
        // The loop's first manifest is the current one; then nothing changes until it is cancelled.
        loop.cancel()
        #expect(await loop.value <= 1)
    }

    @Test @MainActor func theFeatureModelIsObservable() async {
        let router = Router()
        router.declare(Feature("cart", needs: "addCartLine"))
        let features = FeatureModel(router: router)
        #expect(!features.isEnabled(featureNamed: "cart"))
        #expect(!features.isHandled("addCartLine"))
        var token: Registration?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withObservationTracking {
                _ = features.manifest
            } onChange: {
                continuation.resume()
            }
            token = router.on(CartLine.self) { _ in }
        }
        #expect(features.isEnabled(featureNamed: "cart"))
        #expect(features.isEnabled(Feature("cart", needs: "addCartLine")))
        #expect(features.channels == ["addCartLine"])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withObservationTracking {
                _ = features.isEnabled(featureNamed: "cart")
            } onChange: {
                continuation.resume()
            }
            token?.cancel()
        }
        #expect(!features.isEnabled(featureNamed: "cart"))
    }
}
