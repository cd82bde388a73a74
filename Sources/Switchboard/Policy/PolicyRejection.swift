/// Why an ``OriginPolicy`` refused a message: the channel, the sender, the rule it broke.
///
/// Its ``message`` names all three, e.g.
/// `addCartLine: rejected: origin https://ads.example.net is not allowed (allowed: https://shop.example.com, main frame only)`.
public struct PolicyRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// The rule a message broke.
    public enum Reason: Hashable, Sendable {
        /// The sender's origin is unknown.
        case unknownOrigin
        /// The sender claimed this origin text, which is not a valid origin.
        case invalidOrigin(String)
        /// The sender's origin is not matched by any of the policy's patterns.
        case originNotAllowed
        /// Whether the sender is the main frame is unknown.
        case unknownFrame
        /// The sender is a sub-frame and the policy admits the main frame only.
        case subframe
    }

    /// The channel the message was sent on.
    public let channel: Channel
    /// Who sent it.
    public let sender: MessageSender
    /// The rule it broke.
    public let reason: Reason
    /// The policy that refused it.
    public let policy: OriginPolicy

    /// Creates a rejection.
    package init(channel: Channel, sender: MessageSender, reason: Reason, policy: OriginPolicy) {
        self.channel = channel
        self.sender = sender
        self.reason = reason
        self.policy = policy
    }

    /// What was refused and why, without the channel: `origin https://x is not allowed (allowed: …)`.
    public var reasonText: String {
        let origin = sender.origin?.serialized ?? "unknown"
        switch reason {
        case .unknownOrigin:
            return "the sender's origin is unknown and the channel's policy admits only \(policy)"
        case .invalidOrigin(let text):
            // Judged by the whole text the source gave, which `text` may show only the start of.
            let why = sender.invalidOriginReason ?? MessageSender.whyNotAnOrigin(text)
            return
                "origin \(String(reflecting: text)) is not a valid origin (\(why)); the channel's policy admits only \(policy)"
        case .originNotAllowed:
            return "origin \(origin) is not allowed (allowed: \(policy))"
        case .unknownFrame:
            return
                "origin \(origin) did not say whether it is the main frame, and the policy admits only a known frame (\(policy))"
        case .subframe:
            return "origin \(origin) sent it from a sub-frame, and the policy admits the main frame only (\(policy))"
        }
    }

    /// `channel: rejected: <reason>`.
    public var message: String { "\(channel): rejected: \(reasonText)" }

    /// Same as ``message``.
    public var description: String { message }
}
