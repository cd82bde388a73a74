/// Who sent a message: its origin and whether it came from the page's main frame,
/// each unknown (`nil`) when the source did not say.
///
/// The WebKit adapter fills both from `WKScriptMessage.frameInfo` (`securityOrigin`,
/// `isMainFrame`); the wire format from a message's `"origin"` and `"mainFrame"`; other
/// sources pass one to ``Router/receive(name:body:id:sender:replyHandler:)``. A message
/// without a sender has ``unknown``: harmless while no ``OriginPolicy`` applies to its
/// channel, refused once one does (fail closed).
///
/// An origin text that does not parse (`"null"`, `"https://shop.com@evil.com"`) is kept
/// in ``claimedOrigin`` with ``origin`` `nil`: it is treated as unknown, and the
/// rejection says what was claimed and why it is not an origin.
public struct MessageSender: Hashable, Sendable, CustomStringConvertible {
    /// The sender's origin, when known and valid.
    public var origin: Origin?
    /// Whether the message came from the main frame; `nil` when unknown.
    public var isMainFrame: Bool?
    /// The origin text the source gave when it did not parse as an ``Origin`` (`nil` otherwise).
    public var claimedOrigin: String?

    /// Nothing known: no origin, no frame.
    public static let unknown = MessageSender()

    /// Creates a sender.
    /// - Parameters:
    ///   - origin: the origin, `nil` when unknown.
    ///   - isMainFrame: whether the main frame sent it, `nil` when unknown.
    public init(origin: Origin? = nil, isMainFrame: Bool? = nil) {
        self.origin = origin
        self.isMainFrame = isMainFrame
        self.claimedOrigin = nil
    }

    /// Creates a sender from an origin's text, as a message carries it. Text that does
    /// not parse leaves ``origin`` unknown and is kept in ``claimedOrigin``.
    /// - Parameters:
    ///   - originText: the serialised origin (`"https://shop.example.com"`), `nil` when not given.
    ///   - isMainFrame: whether the main frame sent it, `nil` when unknown.
    public init(originText: String?, isMainFrame: Bool?) {
        self.isMainFrame = isMainFrame
        guard let originText else {
            origin = nil
            claimedOrigin = nil
            return
        }
        do {
            origin = try Origin(parsing: originText)
            claimedOrigin = nil
        } catch {
            origin = nil
            claimedOrigin = String(originText.prefix(200))
        }
    }

    /// Whether nothing is known about the sender.
    public var isUnknown: Bool { origin == nil && isMainFrame == nil && claimedOrigin == nil }

    /// `https://shop.example.com, main frame`, `unknown origin, sub-frame`, ….
    public var description: String {
        let origin =
            self.origin?.serialized ?? claimedOrigin.map { "invalid origin \(String(reflecting: $0))" }
            ?? "unknown origin"
        let frame = isMainFrame.map { $0 ? "main frame" : "sub-frame" } ?? "unknown frame"
        return "\(origin), \(frame)"
    }
}
