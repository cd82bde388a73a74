import Switchboard

/// What went wrong with a message: the `"error"` object of an outcome line,
/// `{"kind", "channel", "path", "message", "data"}` (an `ErrorEnvelope` with the key path of a
/// body that did not decode): `kind` always, `channel` when the message named a valid channel,
/// `path` for `invalid` bodies, `data` when a responder failed with a typed, `Encodable` error.
public struct WireError: Sendable, Hashable {
    /// What kind of failure it is (`ErrorKind`).
    public var kind: ErrorKind
    /// The channel's name, when the message named a valid channel.
    public var channel: String?
    /// The key path of a decoding problem, e.g. `body.offer.quantity`.
    public var path: String?
    /// What went wrong.
    public var message: String
    /// A responder's typed error, encoded.
    public var data: JSONValue?

    /// Creates an error.
    package init(
        kind: ErrorKind, channel: String? = nil, path: String? = nil, message: String, data: JSONValue? = nil
    ) {
        self.kind = kind
        self.channel = channel
        self.path = path
        self.message = message
        self.data = data
    }

    /// Writes the error as the JSON object of a line's `"error"` key: `kind`, then `channel`,
    /// `path`, `message` and `data` (those present), in that order.
    func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(plain: "kind")
        writer.write(plain: kind.literal)
        if let channel {
            writer.key(plain: "channel")
            writer.write(channel)
        }
        if let path {
            writer.key(plain: "path")
            writer.write(path)
        }
        writer.key(plain: "message")
        writer.write(message)
        if let data {
            writer.key(plain: "data")
            writer.write(data)
        }
        writer.endObject()
    }

    /// The error as the envelope the page gets over WebKit (no `path`: the message names it).
    public var envelope: ErrorEnvelope {
        ErrorEnvelope(kind: kind, channel: channel, message: message, data: data)
    }
}

/// One output line of the wire format:
/// ```json
/// {"line":3,"source":"Fixtures/mixed/session.ndjson","id":"r1","name":"productCartUpdate","outcome":"replied","reply":{…}}
/// ```
/// Keys are written in this order: `line`, `source` (when reading files), `id`
/// (when given; a string id as a string, a number id as its number text),
/// `name` (when it was a string), `outcome`, then `reply` or `error` (or, for a `hello`, `differing`).
public struct WireOutcome: Sendable, Hashable {
    /// The 1-based physical line of the message (the element's 1-based index in a `.json` array).
    public var line: Int
    /// The input path, when reading files.
    public var source: String?
    /// The message's id, when it gave one.
    public var id: WireID?
    /// The message's name, when it was a string.
    public var name: String?
    /// What happened.
    public var kind: Outcome.Kind
    /// The reply's JSON text, for `replied`: one JSON value, which ``write(to:)`` copies verbatim
    /// (the session's own outcomes hold what `BodyEncoder` wrote, always valid JSON).
    public var replyJSON: [UInt8]?
    /// The error, for `failed`, `invalid`, `malformed` and `rejected`.
    public var error: WireError?
    /// For a `hello`: the channels whose contract differs from the page's, sorted.
    public var differing: [String]?

    /// Creates an outcome.
    package init(
        line: Int, source: String? = nil, id: WireID? = nil, name: String? = nil, kind: Outcome.Kind,
        replyJSON: [UInt8]? = nil, error: WireError? = nil, differing: [String]? = nil
    ) {
        self.line = line
        self.source = source
        self.id = id
        self.name = name
        self.kind = kind
        self.replyJSON = replyJSON
        self.error = error
        self.differing = differing
    }

    /// The reply, parsed, for `replied`.
    public var reply: JSONValue? {
        guard let replyJSON else { return nil }
        return try? JSONReader().read(replyJSON)
    }

    /// Writes the outcome as one JSON object and a newline.
    public func write(to writer: inout JSONWriter) {
        // Keys and the outcome are plain literals: copied without scanning them for escapes.
        writer.beginObject()
        writer.key(plain: "line")
        writer.write(line)
        if let source {
            writer.key(plain: "source")
            writer.write(source)
        }
        switch id {
        case .string(let string)?:
            writer.key(plain: "id")
            writer.write(string)
        case .number(let number)?:
            writer.key(plain: "id")
            writer.write(number)
        case nil:
            break
        }
        if let name {
            writer.key(plain: "name")
            writer.write(name)
        }
        writer.key(plain: "outcome")
        writer.write(plain: kind.literal)
        if let replyJSON {
            writer.key(plain: "reply")
            writer.writeRaw(replyJSON)
        }
        if let error {
            writer.key(plain: "error")
            error.write(to: &writer)
        }
        if let differing {
            writer.key(plain: "differing")
            writer.beginArray()
            for name in differing { writer.write(name) }
            writer.endArray()
        }
        writer.endObject()
        writer.writeNewline()
    }

    /// The outcome as one line of JSON text, with its newline.
    public var jsonLine: String {
        var writer = JSONWriter()
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

extension ErrorKind {
    /// The raw value as a literal (written without a scan for escapes).
    var literal: StaticString {
        switch self {
        case .unavailable: return "unavailable"
        case .rejected: return "rejected"
        case .noResponder: return "noResponder"
        case .timedOut: return "timedOut"
        case .dropped: return "dropped"
        case .invalid: return "invalid"
        case .failed: return "failed"
        case .unhandled: return "unhandled"
        }
    }
}
