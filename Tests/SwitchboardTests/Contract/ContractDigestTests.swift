import Foundation
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// An event whose channel is read from a variable when it registers, so one type
/// registers many channels (the router reads `Event.channel` once, at registration).
private struct NumberedTip: Event {
    /// Set by the one test that registers with it, before each registration.
    nonisolated(unsafe) static var current: Channel = "numberedTip0"
    static var channel: Channel { current }
    let amount: Int
}

/// The manifest's digest is assembled from each channel's part of the document, kept by
/// the channel's name and types: it must stay the digest of ``Contract/json`` whatever
/// the changes, the order of the names or the definitions the types use.
@Suite(.serialized) struct ContractDigestTests {
    /// `sha256:` and the hex SHA-256 of `text`, computed here from the canonical text.
    private func digest(of text: String) -> String {
        "sha256:" + SHA256.hex(of: Array(text.utf8))
    }

    @Test func everyManifestObserversAreToldCarriesTheDigestOfTheContractAtThatMoment() throws {
        let router = Router()
        let mismatches = Locked<[String]>([])
        let told = Locked(0)
        let observer = router.observeManifest { [weak router] manifest in
            guard let router else { return }
            let contract = Contract(router: router)
            told.withLock { $0 += 1 }
            if manifest.contract != contract.digest || manifest.contract != digest(of: contract.json) {
                mismatches.withLock {
                    $0.append("\(manifest.channels): \(manifest.contract ?? "nil") != \(contract.digest)")
                }
            }
            if manifest.channels != contract.channels.keys.sorted() {
                mismatches.withLock { $0.append("channels \(manifest.channels)") }
            }
        }
        var tokens: [Registration] = []
        // Names whose order as strings differs from the order of their lengths or of registration.
        for name in ["zeta", "alpha", "Beta", "a", "a-b", "a_b", "ä", "tip10", "tip9", "tip1"] {
            NumberedTip.current = try Channel(validating: name)
            tokens.append(router.on(NumberedTip.self) { _ in })
        }
        let tree = router.on(Shop.CategoryTree.self) { _ in }  // uses $defs
        let ping = router.on(Shop.Ping.self) { _ in }
        let order = try router.respond(to: Shop.PlaceOrder.self) { _, _ in }
        let snapshot = try router.respond(to: Shop.TakeSnapshot.self) { _, _ in }
        let tip = router.on(Shop.Tip.self) { _ in }
        let replaced = router.replaceHandlers(of: ContractManifestObserverTests.TipByName.self) { _, _ in }
        // A second handler of another type on a live channel changes its body schema (allOf).
        NumberedTip.current = "ping"
        let second = router.on(NumberedTip.self) { _ in }
        for token in tokens.prefix(4) { token.cancel() }
        tree.cancel()
        order.cancel()
        second.cancel()
        // Back to a set of channels and types seen before: its digest may be reused.
        let treeAgain = router.on(Shop.CategoryTree.self) { _ in }
        treeAgain.cancel()
        #expect(told.withLock { $0 } >= 20)
        #expect(mismatches.withLock { $0 } == [])
        #expect(router.manifest.contract == router.contract.digest)
        withExtendedLifetime((observer, tokens, ping, snapshot, tip, replaced)) {}
    }

    @Test func theManifestDigestAfterManyRegistrationsIsTheContractsDigest() throws {
        let router = Router()
        let last = Locked<Manifest?>(nil)
        let observer = router.observeManifest { manifest in last.withLock { $0 = manifest } }
        var tokens: [Registration] = []
        for index in 0..<150 {
            NumberedTip.current = try Channel(validating: "numberedTip\(index)")
            tokens.append(router.on(NumberedTip.self) { _ in })
        }
        let tree = router.on(Shop.CategoryTree.self) { _ in }
        let contract = Contract(router: router)
        #expect(contract.definitions.isEmpty == false)
        #expect(last.withLock { $0 } == router.manifest)
        #expect(last.withLock { $0?.contract } == contract.digest)
        #expect(last.withLock { $0?.contract } == digest(of: contract.json))
        #expect(last.withLock { $0?.channels.count } == 151)
        for (index, token) in tokens.enumerated() where index % 3 == 0 { token.cancel() }
        #expect(last.withLock { $0?.contract } == Contract(router: router).digest)
        withExtendedLifetime((observer, tokens, tree)) {}
    }

    @Test func theDigestDoesNotDependOnTheOrderChannelsWereRegisteredIn() throws {
        func manifest(_ names: [String]) throws -> Manifest {
            let router = Router()
            let observer = router.observeManifest { _ in }
            var tokens: [Registration] = []
            for name in names {
                NumberedTip.current = try Channel(validating: name)
                tokens.append(router.on(NumberedTip.self) { _ in })
            }
            tokens.append(router.on(Shop.CategoryTree.self) { _ in })
            defer { withExtendedLifetime((observer, tokens)) {} }
            return router.manifest
        }
        let names = (0..<50).map { "channel\($0 * 7 % 50)" }
        let forward = try manifest(names)
        let backward = try manifest(names.reversed())
        #expect(forward == backward)
        #expect(forward.contract != nil)
    }
}
