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
/// - Call `next` at most once per message you pass on. For an event, calling it
///   again delivers again; a request reaches its responder only once (a second
///   call returns ``Outcome/stopped(reason:)``).
/// - Call `next` before returning; a `next` kept and called later finds the
///   message already finished.
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
    let body: @Sendable (Message, MiddlewareNext) -> Outcome

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
///
/// Calling it passes the message on to the next middleware, or to delivery
/// after the last one, and returns the outcome of everything that ran after
/// this point. For an event, each call delivers again (a middleware may fan one
/// message out into several rewritten ones). A request reaches its responder
/// at most once: a second call returns ``Outcome/stopped(reason:)`` and the
/// responder is not called again.
public struct MiddlewareNext: Sendable {
    let run: ChainRun
    let index: Int

    /// Passes `message` on to the next middleware, or to delivery after the last one.
    /// - Parameter message: the message to pass on; it may differ from the one received
    ///   (another body, another channel).
    /// - Returns: the outcome of everything that ran after this point.
    public func callAsFunction(_ message: Message) -> Outcome {
        run.run(message, from: index)
    }
}

/// One message's trip through a snapshot of the middleware list.
///
/// One object per message with middleware: it carries the caller's reply and the
/// route read for the message's channel (with the chain), so delivery after the
/// chain needs no second lock round trip. It holds the router, the route and the
/// chain strongly (`let`s: reading them costs no reference counting), because a
/// middleware may keep its `next`, and with it this run, and call it later.
final class ChainRun: @unchecked Sendable {
    // `@unchecked`: every stored property is a `let` but `lastStop`, which is read
    // and written only inside `ChainRun.stopLock`.
    private let router: Router
    private let route: Router.Route
    private let chain: MiddlewareChain
    let reply: ReplyState?
    let routedChannel: Channel
    private var lastStop: (depth: Int, reason: String)?

    /// Guards `lastStop` of every run; taken only when a middleware returns `.stopped`.
    private static let stopLock = Locked(())

    /// A run of `chain` for a message whose channel's route is `route`.
    init(router: Router, reply: ReplyState?, channel: Channel, route: Router.Route, chain: MiddlewareChain) {
        self.router = router
        self.reply = reply
        self.routedChannel = channel
        self.route = route
        self.chain = chain
    }

    func run(_ message: Message, from index: Int) -> Outcome {
        let entries = chain.entries
        guard index < entries.count else {
            // A message middleware moved to another channel meets that channel's origin policy too.
            return message.channel == routedChannel
                ? router.deliver(message, on: route, reply: reply)
                : router.deliverRerouted(message, reply: reply)
        }
        // The chain (a `let` of this run) keeps the entry and its closure alive: call it without retaining them.
        let outcome = Unretained(entries[index]).call { entry in
            // Checked right before the call: once `cancel()` has returned, the middleware is skipped.
            entry.cancelled.isCancelled
                ? run(message, from: index &+ 1)
                : entry.handle(message, MiddlewareNext(run: self, index: index &+ 1))
        }
        if case .stopped(let reason) = outcome {
            noteStop(reason: reason, at: index, channel: message.channel)
        }
        return outcome
    }

    /// Reports a stop once, naming the middleware that stopped the message; an
    /// outer middleware that only passes the same stop on is not reported again.
    private func noteStop(reason: String, at depth: Int, channel: Channel) {
        let isNew = ChainRun.stopLock.withLock { _ -> Bool in
            defer { lastStop = (depth, reason) }
            guard let last = lastStop else { return true }
            return !(last.depth == depth + 1 && last.reason == reason)
        }
        if isNew {
            router.diagnostics.emit(.stopped(channel, by: chain.entries[depth].name, .stopped(reason: reason)))
        }
    }
}

/// A registered middleware and its name (for diagnostics).
///
/// The entry keeps the middleware as the one closure that runs it: a
/// ``Middleware`` made from a closure is run by that closure directly, any other
/// type through its ``MessageMiddleware/handle(_:next:)``, so each step of the
/// chain is one indirect call.
final class MiddlewareEntry: Sendable {
    let id: UInt64
    let name: String
    let handle: @Sendable (Message, MiddlewareNext) -> Outcome
    /// Set by the middleware's token when it is cancelled.
    let cancelled = CancelFlag()

    init<M: MessageMiddleware>(id: UInt64, name: String, middleware: M) {
        self.id = id
        self.name = name
        if let closure = middleware as? Middleware {
            handle = closure.body
        } else {
            handle = { message, next in middleware.handle(message, next: next) }
        }
    }
}

/// The middleware chain, in registration order: immutable, replaced as a whole
/// when a middleware comes or goes (the router keeps the one it replaced until it
/// has unlocked). Delivery reads it with the message's route, in one lock round trip.
final class MiddlewareChain: Sendable {
    let entries: [MiddlewareEntry]

    /// No middleware.
    static let empty = MiddlewareChain([])

    init(_ entries: [MiddlewareEntry]) {
        self.entries = entries
    }

    /// This chain with `entry` at the end.
    func appending(_ entry: MiddlewareEntry) -> MiddlewareChain {
        MiddlewareChain(entries + [entry])
    }

    /// This chain without the middleware `id`.
    func removing(id: UInt64) -> MiddlewareChain {
        guard entries.contains(where: { $0.id == id }) else { return self }
        return MiddlewareChain(entries.filter { $0.id != id })
    }
}
