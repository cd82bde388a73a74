/// A failure as data, in the one shape every boundary uses:
/// `{"kind": …, "channel": …, "message": …, "data": …}`.
///
/// WebKit's reply handler gets its JSON text as the error string (the page's promise
/// rejects with it; the generated client turns it into a `SwitchboardError`), and the wire
/// format's `"error"` objects carry the same `kind` and `channel` beside `message`:
/// ```json
/// {"kind":"invalid","channel":"addCartLine","message":"addCartLine: body.quantity: expected an integer, found 2.5"}
/// {"kind":"failed","channel":"productCartUpdate","message":"…","data":{"code":"outOfStock","sku":"A-1"}}
/// ```
/// `data` is present when a responder failed with a typed, `Encodable` error (its encoding).
public struct ErrorEnvelope: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of failure it is.
    public var kind: ErrorKind
    /// The channel's name, when the message named a valid one.
    public var channel: String?
    /// A sentence for the person who reads it, naming the channel and, for a body that did
    /// not decode, the key path.
    public var message: String
    /// The responder's typed error, encoded, when it failed with an `Encodable` error.
    public var data: JSONValue?

    /// Creates an envelope.
    public init(kind: ErrorKind, channel: String?, message: String, data: JSONValue? = nil) {
        self.kind = kind
        self.channel = channel
        self.message = message
        self.data = data
    }

    /// The envelope of a failed request or message.
    public init(_ failure: RequestFailure) {
        self.init(
            kind: failure.kind, channel: failure.channel?.name ?? failure.invalidName, message: failure.message,
            data: failure.data)
    }

    /// The envelope as compact JSON text, keys in the order `kind`, `channel`, `message`, `data`
    /// (what WebKit's reply handler gets as its error string).
    public var jsonText: String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(plain: "kind")
        writer.write(kind.rawValue)
        if let channel {
            writer.key(plain: "channel")
            writer.write(channel)
        }
        writer.key(plain: "message")
        writer.write(message)
        if let data {
            writer.key(plain: "data")
            writer.write(data)
        }
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Same as ``jsonText``.
    public var description: String { jsonText }
}
