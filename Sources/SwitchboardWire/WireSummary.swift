import Switchboard

/// The counts of a wire session: messages per outcome, and the time taken.
///
/// Rendered on stderr by the CLI as
/// `switchboard: 14 messages: 6 handled, 4 replied, 1 failed, 1 invalid, 1 unhandled, 1 malformed (0.004 s)`.
public struct WireSummary: Sendable, Hashable, CustomStringConvertible {
    /// How many messages had each outcome (every kind is present, zeros included; the wire
    /// format writes the first eight kinds of `Outcome.Kind` only).
    public var counts: [Outcome.Kind: Int] {
        Dictionary(uniqueKeysWithValues: Outcome.Kind.allCases.map { ($0, self[$0]) })
    }
    /// The counts in `Outcome.Kind.allCases` order (no hashing per message).
    private var tally: [Int]
    /// All messages counted (blank lines are not messages).
    public private(set) var total: Int
    /// The wall-clock time the session took, once finished.
    public var elapsed: Duration
    /// Whether an origin policy is on: then ``description`` counts `rejected` even when it is 0.
    public var hasOriginPolicy: Bool

    /// An empty summary.
    /// - Parameter hasOriginPolicy: whether an origin policy is on (the CLI's `--allow-origin`):
    ///   the rejected count is then always shown.
    package init(hasOriginPolicy: Bool = false) {
        tally = Array(repeating: 0, count: Outcome.Kind.allCases.count)
        total = 0
        elapsed = .zero
        self.hasOriginPolicy = hasOriginPolicy
    }

    /// Counts one outcome.
    package mutating func record(_ kind: Outcome.Kind) {
        tally[kind.position] += 1
        total += 1
    }

    /// How many messages had `kind`.
    public subscript(kind: Outcome.Kind) -> Int { tally[kind.position] }

    /// Whether every message was handled or replied (a page's hello, answered, counts as a success).
    public var allSucceeded: Bool { total == self[.handled] + self[.replied] + self[.hello] }

    /// The process exit status: 0 when every message was handled or replied, 1 otherwise.
    public var exitStatus: Int32 { allSucceeded ? 0 : 1 }

    /// `14 messages: 6 handled, 4 replied, 1 failed, 1 invalid, 1 unhandled, 1 malformed (0.004 s)`;
    /// `rejected` is counted after `malformed` whenever an origin policy is on
    /// (``hasOriginPolicy``, zero included: `…, 0 malformed, 0 rejected (0.004 s)`) or any
    /// message was rejected; without a policy and with none rejected it is left out. `hello`
    /// (pages' hellos answered) is counted after it, only when there was one (and so would be the
    /// router's kinds the wire format never writes).
    public var description: String {
        let parts = Outcome.Kind.allCases.filter {
            switch $0 {
            case .handled, .replied, .failed, .invalid, .unhandled, .malformed: return true
            case .rejected: return hasOriginPolicy || self[$0] > 0
            case .hello, .awaitingReply, .kept, .stopped, .invalidChannel: return self[$0] > 0
            }
        }
        .map { "\(self[$0]) \($0.rawValue)" }.joined(separator: ", ")
        let (seconds, attoseconds) = elapsed.components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        let fraction = String(milliseconds % 1000)
        let time = "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
        return "\(total) message\(total == 1 ? "" : "s"): \(parts) (\(time))"
    }
}
