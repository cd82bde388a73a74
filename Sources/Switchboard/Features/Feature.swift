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
