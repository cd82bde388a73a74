/// What a ``Manifest`` holds: its content, or the router's snapshot it is computed from
/// the first time it is read (then kept).
final class ManifestStorage: Sendable {
    /// A manifest's content.
    struct Content: Hashable, Sendable {
        let channels: [Channel]
        let features: [String: Bool]
        let contract: String?
        var pushes: [Channel] = []
        var contracts: [String: String] = [:]
    }

    /// A router's live channels and declared features.
    struct Source: Sendable {
        let live: Router.LiveChannels
        let declared: [String: Feature]
        var pushes = DeclaredPushes()

        /// Each declared feature's state: whether every channel it needs is live.
        var enabled: [String: Bool] {
            declared.mapValues { feature in feature.channels.allSatisfy { live.contains($0) } }
        }
    }

    let source: Source?
    private let computed: Locked<Content?>

    init(content: Content) {
        source = nil
        computed = Locked(content)
    }

    init(live: Router.LiveChannels, declared: [String: Feature], pushes: DeclaredPushes) {
        source = Source(live: live, declared: declared, pushes: pushes)
        computed = Locked(nil)
    }

    /// The content, computed once (outside the lock: deriving a contract may run the types' `init(from:)`).
    var content: Content {
        if let content = computed.withLock({ $0 }) { return content }
        let content = source.map(ManifestStorage.compute) ?? Content(channels: [], features: [:], contract: nil)
        return computed.withLock { kept in
            if let kept { return kept }
            kept = content
            return content
        }
    }

    /// The live channels, sorted; each declared feature's state; the contract's digest; the declared
    /// pushes; each channel's own digest. O(n log n).
    private static func compute(_ source: Source) -> Content {
        var (channels, digest, digests) = ContractDigests.liveChannels(of: source.live, perChannel: true)
        let pushes = source.pushes.channels
        if !pushes.isEmpty {
            // The whole contract's digest covers the pushes too, as `Contract(router:)` does.
            digest = ContractDigests.digest(of: source.live, pushes: source.pushes)
            let contract = Contract(pushes: source.pushes)
            for channel in pushes where digests[channel.name] == nil {
                digests[channel.name] = contract.restricted(to: [channel]).digest
            }
        }
        return Content(
            channels: channels, features: source.enabled, contract: digest, pushes: pushes, contracts: digests)
    }
}
