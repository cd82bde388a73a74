import Foundation
import Switchboard
import Testing

/// A newer `ping` than the app's: what a page built against a later contract sends.
private struct PingV2: Event {
    static let channel: Channel = "ping"
    let count: Int
    let label: String
}

/// Collects a router's `contractSkew` diagnostics.
private final class SkewLog: Sendable {
    let seen = Locked<[Diagnostic]>([])
    var skews: [Diagnostic] { seen.withLock { $0 } }

    func observe(_ router: Router) -> Registration {
        router.observeDiagnostics { [seen] diagnostic in
            if case .contractSkew = diagnostic { seen.withLock { $0.append(diagnostic) } }
        }
    }
}

@Suite struct ContractSkewTests {
    /// The digests a page built against `types` states, as the generated client's table holds them.
    private func pageDigests(_ types: [any Event.Type]) -> [String: String] {
        let contract = Contract(types: types)
        return Dictionary(
            uniqueKeysWithValues: types.map { ($0.channel.name, contract.restricted(to: [$0.channel]).digest) })
    }

    @Test func aPageBuiltAgainstTheSameContractDiffersOnNothing() {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let ready = router.on(Ready.self) { _ in }
        let page = pageDigests([Ping.self, Ready.self])
        #expect(page == router.manifest.contracts)
        #expect(router.manifest.channelsDiffering(from: page).isEmpty)
        let log = SkewLog()
        let observing = log.observe(router)
        #expect(router.checkContracts(page).isEmpty)
        #expect(log.skews.isEmpty)
        _ = (ping, ready, observing)
    }

    @Test func aChangedChannelIsReportedOncePerCheckNotPerMessage() throws {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let ready = router.on(Ready.self) { _ in }
        let page = pageDigests([PingV2.self, Ready.self])
        let log = SkewLog()
        let observing = log.observe(router)

        let differing = router.checkContracts(page)
        #expect(differing == ["ping"])
        for count in 0..<5 { #expect(router.receive(name: "ping", body: ["count": count]).kind == .handled) }
        #expect(log.skews.count == 1)
        guard case .contractSkew(let channel, let theirs, let ours)? = log.skews.first else {
            Issue.record("no contractSkew diagnostic")
            return
        }
        #expect(channel == "ping")
        #expect(theirs == page["ping"])
        #expect(ours == router.manifest.contracts["ping"])
        #expect(theirs != ours)
        #expect(log.skews.first?.kind == .contractSkew)
        #expect(log.skews.first?.channel == "ping")
        #expect(log.skews.first?.description.hasPrefix("ping: the page was built against contract \"sha256:") == true)

        // A second page load states its digests again: reported again.
        #expect(router.checkContracts(page) == ["ping"])
        #expect(log.skews.count == 2)
        _ = (ping, ready, observing)
    }

    @Test func aChannelTheAppLacksDiffersWithNoAppDigest() {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let page = pageDigests([Ping.self, Ready.self])
        let log = SkewLog()
        let observing = log.observe(router)
        #expect(router.checkContracts(page) == ["sdkReady"])
        guard case .contractSkew(_, _, let ours)? = log.skews.first else {
            Issue.record("no contractSkew diagnostic")
            return
        }
        #expect(ours == nil)
        #expect(log.skews.first?.description.hasSuffix("the app has no such channel") == true)

        // Once the handler registers, the same statement agrees.
        let ready = router.on(Ready.self) { _ in }
        #expect(router.checkContracts(page).isEmpty)
        _ = (ping, ready, observing)
    }

    @Test func aManifestWithoutDigestsCountsOnlyChannelsItLacks() {
        // An older app's manifest: channels, no per-channel digests.
        let old = Manifest(channels: ["ping"], features: [:])
        #expect(old.channelsDiffering(from: ["ping": "sha256:aa", "sdkReady": "sha256:bb"]) == ["sdkReady"])
        let pushes = Manifest(channels: [], features: [:], pushes: ["cartChanged"])
        #expect(pushes.channelsDiffering(from: ["cartChanged": "sha256:cc"]).isEmpty)
    }

    @Test func hostileStatementsAreReadSafely() {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let log = SkewLog()
        let observing = log.observe(router)
        let long = String(repeating: "x", count: 10_000)
        let page = ["": "sha256:aa", String(repeating: "n", count: 300): "sha256:bb", "a\u{0}b": "x", "ping": long]
        // Invalid channel names are left out; a long digest is kept but cut in the description.
        #expect(router.checkContracts(page) == ["ping"])
        #expect(log.skews.count == 1)
        #expect((log.skews.first?.description.count ?? .max) < 300)
        #expect(router.checkContracts([:]).isEmpty)
        _ = (ping, observing)
    }

    @Test func aSenderLearnsNothingAboutChannelsItMayNotCall() throws {
        let router = Router()
        router.setOriginPolicy(try OriginPolicy(allowing: ["https://shop.example.com"]), for: Ping.channel)
        let ping = router.on(Ping.self) { _ in }
        let page = pageDigests([PingV2.self, Ready.self])
        let log = SkewLog()
        let observing = log.observe(router)
        let shop = MessageSender(originText: "https://shop.example.com", isMainFrame: true)
        let ads = MessageSender(originText: "https://ads.example.net", isMainFrame: true)
        #expect(router.checkContracts(page, from: ads) == ["sdkReady"])
        #expect(router.checkContracts(page, from: shop) == ["ping", "sdkReady"])
        #expect(log.skews.map(\.channel) == ["sdkReady", "ping", "sdkReady"])
        _ = (ping, observing)
    }

    @Test func aHelloIsReadWithTheBodyDecoder() throws {
        let decoder = BodyDecoder()
        let body = MessageBody(["contracts": ["ping": "sha256:aa"], "extra": 1])
        let hello = try decoder.decode(PageHello.self, from: body)
        #expect(hello.contracts == ["ping": "sha256:aa"])
        #expect(try PageHello(body: body) == hello)
        #expect(throws: BodyDecodingError.self) {
            try decoder.decode(PageHello.self, from: MessageBody(["contracts": ["ping": 1]]))
        }
        #expect(throws: BodyDecodingError.self) {
            try decoder.decode(PageHello.self, from: MessageBody(["differing": []]))
        }
        #expect(throws: BodyDecodingError.self) { try decoder.decode(PageHello.self, from: MessageBody.absent) }
        #expect(throws: BodyDecodingError.self) { try PageHello(body: .absent) }
        do {
            _ = try decoder.decode(PageHello.self, from: MessageBody(json: ["contracts": ["ping": true]]))
            Issue.record("a digest that is not a string was read")
        } catch {
            #expect(error.path == "body.contracts.ping")
        }
    }
}
