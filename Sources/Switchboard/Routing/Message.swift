/// A message on a channel: what middleware sees and may rewrite.
public struct Message: Sendable {
    /// The channel the message is on.
    public var channel: Channel {
        get { parts.channel }
        set { parts = Parts(channel: newValue, body: parts.body, id: parts.id, sender: parts.sender) }
    }

    /// The loosely typed body.
    public var body: MessageBody {
        get { parts.body }
        set { parts = Parts(channel: parts.channel, body: newValue, id: parts.id, sender: parts.sender) }
    }

    /// The caller's correlation id, if it gave one (the CLI's `"id"`); never interpreted.
    public var id: String? {
        get { parts.id }
        set { parts = Parts(channel: parts.channel, body: parts.body, id: newValue, sender: parts.sender) }
    }

    /// Who sent the message: its origin and frame, ``MessageSender/unknown`` when the
    /// source did not say. The router checks it against the channel's ``OriginPolicy``
    /// before middleware runs; a middleware that changes it changes only what later
    /// middleware and handlers see (the check has been made).
    public var sender: MessageSender {
        get { parts.sender }
        set { parts = Parts(channel: parts.channel, body: parts.body, id: parts.id, sender: newValue) }
    }

    /// The fields, in one immutable object: a message is copied at every hand-over
    /// (into a context, through middleware), and one reference copies as a single
    /// retain, where three fields (one an optional string, one an enum) would go
    /// through runtime value-witness calls. A setter makes a new object.
    private var parts: Parts

    private final class Parts: Sendable {
        let channel: Channel
        let body: MessageBody
        let id: String?
        let sender: MessageSender

        init(channel: Channel, body: MessageBody, id: String?, sender: MessageSender) {
            self.channel = channel
            self.body = body
            self.id = id
            self.sender = sender
        }
    }

    /// Creates a message.
    /// - Parameters:
    ///   - channel: the channel.
    ///   - body: the body.
    ///   - id: the caller's correlation id.
    ///   - sender: who sent it; unknown by default.
    public init(channel: Channel, body: MessageBody = .absent, id: String? = nil, sender: MessageSender = .unknown) {
        parts = Parts(channel: channel, body: body, id: id, sender: sender)
    }

    /// Creates a message with a Foundation body.
    public init(channel: Channel, body: Any?, id: String? = nil, sender: MessageSender = .unknown) {
        self.init(channel: channel, body: MessageBody(body), id: id, sender: sender)
    }

    /// The body decoded as `type`, when the message is on that event's channel and the body decodes.
    ///
    /// Middleware matches on typed events with this:
    /// ```swift
    /// if let update = message.event(as: WishlistEntryUpdate.self), update.isWishlisted { … }
    /// ```
    public func event<E: Event>(as type: E.Type, options: DecodingOptions = DecodingOptions()) -> E? {
        guard channel == E.channel else { return nil }
        return try? body.decode(E.self, options: options)
    }
}

/// What a handler receives beside its typed event: the channel and the raw body,
/// to decode extra payloads the event type does not declare.
public struct MessageContext: Sendable {
    /// The message as it reached the handler (after middleware).
    public let message: Message
    /// The decoding options of the router.
    public let options: DecodingOptions

    /// The channel.
    public var channel: Channel { message.channel }
    /// The raw body.
    public var body: MessageBody { message.body }

    /// Decodes an extra payload under `key` of the body, such as Poq's `customData`.
    /// - Returns: the payload; `nil` when `T` is optional and the key is missing or `null`.
    public func decode<T: Decodable>(_ type: T.Type = T.self, at key: String) throws(BodyDecodingError) -> T {
        try message.body.decode(type, at: key, options: options)
    }
}

extension Message: CustomStringConvertible, CustomReflectable {
    /// The channel, the body and the id, for logs and test failures:
    /// `Message(channel: addCartLine, body: {"quantity":1}, id: "a-1")`.
    public var description: String {
        "Message(channel: \(channel), body: \(body), id: \(id.map { "\"\($0)\"" } ?? "nil"))"
    }

    /// The three fields, as `dump` and debuggers show a plain struct (the storage object is an implementation detail).
    public var customMirror: Mirror {
        Mirror(self, children: ["channel": channel, "body": body, "id": id as Any], displayStyle: .struct)
    }
}
