/// The pure lifecycle of one request's reply: who is responsible for answering
/// it, and whether it has been answered. No locking, no side effects: every
/// event returns the action the storage (``ReplyState``) performs after unlocking.
///
/// Who holds the request (``Holder``):
/// ```
///   router ──markKept()──▶ buffer ──claimForResponder()──▶ responder
///      │                                                      ▲
///      └──────────────────claimForResponder()─────────────────┘
/// ```
/// Whether it is answered (``Phase``):
/// ```
///              answer / reply (.success / .failure)
///   pending ───────────────────────────────▶ answered
///      │  ╲  reply handle released without a reply
///      │   ╲────────────────────────────────▶ dropped
///      │  deadline passed (fallback or not)
///      └────────────────────────────────────▶ timedOut
/// ```
/// Every transition out of `pending` happens once, and is the one time the caller
/// is resolved. A later reply is reported (a second reply, a reply after the
/// deadline) and changes nothing; a request is handed to a responder at most once.
struct ReplyStateMachine: Sendable {
    /// Who answers the request.
    enum Holder: Sendable, Equatable {
        /// No delivery path took it: whoever finishes the middleware chain answers it.
        case router
        /// A buffer keeps it; its keep deadline answers it unless a responder claims it.
        case buffer
        /// A responder has it (through a ``Reply`` handle).
        case responder
    }

    /// Whether the caller has been resolved, and how.
    enum Phase: Sendable, Equatable {
        case pending
        case answered
        case dropped
        case timedOut
    }

    /// What the storage must do after an event.
    enum Action: Sendable, Equatable {
        /// Resolve the caller (exactly once in a machine's life).
        case resolveCaller
        /// A reply arrived after the machine left `pending`: report it as a duplicate or late reply.
        case reportIgnoredReply(after: Phase)
        /// Nothing to do.
        case none
    }

    /// Which answers an event may give (the router's paths differ in whom they may overrule).
    enum Answerer: Sendable, Equatable {
        /// Delivery, a buffer discarding the message, or anything else that answers whoever holds it.
        case any
        /// The end of the middleware chain: answers only if no delivery path took the request.
        case routerOnly
        /// A buffer's deadline: answers unless a responder took the request.
        case unlessResponder
    }

    private(set) var holder = Holder.router
    private(set) var phase = Phase.pending

    var isResolved: Bool { phase != .pending }

    /// Hands the request to a responder. `false` (nothing changes) when it is answered
    /// already or a responder has it already: it must not reach a responder again.
    mutating func claimForResponder() -> Bool {
        guard phase == .pending, holder != .responder else { return false }
        holder = .responder
        return true
    }

    /// A buffer keeps the request.
    mutating func markKept() {
        if holder == .router { holder = .buffer }
    }

    /// The router answers the request (an outcome, a discard, a stop, a buffer's deadline).
    mutating func answer(by answerer: Answerer) -> Action {
        guard phase == .pending else { return .none }
        switch answerer {
        case .any: break
        case .routerOnly: guard holder == .router else { return .none }
        case .unlessResponder: guard holder != .responder else { return .none }
        }
        phase = .answered
        return .resolveCaller
    }

    /// The responder replied (success or failure) through its handle.
    mutating func reply() -> Action {
        guard phase == .pending else { return .reportIgnoredReply(after: phase) }
        phase = .answered
        return .resolveCaller
    }

    /// The last reference to the reply handle went away.
    mutating func handleReleased() -> Action {
        guard phase == .pending else { return .none }
        phase = .dropped
        return .resolveCaller
    }

    /// The responder's deadline passed.
    mutating func deadlinePassed() -> Action {
        guard phase == .pending else { return .none }
        phase = .timedOut
        return .resolveCaller
    }
}
