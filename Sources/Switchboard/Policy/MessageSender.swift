/// Who sent a message: its origin and whether it came from the page's main frame,
/// each unknown (`nil`) when the source did not say.
///
/// The WebKit adapter fills both from `WKScriptMessage.frameInfo` (`securityOrigin`,
/// `isMainFrame`); the wire format from a message's `"origin"` and `"mainFrame"`; other
/// sources pass one to ``Router/receive(name:body:id:sender:isolation:replyHandler:)-(String,Any?,_,_,_,_)``. A message
/// without a sender has ``unknown``: harmless while no ``OriginPolicy`` applies to its
/// channel, refused once one does (fail closed).
///
/// An origin text that does not parse (`"null"`, `"https://shop.com@evil.com"`) is kept
/// in ``claimedOrigin`` with ``origin`` `nil`: it is treated as unknown, and the
/// rejection says what was claimed and why it is not an origin.
///
/// ``app`` is the app itself (`Router.request`, `StrictHarness.request`): every policy
/// admits it. No page can be it: the WebKit bridge and the wire format make senders from
/// what the page's frame and the message say, never ``app``.
public struct MessageSender: Hashable, Sendable, CustomStringConvertible {
    /// The fields, in one immutable object, absent when nothing is known: every message
    /// carries a sender, and an unknown one (the common case without a policy) then costs
    /// a message nothing to copy or release. A setter makes a new object.
    private final class Storage: Sendable {
        let origin: Origin?
        let isMainFrame: Bool?
        let claimedOrigin: String?
        let invalidOriginReason: String?
        /// Whether this is ``MessageSender/app``.
        let isApp: Bool

        init(
            origin: Origin?, isMainFrame: Bool?, claimedOrigin: String?, invalidOriginReason: String?,
            isApp: Bool = false
        ) {
            self.origin = origin
            self.isMainFrame = isMainFrame
            self.claimedOrigin = claimedOrigin
            self.invalidOriginReason = invalidOriginReason
            self.isApp = isApp
        }
    }

    /// How much of a claimed origin text is kept for display.
    static let claimedOriginDisplayLimit = 200

    private var storage: Storage?

    /// The sender's origin, when known and valid.
    public var origin: Origin? {
        get { storage?.origin }
        set { set(origin: newValue, isMainFrame: isMainFrame, claimedOrigin: claimedOrigin) }
    }

    /// Whether the message came from the main frame; `nil` when unknown.
    public var isMainFrame: Bool? {
        get { storage?.isMainFrame }
        set { set(origin: origin, isMainFrame: newValue, claimedOrigin: claimedOrigin) }
    }

    /// The origin text the source gave when it did not parse as an ``Origin`` (`nil` otherwise),
    /// cut to its first 200 Unicode scalars for display.
    ///
    /// Setting it parses the whole text given, for ``invalidOriginReason``, before cutting it.
    public var claimedOrigin: String? {
        get { storage?.claimedOrigin }
        set {
            set(
                origin: origin, isMainFrame: isMainFrame, claimedOrigin: newValue,
                reason: newValue.map(MessageSender.whyNotAnOrigin))
        }
    }

    /// Why ``claimedOrigin`` is not an origin, found by parsing the whole text the source
    /// gave (not the cut ``claimedOrigin``): a long hostile text is judged by all of it.
    /// `nil` when there is no claimed origin.
    public var invalidOriginReason: String? { storage?.invalidOriginReason }

    private mutating func set(origin: Origin?, isMainFrame: Bool?, claimedOrigin: String?, reason: String?) {
        storage =
            origin == nil && isMainFrame == nil && claimedOrigin == nil
            ? nil
            : Storage(
                origin: origin, isMainFrame: isMainFrame,
                claimedOrigin: claimedOrigin.map { OriginSyntax.cut($0, to: MessageSender.claimedOriginDisplayLimit) },
                invalidOriginReason: claimedOrigin == nil ? nil : reason)
    }

    private mutating func set(origin: Origin?, isMainFrame: Bool?, claimedOrigin: String?) {
        set(
            origin: origin, isMainFrame: isMainFrame, claimedOrigin: claimedOrigin,
            reason: claimedOrigin == nil ? nil : invalidOriginReason)
    }

    /// Why the whole of `text` does not parse as an origin.
    static func whyNotAnOrigin(_ text: String) -> String {
        do {
            _ = try Origin(parsing: text)
            return "it parses as an origin, but the source gave it as invalid"
        } catch {
            return error.reason
        }
    }

    /// A sender whose origin text `claimed` did not parse, for `reason` (from the whole text).
    init(claimedOrigin claimed: String, reason: String, isMainFrame: Bool?) {
        set(origin: nil, isMainFrame: isMainFrame, claimedOrigin: claimed, reason: reason)
    }

    /// Nothing known: no origin, no frame.
    public static let unknown = MessageSender()

    /// The app itself, sending its own requests in process (the default sender of
    /// `Router.request` and `StrictHarness.request`): every ``OriginPolicy`` admits it.
    ///
    /// A page's message never has this sender: the WebKit bridge and the wire format build
    /// senders from the frame's origin and the message's fields, which cannot produce it.
    /// Setting a field of it (``origin``, ``isMainFrame``, ``claimedOrigin``) makes a page's
    /// sender with those fields.
    public static let app: MessageSender = {
        var sender = MessageSender()
        sender.storage = Storage(
            origin: nil, isMainFrame: nil, claimedOrigin: nil, invalidOriginReason: nil, isApp: true)
        return sender
    }()

    /// Whether this is ``app``, the app itself.
    public var isApp: Bool { storage?.isApp ?? false }

    /// Creates a sender.
    /// - Parameters:
    ///   - origin: the origin, `nil` when unknown.
    ///   - isMainFrame: whether the main frame sent it, `nil` when unknown.
    public init(origin: Origin? = nil, isMainFrame: Bool? = nil) {
        set(origin: origin, isMainFrame: isMainFrame, claimedOrigin: nil)
    }

    /// Creates a sender from an origin's text, as a message carries it. Text that does
    /// not parse leaves ``origin`` unknown and is kept in ``claimedOrigin``.
    /// - Parameters:
    ///   - originText: the serialised origin (`"https://shop.example.com"`), `nil` when not given.
    ///   - isMainFrame: whether the main frame sent it, `nil` when unknown.
    public init(originText: String?, isMainFrame: Bool?) {
        guard let originText else {
            set(origin: nil, isMainFrame: isMainFrame, claimedOrigin: nil)
            return
        }
        do {
            set(origin: try Origin(parsing: originText), isMainFrame: isMainFrame, claimedOrigin: nil)
        } catch {
            // The reason comes from the whole text; only what is displayed is cut.
            set(origin: nil, isMainFrame: isMainFrame, claimedOrigin: originText, reason: error.reason)
        }
    }

    /// Whether nothing is known about the sender.
    public var isUnknown: Bool { storage == nil }

    /// Two senders are equal when both are or are not ``app``, and their origin, frame, claimed
    /// origin and its reason are equal.
    public static func == (lhs: MessageSender, rhs: MessageSender) -> Bool {
        lhs.isApp == rhs.isApp && lhs.origin == rhs.origin && lhs.isMainFrame == rhs.isMainFrame
            && lhs.claimedOrigin == rhs.claimedOrigin && lhs.invalidOriginReason == rhs.invalidOriginReason
    }

    /// Hashes whether it is ``app``, the origin, frame, claimed origin and its reason.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(isApp)
        hasher.combine(origin)
        hasher.combine(isMainFrame)
        hasher.combine(claimedOrigin)
        hasher.combine(invalidOriginReason)
    }

    /// `https://shop.example.com, main frame`, `unknown origin, sub-frame`, `the app`, ….
    public var description: String {
        if isApp { return "the app" }
        let origin =
            self.origin?.serialized ?? claimedOrigin.map { "invalid origin \(String(reflecting: $0))" }
            ?? "unknown origin"
        let frame = isMainFrame.map { $0 ? "main frame" : "sub-frame" } ?? "unknown frame"
        return "\(origin), \(frame)"
    }
}
