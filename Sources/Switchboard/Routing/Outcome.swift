/// What happened to one message: the value ``Router/receive(name:body:id:sender:isolation:replyHandler:)-(String,Any?,_,_,_,_)`` returns.
public enum Outcome: Sendable, CustomStringConvertible {
    /// Delivered to `count` handlers, none of which threw.
    case handled(count: Int)
    /// A request answered before `receive` returned, with its reply.
    case replied(ReplyValue)
    /// A request delivered to its responder, whose reply is still to come.
    case awaitingReply
    /// No handler on the channel; the message was dropped and reported.
    case unhandled
    /// No handler on the channel yet; the message was kept by the channel's ``BufferPolicy``.
    case kept
    /// The body did not decode as the channel's event type; no handler ran.
    // `indirect`: `BodyDecodingError` holds a `DecodingError`, whose layout the
    // standard library keeps resilient; boxing it gives `Outcome` a fixed layout, so
    // passing an outcome through middleware is plain copies, not runtime calls.
    indirect case invalid(BodyDecodingError)
    /// At least one handler threw (the others still ran), or a responder failed.
    case failed(HandlerFailure)
    /// The channel name is not valid.
    case invalidChannel(ChannelNameError)
    /// A middleware stopped the message; the reason it gave.
    case stopped(reason: String)
    /// The channel's ``OriginPolicy`` refused the sender, before middleware, buffering,
    /// decoding and handler lookup: nothing ran and nothing changed.
    // `indirect` for a fixed, small layout (see `invalid`): an outcome is copied at every middleware.
    indirect case rejected(PolicyRejection)

    /// The kind of outcome (`handled`, `replied`, `unhandled`, …), in the vocabulary the wire
    /// format and fixture replay share.
    public var kind: Kind {
        switch self {
        case .handled: return .handled
        case .replied: return .replied
        case .awaitingReply: return .awaitingReply
        case .unhandled: return .unhandled
        case .kept: return .kept
        case .invalid: return .invalid
        case .failed: return .failed
        case .invalidChannel: return .invalidChannel
        case .stopped: return .stopped
        case .rejected: return .rejected
        }
    }

    /// Whether the message reached a handler or responder that accepted it.
    public var isSuccess: Bool {
        switch self {
        case .handled, .replied, .awaitingReply: return true
        default: return false
        }
    }

    /// A one-line rendering, e.g. `handled by 2` or `invalid: body.quantity: …`.
    public var description: String {
        switch self {
        case .handled(let count): return "handled by \(count)"
        case .replied(let value): return "replied \(value)"
        case .awaitingReply: return "awaiting reply"
        case .unhandled: return "unhandled"
        case .kept: return "kept"
        case .invalid(let error): return "invalid: \(error)"
        case .failed(let failure): return "failed: \(failure.message)"
        case .invalidChannel(let problem): return "invalid channel: \(problem)"
        case .stopped(let reason): return "stopped: \(reason)"
        case .rejected(let rejection): return "rejected: \(rejection.reasonText)"
        }
    }
}

/// The handlers of one message that threw, or the responder that failed.
public struct HandlerFailure: Error, Sendable, CustomStringConvertible {
    /// The channel.
    public let channel: Channel
    /// The messages of the errors thrown, in handler order.
    public let errors: [String]
    /// How many handlers ran without throwing.
    public let succeeded: Int

    /// Creates a failure.
    public init(channel: Channel, errors: [String], succeeded: Int = 0) {
        self.channel = channel
        self.errors = errors
        self.succeeded = succeeded
    }

    /// The errors' messages joined with `; `.
    public var message: String { errors.joined(separator: "; ") }

    /// `channel: message`.
    public var description: String { "\(channel): \(message)" }
}
