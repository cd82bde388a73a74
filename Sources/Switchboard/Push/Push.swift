/// A message the app sends to the page on a named push channel: the third kind of channel,
/// beside events and requests (which the page sends).
///
/// ```swift
/// struct LoyaltyPointsChanged: Push, Codable {
///     static let channel: Channel = "loyaltyPointsChanged"
///     let points: Int
/// }
/// router.declare(push: LoyaltyPointsChanged.self)   // in the contract, the manifest and the page client
/// router.push(LoyaltyPointsChanged(points: 120))    // to every page the bridge serves
/// ```
/// The body is encoded by the router's encoder (``BodyEncoder``'s rules) and reaches the page
/// as a JSON value, never as script text. Declare the type `Codable` (or
/// ``ContractDescribable``) so that its schema can be derived for the contract.
public protocol Push: Encodable, Sendable {
    /// The channel the push is sent on.
    static var channel: Channel { get }
}

/// One push on its way to the page: its channel and its body, encoded when a receiver asks.
public struct PushMessage: Sendable, CustomStringConvertible {
    /// The push channel.
    public let channel: Channel
    /// The body, as the app gave it.
    public let body: ReplyValue

    /// Creates a push message.
    package init(channel: Channel, body: ReplyValue) {
        self.channel = channel
        self.body = body
    }

    /// `channel body-JSON`.
    public var description: String { "\(channel) \(body)" }
}
