/// The kind of a failed message, as the page and the wire format name it: the `kind` of an
/// ``ErrorEnvelope``.
///
/// One vocabulary at every boundary: WebKit's reply error (the JSON text of an
/// ``ErrorEnvelope``), the wire format's `"error"` object and the generated page client's
/// `SwitchboardError.kind`, so a page switches on a kind instead of matching strings.
public enum ErrorKind: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// The channel is not live (no handler or responder now), the page is not in the app, or the
    /// bridge is stopped. The page client makes it before anything is posted; a stopped
    /// `RouterBridge` answers with it.
    case unavailable
    /// The channel's origin policy refused the sender; nothing ran.
    case rejected
    /// A request reached no responder (and no handler).
    case noResponder
    /// The responder did not answer within its deadline, and the channel has no fallback.
    case timedOut
    /// The responder released its reply handle without answering.
    case dropped
    /// The message did not decode: its body (with a key path), its name, or the line itself.
    case invalid
    /// A handler threw, a responder failed (its typed error in `data`), or the reply could not
    /// be encoded or decoded.
    case failed
    /// An event reached no handler. The page client gives it to an event channel the app answered
    /// with `noResponder` (the router does not know a channel's kind when nothing handles it).
    case unhandled

    /// The raw value.
    public var description: String { rawValue }
}
