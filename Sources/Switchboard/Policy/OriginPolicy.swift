/// Who may call a channel: the origins admitted and whether sub-frames may call.
///
/// A web view runs the shop's page, and with it CDN scripts, ads, iframes and whatever a
/// redirect brings in; every script in every frame can post to every registered handler.
/// A policy names who may:
/// ```swift
/// let policy = try OriginPolicy(allowing: ["https://shop.example.com", "https://*.shop.example.com"])
/// let router = Router(options: RouterOptions(originPolicy: policy))        // every channel
/// router.setOriginPolicy(try OriginPolicy(allowing: ["https://widget.example.net"], allowsSubframes: true),
///                        for: "wishlistEntryUpdate")                        // this channel instead
/// ```
///
/// ## Where it applies
/// The router has a default policy (``RouterOptions/originPolicy`` at creation,
/// ``Router/setDefaultOriginPolicy(_:)`` later), and each channel may have its own
/// (``Router/setOriginPolicy(_:for:)``), which replaces the default for that channel
/// (it does not add to it). With neither, every message is admitted.
///
/// ## What it admits
/// ``MessageSender/app`` (the app's own requests) is always admitted. Otherwise a message is admitted when its sender's origin is known, valid and matched by one of
/// ``allowed`` (see ``OriginPattern``: parsed, normalised origins, never text prefixes),
/// and its frame is known and is the main frame — or ``allowsSubframes`` is set. It fails
/// closed: an unknown origin, an origin text that does not parse and an unknown frame are
/// refused, with ``allowsSubframes`` or without (a policy that admits sub-frames still
/// wants to know the frame). A policy with no patterns admits nobody.
///
/// ## What a refusal does
/// The check runs after the channel name is validated and before middleware, buffering,
/// decoding and handler lookup: a refused message is ``Outcome/rejected(_:)``, reported as
/// ``Diagnostic/rejected(_:)``, answered (for a request) with
/// ``RequestFailure/rejected(_:_:)``; middleware never sees it, it is never kept for a
/// later handler, and it changes no state.
public struct OriginPolicy: Hashable, Sendable, CustomStringConvertible {
    /// The origins admitted.
    public var allowed: [OriginPattern]
    /// Whether messages from sub-frames are admitted (from an admitted origin); main-frame only when `false`.
    public var allowsSubframes: Bool

    /// Creates a policy from patterns.
    public init(allowed: [OriginPattern], allowsSubframes: Bool = false) {
        self.allowed = allowed
        self.allowsSubframes = allowsSubframes
    }

    /// Creates a policy from pattern texts (`https://shop.example.com`, `https://*.example.com`).
    /// - Throws: ``OriginError`` for the first text that is not an origin or a wildcard pattern.
    public init(allowing patterns: [String], allowsSubframes: Bool = false) throws(OriginError) {
        var allowed: [OriginPattern] = []
        for text in patterns { allowed.append(try OriginPattern(parsing: text)) }
        self.init(allowed: allowed, allowsSubframes: allowsSubframes)
    }

    /// Why `sender` may not call `channel` under this policy, or `nil` when it may.
    public func rejection(of sender: MessageSender, on channel: Channel) -> PolicyRejection? {
        // The app's own requests pass every policy (no page can send as the app).
        if sender.isApp { return nil }
        guard let origin = sender.origin else {
            let reason: PolicyRejection.Reason =
                sender.claimedOrigin.map { .invalidOrigin($0) } ?? .unknownOrigin
            return PolicyRejection(channel: channel, sender: sender, reason: reason, policy: self)
        }
        guard allowed.contains(where: { $0.matches(origin) }) else {
            return PolicyRejection(channel: channel, sender: sender, reason: .originNotAllowed, policy: self)
        }
        switch sender.isMainFrame {
        case nil: return PolicyRejection(channel: channel, sender: sender, reason: .unknownFrame, policy: self)
        case false? where !allowsSubframes:
            return PolicyRejection(channel: channel, sender: sender, reason: .subframe, policy: self)
        default: return nil
        }
    }

    /// Whether `sender` may call a channel under this policy.
    public func admits(_ sender: MessageSender) -> Bool {
        rejection(of: sender, on: Channel(uncheckedName: "_")) == nil
    }

    /// `https://shop.example.com, https://*.example.com (main frame only)`.
    public var description: String {
        let origins = allowed.isEmpty ? "no origin" : allowed.map(\.description).joined(separator: ", ")
        return origins + (allowsSubframes ? " (sub-frames too)" : " (main frame only)")
    }
}
