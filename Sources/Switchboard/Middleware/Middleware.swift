/// A step every message passes through before (and after) delivery.
///
/// ```
///  receive ─▶ [middleware 1] ─▶ [middleware 2] ─▶ … ─▶ delivery (handlers / responder / policy)
///                 │  ▲               │  ▲                        │
///                 │  └── outcome ◀───┘  └────── outcome ◀────────┘
///                 └─ may stop: return an outcome without calling next
/// ```
/// Middleware sees every message with a valid channel name, including those
/// no handler takes and those whose body will not decode. It can pass the
/// message on (`next(message)`), stop it (return an ``Outcome`` of its choice
/// without calling `next`), rewrite it (call `next` with another message), and
/// read the outcome of what ran after it (the value `next` returns).
///
/// ## Implementation requirements
/// - Call `next` at most once; calling it again delivers the message again.
/// - Be fast and synchronous: delivery runs on the caller's thread.
/// - To override part of another middleware's behaviour, keep it and call its
///   ``handle(_:next:)`` for the cases you do not override (the Poq pattern).
public protocol MessageMiddleware: Sendable {
    /// Handles one message.
    /// - Parameters:
    ///   - message: the message, as rewritten by the middleware before this one.
    ///   - next: the rest of the chain; call it to pass the message on.
    /// - Returns: the outcome of the message.
    func handle(_ message: Message, next: MiddlewareNext) -> Outcome
}

/// A middleware made from a closure:
/// ```swift
/// router.use(Middleware { message, next in
///     print("→", message.channel)
///     return next(message)
/// })
/// ```
public struct Middleware: MessageMiddleware {
    private let body: @Sendable (Message, MiddlewareNext) -> Outcome

    /// Creates a middleware from a closure.
    public init(_ body: @escaping @Sendable (Message, MiddlewareNext) -> Outcome) {
        self.body = body
    }

    /// Runs the closure.
    public func handle(_ message: Message, next: MiddlewareNext) -> Outcome {
        body(message, next)
    }
}

/// The rest of a middleware chain after one middleware.
public struct MiddlewareNext: Sendable {
    let chain: MiddlewareChain
    let index: Int

    /// Passes `message` on to the next middleware, or to delivery after the last one.
    /// - Returns: the outcome of everything that ran after this point.
    public func callAsFunction(_ message: Message) -> Outcome {
        chain.run(message, from: index)
    }
}

/// One message's trip through a snapshot of the middleware list.
struct MiddlewareChain: Sendable {
    let entries: [MiddlewareEntry]
    let deliver: @Sendable (Message) -> Outcome
    let report: DiagnosticSink

    func run(_ message: Message, from index: Int) -> Outcome {
        guard index < entries.count else { return deliver(message) }
        let entry = entries[index]
        let outcome = entry.middleware.handle(message, next: MiddlewareNext(chain: self, index: index + 1))
        if case .stopped = outcome {
            report.emit(.stopped(message.channel, by: entry.name, outcome))
        }
        return outcome
    }
}

/// A registered middleware and its name (for diagnostics).
struct MiddlewareEntry: Sendable {
    let id: UInt64
    let name: String
    let middleware: any MessageMiddleware
}
