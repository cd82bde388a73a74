import Switchboard

/// The `"id"` of a wire message: a string or a number, echoed back exactly as
/// given (a number keeps its JSON text: `7`, `1.50`, `1e3`).
public enum WireID: Sendable, Hashable, CustomStringConvertible {
    /// A string id.
    case string(String)
    /// A number id, with its exact JSON text.
    case number(JSONNumber)

    /// The id as text (what `Message.id` carries).
    public var text: String {
        switch self {
        case .string(let string): return string
        case .number(let number): return number.text
        }
    }

    /// The id as text.
    public var description: String { text }
}

/// One input message of the wire format: `{"name": "<channel>", "body": <any JSON>, "id": <string or number>}`,
/// and who sent it: `"origin"` (a string, the serialized origin) and `"mainFrame"` (a boolean).
///
/// `body`, `id`, `origin` and `mainFrame` are optional; other keys are ignored. An
/// `origin` or `mainFrame` of another type makes the message malformed; an `origin`
/// string that is not a valid origin (`"null"`, a path, userinfo) is not: the sender's
/// origin is then unknown, which a channel with an origin policy refuses. ``parse(_:reader:)``
/// reads one NDJSON line strictly; ``parse(value:)`` takes a parsed object (an
/// element of a `.json` array).
public struct WireMessage: Sendable, Hashable {
    /// The channel.
    public var channel: Channel
    /// The body, `nil` when the message has no `"body"` key (a `null` body is `.null`).
    public var body: JSONValue?
    /// The id, when given.
    public var id: WireID?
    /// Who sent it, from `"origin"` and `"mainFrame"` (`MessageSender.unknown` without them).
    public var sender: MessageSender

    /// Creates a message.
    public init(channel: Channel, body: JSONValue? = nil, id: WireID? = nil, sender: MessageSender = .unknown) {
        self.channel = channel
        self.body = body
        self.id = id
        self.sender = sender
    }

    /// The message as the router takes it.
    public var message: Message {
        Message(channel: channel, body: body.map { MessageBody(json: $0) } ?? .absent, id: id?.text, sender: sender)
    }

    /// Reads one message from the bytes of one line, with the strict `JSONReader`.
    /// - Parameters:
    ///   - bytes: the line, without its newline.
    ///   - reader: the JSON reader (its nesting limit applies).
    /// - Returns: the message, or why the line is malformed (with the `name` and
    ///   `id` when they could be read, to echo them).
    public static func parse(
        _ bytes: UnsafeBufferPointer<UInt8>, reader: JSONReader = JSONReader()
    ) -> Result<WireMessage, WireMalformed> {
        let value: JSONValue
        do {
            value = try reader.read(bytes)
        } catch {
            return .failure(WireMalformed(readError: error))
        }
        return parse(value: value)
    }

    /// Reads one message from a parsed JSON value (an element of a `.json` array).
    /// - Returns: the message, or why the value is not a message.
    public static func parse(value: JSONValue) -> Result<WireMessage, WireMalformed> {
        guard case .object(let members) = value else {
            return .failure(WireMalformed(message: "a message must be a JSON object, found \(value.kindName)"))
        }
        let nameValue = members["name"]
        var name: String?
        if case .string(let string)? = nameValue { name = string }
        var id: WireID?
        var idProblem: String?
        switch members["id"] {
        case nil: break
        case .string(let string)?: id = .string(string)
        case .number(let number)?: id = .number(number)
        case let other?: idProblem = "\"id\" must be a string or a number, found \(other.kindName)"
        }
        guard let name else {
            let problem =
                nameValue.map { "\"name\" must be a string, found \($0.kindName)" }
                ?? "a message needs a \"name\" (the channel)"
            return .failure(WireMalformed(message: problem, id: id))
        }
        let channel: Channel
        do {
            channel = try Channel(validating: name)
        } catch {
            return .failure(WireMalformed(message: "invalid \"name\": \(error)", name: name, id: id))
        }
        if let idProblem {
            return .failure(WireMalformed(message: idProblem, name: name))
        }
        var origin: String?
        switch members["origin"] {
        case nil: break
        case .string(let text)?: origin = text
        case let other?:
            return .failure(WireMalformed(message: WireMessage.originProblem(other.kindName), name: name, id: id))
        }
        var mainFrame: Bool?
        switch members["mainFrame"] {
        case nil: break
        case .bool(let flag)?: mainFrame = flag
        case let other?:
            return .failure(WireMalformed(message: WireMessage.mainFrameProblem(other.kindName), name: name, id: id))
        }
        let sender =
            origin == nil && mainFrame == nil ? .unknown : MessageSender(originText: origin, isMainFrame: mainFrame)
        return .success(WireMessage(channel: channel, body: members["body"], id: id, sender: sender))
    }

    static func originProblem(_ found: String) -> String {
        "\"origin\" must be a string (the serialized origin, e.g. \"https://shop.example.com\"), found \(found)"
    }

    static func mainFrameProblem(_ found: String) -> String {
        "\"mainFrame\" must be a boolean, found \(found)"
    }
}

/// A line (or `.json` element) that is not a message: not JSON, not UTF-8, not
/// an object, no string `name`, an invalid channel name, a bad `id`, too long.
public struct WireMalformed: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, and where when the JSON reader said so.
    public var message: String
    /// The `name`, when it was a string (echoed in the outcome line).
    public var name: String?
    /// The `id`, when it could be read (echoed in the outcome line).
    public var id: WireID?

    /// Creates a malformed-input report.
    package init(message: String, name: String? = nil, id: WireID? = nil) {
        self.message = message
        self.name = name
        self.id = id
    }

    /// A line the strict reader rejected; the message names what and where.
    package init(readError: JSONReadError) {
        if case .invalidUTF8 = readError.kind {
            let text = readError.description
            let prefix = "invalid UTF-8: "
            self.init(
                message: "not valid UTF-8: " + (text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text))
        } else {
            self.init(message: "not valid JSON: \(readError)")
        }
    }

    /// A line longer than the limit.
    package static func oversized(byteCount: Int, limit: Int) -> WireMalformed {
        WireMalformed(message: "line is \(byteCount) bytes long; the limit is \(limit) (--max-line-bytes)")
    }

    /// A `.json` input larger than the document limit.
    package static func documentTooLarge(limit: Int) -> WireMalformed {
        WireMalformed(message: "the document is larger than \(limit) bytes, the limit for a .json input")
    }

    /// A `.json` input that is neither a message object nor an array.
    package static func notAMessageDocument(found value: JSONValue) -> WireMalformed {
        WireMalformed(message: "a .json input must hold a message object or an array of them, found \(value.kindName)")
    }

    /// The message.
    public var description: String { message }
}

extension JSONValue {
    /// `an object`, `a string`, … for error messages.
    package var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension WireMalformed {
    /// The `"error"` of its `malformed` line: kind `invalid`, the channel when the `name` is a valid
    /// channel name, and the message.
    package var wireError: WireError {
        WireError(
            kind: .invalid, channel: name.flatMap { Channel.problem(in: $0) == nil ? $0 : nil }, message: message)
    }
}
