/// What is live on a router: the channels that have a handler or responder, and
/// whether each declared feature is enabled. Encodes channels and feature names
/// in sorted order, so ``BodyEncoder`` (which keeps encode order) writes the same
/// text every time (`JSONEncoder` reorders object keys unless its
/// `outputFormatting` contains `.sortedKeys`):
/// ```json
/// {"channels": ["addCartLine", "removeCartLine"], "features": {"freeProductRewards": true},
///  "contract": "sha256:…"}
/// ```
/// A router's manifest carries ``contract``, the ``Contract/digest`` of its live
/// channels' contract, so a page can check at start-up that it speaks the app's contract.
public struct Manifest: Hashable, Sendable, Codable {
    /// Channels with at least one handler or a responder, sorted.
    public let channels: [Channel]
    /// Each declared feature's state.
    public let features: [String: Bool]
    /// The ``Contract/digest`` of the live channels' ``Contract`` (`sha256:…`); `nil` when unknown.
    public let contract: String?

    /// Creates a manifest.
    /// - Parameters:
    ///   - channels: the live channels.
    ///   - features: each declared feature's state.
    ///   - contract: the digest of the channels' contract, if known.
    public init(channels: [Channel], features: [String: Bool], contract: String? = nil) {
        self.channels = channels.sorted()
        self.features = features
        self.contract = contract
    }

    /// The manifest of a routing table: its live channels, sorted, and each feature's state.
    /// O(n log n) in the channels; the router computes it outside its lock.
    init(table: Router.RoutingTable, features: [String: Feature]) {
        let (live, digest) = ContractDigests.liveChannels(of: table)
        var enabled: [String: Bool] = [:]
        for (name, feature) in features {
            enabled[name] = feature.channels.allSatisfy { table.route($0)?.isLive ?? false }
        }
        self.init(sortedChannels: live, features: enabled, contract: digest)
    }

    /// A manifest of channels already sorted.
    private init(sortedChannels: [Channel], features: [String: Bool], contract: String?) {
        self.channels = sortedChannels
        self.features = features
        self.contract = contract
    }

    private enum CodingKeys: String, CodingKey { case channels, features, contract }

    private struct NameKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes a manifest.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            channels: try container.decode([Channel].self, forKey: .channels),
            features: try container.decode([String: Bool].self, forKey: .features),
            contract: try container.decodeIfPresent(String.self, forKey: .contract)
        )
    }

    /// Encodes channels, then features with names in sorted order, then the contract's digest (when known).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channels, forKey: .channels)
        var nested = container.nestedContainer(keyedBy: NameKey.self, forKey: .features)
        for name in features.keys.sorted() {
            try nested.encode(features[name] ?? false, forKey: NameKey(stringValue: name))
        }
        try container.encodeIfPresent(contract, forKey: .contract)
    }
}
