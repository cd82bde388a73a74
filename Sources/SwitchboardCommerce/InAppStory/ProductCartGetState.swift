import Switchboard

/// InAppStory's `productCartGetState`: the story asks for the cart before it
/// opens. No body; the reply is the whole cart.
public struct ProductCartGetState: Request, BodylessEvent, Hashable, Encodable {
    /// The reply: the cart as it is now.
    public typealias Reply = ProductCart

    /// `productCartGetState`.
    public static let channel: Channel = "productCartGetState"

    /// Creates the request.
    public init() {}

    /// Encodes as an empty object.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: NoKeys.self)
    }
}

/// The keys of an empty object.
enum NoKeys: CodingKey {}
