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
///
/// A router's manifest (``Router/manifest``, or one told to an observer) is a snapshot
/// taken in O(1): its channels, features and contract are computed from the snapshot
/// the first time one of them is read (O(n log n) in the channels, outside every lock),
/// and kept. Manifests compare and hash by content.
public struct Manifest: Hashable, Sendable, Codable {
    /// Channels with at least one handler or a responder, sorted.
    public var channels: [Channel] { storage.content.channels }
    /// Each declared feature's state.
    public var features: [String: Bool] { storage.content.features }
    /// The ``Contract/digest`` of the router's ``Contract`` (`sha256:…`): its live channels and
    /// declared pushes (``Contract/init(router:)``); `nil` when unknown.
    public var contract: String? { storage.content.contract }
    /// The push channels the app declared (``Router/declare(push:)``), sorted: what it may send
    /// the page.
    public var pushes: [Channel] { storage.content.pushes }
    /// The digest of each live channel's and each push channel's own contract, by name
    /// (`"addCartLine": "sha256:…"`): the ``Contract/digest`` of the router's contract
    /// ``Contract/restricted(to:)`` that channel. A page compares only the channels it uses, so
    /// a feature that is off, or a channel still registering, never fails its start-up check.
    public var contracts: [String: String] { storage.content.contracts }

    private let storage: ManifestStorage

    /// Creates a manifest.
    /// - Parameters:
    ///   - channels: the live channels.
    ///   - features: each declared feature's state.
    ///   - contract: the digest of the channels' contract, if known.
    ///   - pushes: the declared push channels.
    ///   - contracts: each channel's own contract digest, by name.
    public init(
        channels: [Channel], features: [String: Bool], contract: String? = nil, pushes: [Channel] = [],
        contracts: [String: String] = [:]
    ) {
        storage = ManifestStorage(
            content: ManifestStorage.Content(
                channels: channels.sorted(), features: features, contract: contract, pushes: pushes.sorted(),
                contracts: contracts))
    }

    /// The manifest of a router's live channels, declared features and pushes, computed when first read.
    init(live: Router.LiveChannels, features: [String: Feature], pushes: DeclaredPushes) {
        storage = ManifestStorage(live: live, declared: features, pushes: pushes)
    }

    /// The router's snapshot this manifest was taken from; `nil` for one made from its parts or decoded.
    var live: Router.LiveChannels? { storage.source?.live }

    /// Whether two manifests have the same channels, features and contract.
    ///
    /// Two manifests of one router a few changes apart are compared in O(changes × log n),
    /// without computing either: only the channels that changed between them are looked at.
    public static func == (lhs: Manifest, rhs: Manifest) -> Bool {
        if lhs.storage === rhs.storage { return true }
        guard let old = lhs.storage.source, let new = rhs.storage.source else {
            return lhs.storage.content == rhs.storage.content
        }
        switch Router.LiveChannels.sameManifest(old.live, new.live) {
        case false?: return false
        case true?: return old.pushes == new.pushes && (old.declared == new.declared || old.enabled == new.enabled)
        case nil: return lhs.storage.content == rhs.storage.content
        }
    }

    /// Hashes the channels, features and contract.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.content)
    }

    private enum CodingKeys: String, CodingKey { case channels, features, contract, pushes, contracts }

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
            contract: try container.decodeIfPresent(String.self, forKey: .contract),
            pushes: try container.decodeIfPresent([Channel].self, forKey: .pushes) ?? [],
            contracts: try container.decodeIfPresent([String: String].self, forKey: .contracts) ?? [:]
        )
    }

    /// Encodes channels, then features with names in sorted order, then the contract's digest (when
    /// known), the pushes (when any) and each channel's digest (names in sorted order, when any).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channels, forKey: .channels)
        var nested = container.nestedContainer(keyedBy: NameKey.self, forKey: .features)
        for name in features.keys.sorted() {
            try nested.encode(features[name] ?? false, forKey: NameKey(stringValue: name))
        }
        try container.encodeIfPresent(contract, forKey: .contract)
        if !pushes.isEmpty { try container.encode(pushes, forKey: .pushes) }
        let digests = contracts
        if !digests.isEmpty {
            var nested = container.nestedContainer(keyedBy: NameKey.self, forKey: .contracts)
            for name in digests.keys.sorted() {
                try nested.encode(digests[name] ?? "", forKey: NameKey(stringValue: name))
            }
        }
    }
}
