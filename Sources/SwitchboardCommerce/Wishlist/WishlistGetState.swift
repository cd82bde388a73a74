import Switchboard

/// `wishlistGetState`: the widget asks which entries are on the wishlist.
/// No body; the reply is the ``WishlistState``.
public struct WishlistGetState: Request, BodylessEvent, Hashable, Encodable {
    /// The reply: the wishlist's entries.
    public typealias Reply = WishlistState

    /// `wishlistGetState`.
    public static let channel: Channel = "wishlistGetState"

    /// Creates the request.
    public init() {}

    /// Encodes as an empty object.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: NoKeys.self)
    }
}
