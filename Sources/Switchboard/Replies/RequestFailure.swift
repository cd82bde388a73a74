/// Why a request did not get a reply. Each case is distinct, so a caller can
/// tell "nobody listens" from "nobody answered in time".
public enum RequestFailure: Error, Sendable, CustomStringConvertible {
    /// The channel name is not a valid ``Channel`` name.
    case invalidChannel(name: String, ChannelNameError)
    /// No responder (and no handler) is registered for the channel.
    case noResponder(Channel)
    /// The body did not decode as the channel's request type.
    // `indirect` for a fixed layout (see `Outcome.invalid`).
    indirect case invalidBody(Channel, BodyDecodingError)
    /// The responder replied with an error, or threw; the error's message and, when the error
    /// is `Encodable` (a typed error the page can act on), its encoding as `data`.
    case responderFailed(Channel, message: String, data: JSONValue? = nil)
    /// The responder released its ``Reply`` handle without replying.
    case dropped(Channel)
    /// The deadline passed before a reply and the channel has no fallback.
    case timedOut(Channel, after: Duration)
    /// A middleware stopped the request with an outcome that is not a reply.
    case stopped(Channel, Outcome)
    /// The reply could not be encoded for the caller.
    case unencodableReply(Channel, BodyEncodingError)
    /// A typed in-process request could not be encoded to a body.
    case unencodableRequest(Channel, BodyEncodingError)
    /// A reply of another type than the request's `Reply` (a middleware's ``Outcome/replied(_:)``,
    /// say) did not decode as that type with the router's ``RouterOptions/decoding`` options
    /// (``Router/request(_:sender:isolation:)``). The error's key path starts at `reply`
    /// (`reply.lines[2].quantity`).
    // `indirect` for a fixed, small layout (see `Outcome.invalid`).
    indirect case undecodableReply(Channel, BodyDecodingError)
    /// The channel's ``OriginPolicy`` refused the sender (origin or frame); nothing ran.
    /// Its ``message`` reads `<channel>: rejected: …`, unlike `no responder is registered`.
    // `indirect` for a fixed, small layout (see `Outcome.invalid`).
    indirect case rejected(Channel, PolicyRejection)

    /// The channel the request was sent on, when its name was valid.
    public var channel: Channel? {
        switch self {
        case .invalidChannel: return nil
        case .noResponder(let channel), .invalidBody(let channel, _), .responderFailed(let channel, _, _),
            .dropped(let channel), .timedOut(let channel, _), .stopped(let channel, _),
            .unencodableReply(let channel, _), .unencodableRequest(let channel, _), .rejected(let channel, _),
            .undecodableReply(let channel, _):
            return channel
        }
    }

    /// The kind the page and the wire format give this failure (``ErrorEnvelope/kind``):
    /// `noResponder`, `timedOut`, `dropped` and `rejected` as themselves; a body, name or typed
    /// request that did not decode or encode is `invalid`; a responder's error, a reply that could
    /// not be encoded or decoded and a middleware's stop are `failed` (a stop with a rejection is
    /// `rejected`). To tell the cases apart further, match the failure itself
    /// (`case .responderFailed(_, let message, let data)`).
    public var kind: ErrorKind {
        switch self {
        case .invalidChannel, .invalidBody, .unencodableRequest: return .invalid
        case .noResponder: return .noResponder
        case .responderFailed, .unencodableReply, .undecodableReply: return .failed
        case .dropped: return .dropped
        case .timedOut: return .timedOut
        case .rejected: return .rejected
        case .stopped(_, let outcome):
            if case .rejected = outcome { return .rejected }
            return .failed
        }
    }

    /// The case's name (`noResponder`, `invalidBody`, `responderFailed`, …), for messages that
    /// name the case (the wire format's `failed` lines, the test harness's reports).
    package var caseName: String {
        switch self {
        case .invalidChannel: return "invalidChannel"
        case .noResponder: return "noResponder"
        case .invalidBody: return "invalidBody"
        case .responderFailed: return "responderFailed"
        case .dropped: return "dropped"
        case .timedOut: return "timedOut"
        case .stopped: return "stopped"
        case .unencodableReply: return "unencodableReply"
        case .unencodableRequest: return "unencodableRequest"
        case .undecodableReply: return "undecodableReply"
        case .rejected: return "rejected"
        }
    }

    /// The responder's typed error, encoded, when it failed with an `Encodable` error.
    public var data: JSONValue? {
        if case .responderFailed(_, _, let data) = self { return data }
        return nil
    }

    /// The name as received, for ``invalidChannel(name:_:)`` (no ``channel`` then).
    var invalidName: String? {
        if case .invalidChannel(let name, _) = self { return String(name.prefix(Channel.maxLength)) }
        return nil
    }

    /// A sentence that names the channel and what went wrong.
    public var message: String {
        guard let channel else { return reason }
        return "\(channel): \(reason)"
    }

    /// What went wrong, without the channel name (for `invalidChannel`, the name and the problem).
    public var reason: String {
        switch self {
        case .invalidChannel(let name, let problem):
            return "invalid channel name \(String(reflecting: String(name.prefix(64)))): \(problem)"
        case .noResponder:
            return "no responder is registered"
        case .invalidBody(_, let error):
            return "\(error)"
        case .responderFailed(_, let message, _):
            return message
        case .dropped:
            return "the responder released its reply handle without replying"
        case .timedOut(_, let after):
            return "no reply within \(after)"
        case .stopped(_, let outcome):
            return "stopped by middleware (\(outcome))"
        case .unencodableReply(_, let error):
            return "the reply could not be encoded: \(error)"
        case .unencodableRequest(_, let error):
            return "the request could not be encoded: \(error)"
        case .undecodableReply(_, let error):
            let path = CodingPathRendering.render(error.codingPath, root: "reply")
            return "the reply does not decode as the request's reply type: \(path): \(error.message)"
        case .rejected(_, let rejection):
            return "rejected: \(rejection.reasonText)"
        }
    }

    /// Same as ``message``.
    public var description: String { message }
}
