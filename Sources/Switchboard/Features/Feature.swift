/// A capability of the web side that works only when every channel it needs has
/// a handler, such as LoyaltyLion's free product rewards (`addCartLine` and `removeCartLine`).
///
/// ```swift
/// let rewards = Feature("freeProductRewards", needs: AddCartLine.channel, RemoveCartLine.channel)
/// router.declare(rewards)
/// router.isEnabled(rewards)   // true once both channels have handlers
/// ```
public struct Feature: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The feature's name, as it appears in the manifest.
    public let name: String
    /// The channels it needs, sorted by name.
    public let channels: [Channel]

    /// Creates a feature.
    /// - Parameters:
    ///   - name: the name the web side knows it by.
    ///   - channels: every channel that must have a handler for the feature to be enabled.
    public init(_ name: String, needs channels: [Channel]) {
        self.name = name
        self.channels = Array(Set(channels)).sorted()
    }

    /// Creates a feature from a list of channels.
    public init(_ name: String, needs channels: Channel...) {
        self.init(name, needs: channels)
    }

    /// `name(channel, …)`.
    public var description: String { "\(name)(\(channels.map(\.name).joined(separator: ", ")))" }
}

/// What is live on a router: the channels that have a handler or responder, and
/// whether each declared feature is enabled. Encodes channels and feature names
/// in sorted order, so ``BodyEncoder`` (which keeps encode order) writes the same
/// text every time (`JSONEncoder` reorders object keys unless its
/// `outputFormatting` contains `.sortedKeys`):
/// ```json
/// {"channels": ["addCartLine", "removeCartLine"], "features": {"freeProductRewards": true}}
/// ```
public struct Manifest: Hashable, Sendable, Codable {
    /// Channels with at least one handler or a responder, sorted.
    public let channels: [Channel]
    /// Each declared feature's state.
    public let features: [String: Bool]

    /// Creates a manifest.
    public init(channels: [Channel], features: [String: Bool]) {
        self.channels = channels.sorted()
        self.features = features
    }

    private enum CodingKeys: String, CodingKey { case channels, features }

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
            features: try container.decode([String: Bool].self, forKey: .features)
        )
    }

    /// Encodes channels, then features with names in sorted order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(channels, forKey: .channels)
        var nested = container.nestedContainer(keyedBy: NameKey.self, forKey: .features)
        for name in features.keys.sorted() {
            try nested.encode(features[name] ?? false, forKey: NameKey(stringValue: name))
        }
    }
}
