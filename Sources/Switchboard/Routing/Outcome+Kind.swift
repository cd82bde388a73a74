extension Outcome {
    /// The kind of an outcome: one vocabulary for the router (``Outcome/kind``), the wire
    /// format's `"outcome"` field and its summary, and fixture replay.
    ///
    /// The raw value is the name the wire format writes (`"handled"`, `"replied"`, …). The
    /// first eight kinds are the wire format's, in the order its summary counts them; the
    /// wire format never writes the last four, which the router returns before a message is
    /// settled (``awaitingReply``, ``kept``) or which it reports as another kind
    /// (``stopped`` as `failed`, ``invalidChannel`` as `malformed`).
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Delivered to every handler of the channel; none threw.
        case handled
        /// A request answered with a reply.
        case replied
        /// A handler threw, a responder failed, timed out or dropped its reply, or the reply could not be encoded.
        case failed
        /// The body did not decode as the channel's type.
        case invalid
        /// No handler on the channel.
        case unhandled
        /// Wire format only: the line is not a message (not JSON, not UTF-8, not an object with a
        /// string `name`, too long, or an invalid channel name).
        case malformed
        /// The channel's origin policy refused the sender; nothing ran.
        case rejected
        /// Wire format only: a page's hello was answered (`"differing"` lists the channels whose
        /// contract differs from the page's).
        case hello
        /// A request delivered to its responder, whose reply is still to come.
        case awaitingReply
        /// No handler on the channel yet; the message was kept by the channel's ``BufferPolicy``.
        case kept
        /// A middleware stopped the message.
        case stopped
        /// The channel name is not valid.
        case invalidChannel

        /// Whether the message reached a handler or responder that accepted it (`handled`,
        /// `replied`, `awaitingReply`), or was a page's hello that was answered (`hello`).
        public var isSuccess: Bool {
            switch self {
            case .handled, .replied, .awaitingReply, .hello: return true
            default: return false
            }
        }

        /// The raw value.
        public var description: String { rawValue }

        /// The raw value as a literal (written without a scan for escapes).
        package var literal: StaticString {
            switch self {
            case .handled: return "handled"
            case .replied: return "replied"
            case .failed: return "failed"
            case .invalid: return "invalid"
            case .unhandled: return "unhandled"
            case .malformed: return "malformed"
            case .rejected: return "rejected"
            case .hello: return "hello"
            case .awaitingReply: return "awaitingReply"
            case .kept: return "kept"
            case .stopped: return "stopped"
            case .invalidChannel: return "invalidChannel"
            }
        }

        /// The index of this kind in `allCases`.
        package var position: Int {
            switch self {
            case .handled: return 0
            case .replied: return 1
            case .failed: return 2
            case .invalid: return 3
            case .unhandled: return 4
            case .malformed: return 5
            case .rejected: return 6
            case .hello: return 7
            case .awaitingReply: return 8
            case .kept: return 9
            case .stopped: return 10
            case .invalidChannel: return 11
            }
        }
    }
}
