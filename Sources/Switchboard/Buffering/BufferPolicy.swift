/// What a channel does with messages that arrive before any handler is registered.
///
/// Kept messages are delivered, in arrival order, when a handler registers.
/// Whatever is not delivered is reported to diagnostics: dropped messages
/// (``Diagnostic/unhandled(_:)``), overflow (``Diagnostic/keptOverflow(_:)``) and
/// expiry (``Diagnostic/keptExpired(_:)``).
public enum BufferPolicy: Sendable, Hashable, CustomStringConvertible {
    /// Drop the message and report it (the default).
    case drop
    /// Keep only the most recent message (an older kept one is reported as overflow).
    case keepLast
    /// Keep up to `max` messages, each for up to `for`; the oldest is discarded on overflow.
    case keep(max: Int, for: Duration)

    /// A one-line rendering.
    public var description: String {
        switch self {
        case .drop: return "drop"
        case .keepLast: return "keepLast"
        case .keep(let max, let duration): return "keep(max: \(max), for: \(duration))"
        }
    }
}
