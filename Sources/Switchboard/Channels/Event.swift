/// A typed message that arrives on a named channel.
///
/// Conform a `Decodable` type and name its channel; the router decodes the
/// loosely typed body straight into it (see ``BodyDecoder`` for the rules).
///
/// ```swift
/// struct AddCartLine: Event {
///     static let channel: Channel = "addCartLine"
///     let merchandiseId: String
///     let productId: String
///     let quantity: Int
///     let attributes: [String: JSONValue]
/// }
/// ```
public protocol Event: Decodable, Sendable {
    /// The channel this event arrives on.
    static var channel: Channel { get }
}

/// An event that carries no body, such as LoyaltyLion's `sdkReady`.
///
/// Declaring one takes a channel and nothing else; any body the sender
/// attaches is ignored: the router makes the event with ``init()`` without
/// running a decoder (so a custom `init(from:)` is not called by the router).
///
/// ```swift
/// struct SDKReady: BodylessEvent { static let channel: Channel = "sdkReady" }
/// ```
public protocol BodylessEvent: Event {
    /// Creates the event.
    init()
}

extension BodylessEvent {
    /// Ignores the body and creates the event with ``init()``.
    public init(from decoder: any Decoder) throws {
        self.init()
    }
}

/// An event that expects exactly one reply, such as InAppStory's `productCartUpdate`.
///
/// A request channel has at most one responder; the responder answers through a
/// single-use ``Reply`` handle (see
/// ``Router/respond(to:deadline:fallback:_:)-(_,_,_,(R,Reply<R.Reply>)->Void)``).
public protocol Request: Event {
    /// The type of the reply, encoded back to the sender as JSON.
    associatedtype Reply: Encodable & Sendable
}

/// A reply type for requests that answer with no value (encoded as JSON `null`).
public struct NoReply: Codable, Hashable, Sendable {
    /// Creates the empty reply.
    public init() {}

    /// Decodes from anything, ignoring it.
    public init(from decoder: any Decoder) throws {}

    /// Encodes as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}
