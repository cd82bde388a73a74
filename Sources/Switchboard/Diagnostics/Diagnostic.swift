/// Something noteworthy that happened to a message, reported to
/// ``Router/observeDiagnostics(_:)`` observers. Nothing is lost silently:
/// every message that is not delivered, and every reply that goes wrong, shows up here.
public enum Diagnostic: Sendable, CustomStringConvertible {
    /// A message arrived on a channel with no handler and was dropped (the channel's policy is ``BufferPolicy/drop``).
    case unhandled(Channel)
    /// A message's channel name is not valid; the message was rejected.
    case invalidChannel(name: String, ChannelNameError)
    /// A message's body did not decode.
    case invalidBody(Channel, BodyDecodingError)
    /// A handler threw (the channel's other handlers still ran).
    case handlerFailed(Channel, message: String)
    /// A responder failed (replied with an error or threw).
    case responderFailed(Channel, message: String)
    /// A message with no handler yet was kept by the channel's policy.
    case kept(Channel, count: Int)
    /// A kept message was discarded: the channel's buffer overflowed.
    case keptOverflow(Channel)
    /// A kept message was discarded: it waited longer than the policy allows.
    case keptExpired(Channel)
    /// Kept messages were delivered to a handler that registered.
    case keptDelivered(Channel, count: Int)
    /// An event sequence's buffer (``Router/events(_:bufferingPolicy:)`` with a bounded policy)
    /// was full: an event was discarded.
    case eventsOverflow(Channel)
    /// A responder replied a second time; the reply was ignored.
    case duplicateReply(Channel)
    /// A responder replied after the deadline; the reply was ignored.
    case lateReply(Channel)
    /// A responder released its reply handle without replying.
    case replyDropped(Channel)
    /// A request's deadline passed; the caller got the fallback reply or a time-out.
    case deadlinePassed(Channel, after: Duration, usedFallback: Bool)
    /// A middleware stopped a message with an outcome of its own.
    case stopped(Channel, by: String, Outcome)
    /// The channel's ``OriginPolicy`` refused a message's sender; nothing ran.
    indirect case rejected(PolicyRejection)
    /// A page stated the digest of a channel's contract it was built against (``Router/checkContracts(_:from:)``,
    /// once per page load) and the app's differs (`app`), or the app has no such channel (`app` is `nil`):
    /// the page and the app disagree on what that channel's messages look like.
    case contractSkew(Channel, page: String, app: String?)

    /// The channel concerned, when the name was valid.
    public var channel: Channel? {
        switch self {
        case .invalidChannel: return nil
        case .unhandled(let c), .invalidBody(let c, _), .handlerFailed(let c, _), .responderFailed(let c, _),
            .kept(let c, _), .keptOverflow(let c), .eventsOverflow(let c), .keptExpired(let c),
            .keptDelivered(let c, _), .duplicateReply(let c), .lateReply(let c), .replyDropped(let c),
            .deadlinePassed(let c, _, _), .stopped(let c, _, _), .contractSkew(let c, _, _):
            return c
        case .rejected(let rejection): return rejection.channel
        }
    }

    /// One line naming the channel and what happened.
    public var description: String {
        switch self {
        case .unhandled(let c): return "\(c): no handler; message dropped"
        case .invalidChannel(let name, let problem):
            return "invalid channel name \(String(reflecting: String(name.prefix(64)))): \(problem)"
        case .invalidBody(let c, let error): return "\(c): \(error)"
        case .handlerFailed(let c, let message): return "\(c): handler failed: \(message)"
        case .responderFailed(let c, let message): return "\(c): responder failed: \(message)"
        case .kept(let c, let count): return "\(c): no handler yet; message kept (\(count) waiting)"
        case .keptOverflow(let c): return "\(c): kept-message limit reached; oldest kept message discarded"
        case .keptExpired(let c): return "\(c): kept message expired before a handler registered"
        case .keptDelivered(let c, let count): return "\(c): delivered \(count) kept message(s)"
        case .eventsOverflow(let c): return "\(c): event sequence buffer full; an event was discarded"
        case .duplicateReply(let c): return "\(c): second reply ignored"
        case .lateReply(let c): return "\(c): reply after the deadline ignored"
        case .replyDropped(let c): return "\(c): reply handle released without a reply"
        case .deadlinePassed(let c, let after, let usedFallback):
            return "\(c): no reply within \(after); " + (usedFallback ? "fallback reply sent" : "caller timed out")
        case .stopped(let c, let name, let outcome): return "\(c): stopped by middleware \(name): \(outcome)"
        case .rejected(let rejection): return rejection.message
        case .contractSkew(let c, let page, let app):
            let theirs = String(reflecting: String(page.prefix(80)))
            guard let app else {
                return "\(c): the page was built against contract \(theirs); the app has no such channel"
            }
            return "\(c): the page was built against contract \(theirs); the app's is \(app)"
        }
    }
}
