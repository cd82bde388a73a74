/// The pure lifecycle of one reply, with no locking and no side effects.
///
/// ```
///              complete(.success / .failure)
///   pending ───────────────────────────────▶ completed
///      │  ╲  handle released without reply
///      │   ╲────────────────────────────────▶ dropped
///      │  deadline passed (fallback or not)
///      └────────────────────────────────────▶ timedOut
/// ```
/// Every transition out of `pending` happens once. Any later event is reported
/// (a second reply, a reply after the deadline) and changes nothing.
/// ``ReplyState`` runs this machine behind a lock and performs the actions it
/// returns outside the lock.
struct ReplyStateMachine {
    enum Phase: Equatable {
        case pending
        case completed
        case dropped
        case timedOut
    }

    /// What the storage must do after an event.
    enum Action: Equatable {
        /// Resolve the caller (exactly once in a machine's life).
        case resolveCaller
        /// A reply arrived after the machine left `pending`: report it as a duplicate or late reply.
        case reportIgnoredReply(after: Phase)
        /// Nothing to do.
        case none
    }

    private(set) var phase: Phase = .pending

    /// The responder replied (success or failure).
    mutating func reply() -> Action {
        guard phase == .pending else { return .reportIgnoredReply(after: phase) }
        phase = .completed
        return .resolveCaller
    }

    /// The last reference to the reply handle went away.
    mutating func handleReleased() -> Action {
        guard phase == .pending else { return .none }
        phase = .dropped
        return .resolveCaller
    }

    /// The deadline passed.
    mutating func deadlinePassed() -> Action {
        guard phase == .pending else { return .none }
        phase = .timedOut
        return .resolveCaller
    }
}
