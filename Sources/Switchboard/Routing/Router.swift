import Foundation

/// Routes messages on named channels to typed handlers and responders.
///
/// A router is the one object a host app, an SDK adapter and a test share:
/// ```swift
/// let router = Router()
/// let added = router.on(AddCartLine.self) { line, _ in cart.add(line) }
/// let update = try router.respond(to: ProductCartUpdate.self) { request, reply in
///     reply(.success(cart.set(request.offer)))
/// }
/// let outcome = router.receive(name: message.name, body: message.body)
/// ```
///
/// Delivery is synchronous on the caller's thread: middleware, decoding and
/// handlers run inside ``receive(_:isolation:replyHandler:)``, in registration order, so the order of
/// messages per channel is the order of the `receive` calls. Replies complete
/// through single-use ``Reply`` handles, now or later, from any thread.
///
/// All methods are safe to call from any thread. No user code runs under the
/// router's lock: handlers, responders, middleware, observers and completions are
/// called, and everything a user gave the router is released, after it unlocks,
/// so any of them may call back into the router (even from a `deinit`).
///
/// Once a registration's ``Registration/cancel()`` returns (or a `replace…` call
/// that replaced it, or the token's release), what it registered is not called
/// again; a call that had already started may finish.
///
/// The router is a thin facade over its parts: the routing table (`RoutingTable`,
/// an immutable snapshot), delivery (`Delivery.swift`), buffering (`Buffering/`), features and
/// the manifest (`Features/`), replies (`Replies/`) and diagnostics (`Diagnostics/`).
public final class Router: Sendable {
    /// The settings the router was created with.
    public let options: RouterOptions

    let diagnostics = DiagnosticSink()
    /// Who is told of the app's pushes (``observePushes(_:)``).
    let pushObservers = PushObservers()
    /// Tokens and timers hold this weakly (see ``mutate(_:_:)``).
    let state = Locked(State())

    /// Creates a router.
    /// - Parameter options: decoding, deadline, buffering and limit settings.
    public init(options: RouterOptions = RouterOptions()) {
        self.options = options
        if let policy = options.originPolicy { state.withLock { $0.defaultOriginPolicy = policy } }
    }

    /// A token that, on cancel, removes a registration with `remove` (under the lock),
    /// then sets `cancelled`: from then on, what it registered is not called.
    static func token(
        _ state: Locked<State>, _ cancelled: CancelFlag, _ remove: @escaping @Sendable (inout State) -> Void
    ) -> Registration {
        // A second `cancel()` racing the first removes (a no-op by then, once the lock is its
        // turn) and sets the flag itself, so it too returns only after both.
        Registration.unregistering(cancelled) { [weak state] in
            if let state { Router.mutate(state, remove) }
        }
    }

    // MARK: - Event handlers

    /// Subscribes a handler to an event's channel. Several handlers may share a
    /// channel; they run in registration order.
    ///
    /// If messages were kept for the channel (see ``setBufferPolicy(_:for:)``), they
    /// are delivered, in arrival order, before this method returns; a message that
    /// arrives meanwhile on another thread is delivered after them.
    /// - Parameters:
    ///   - type: the event type; its ``Event/channel`` is the channel subscribed to.
    ///   - handler: called with the decoded event and its context; a thrown error
    ///     makes the outcome ``Outcome/failed(_:)`` (the other handlers still run).
    /// - Returns: the token that keeps the subscription; cancel or release it to
    ///   unsubscribe. Once ``Registration/cancel()`` returns, the handler is not called again.
    public func on<E: Event>(
        _ type: E.Type, _ handler: @escaping @Sendable (E, MessageContext) throws -> Void
    ) -> Registration {
        addHandler(type, replacing: false, handler)
    }

    /// Subscribes a handler that needs only the event. See ``on(_:_:)-(_,(E,MessageContext)->Void)``.
    public func on<E: Event>(_ type: E.Type, _ handler: @escaping @Sendable (E) throws -> Void) -> Registration {
        addHandler(type, replacing: false) { event, _ in try handler(event) }
    }

    /// Replaces every handler of an event's channel with `handler`, in one line
    /// (the Poq container's `replace { … }`). The replaced handlers' tokens become
    /// inert, and once this method returns the replaced handlers are not called again.
    /// - Returns: the token of the new handler.
    public func replaceHandlers<E: Event>(
        of type: E.Type, with handler: @escaping @Sendable (E, MessageContext) throws -> Void
    ) -> Registration {
        addHandler(type, replacing: true, handler)
    }

    /// Registers `handler` on `E`'s channel (replacing its handlers when `replacing`), with `flag`
    /// as the flag its token sets (a main-actor handler's hop reads it too).
    func addHandler<E: Event>(
        _ type: E.Type, replacing: Bool, flag: CancelFlag = CancelFlag(),
        _ handler: @escaping @Sendable (E, MessageContext) throws -> Void
    ) -> Registration {
        let channel = E.channel
        let typed = TypedEventHandler(handler)
        let (id, drain) = register(on: channel) { state, id -> Bool in
            let entry = HandlerEntry(id: id, eventType: ObjectIdentifier(E.self), handler: typed, cancelled: flag)
            var replaced: [HandlerEntry] = []
            state.updateRoute(channel) { route in
                if replacing {
                    replaced = route.handlers
                    route.handlers = [entry]
                } else {
                    route.handlers.append(entry)
                }
            }
            // Set after the table changed (callers that see a flag set find the new table).
            for entry in replaced { entry.cancelled.cancel() }
            return true
        }
        drain?.run(by: self)
        return Router.token(state, flag) { state in
            guard state.table.route(channel)?.handlers.contains(where: { $0.id == id }) == true else { return }
            state.updateRoute(channel) { route in route.handlers.removeAll { $0.id == id } }
        }
    }

    /// Registers on `channel` with `change` (which says whether it registered) and, in
    /// the same step, takes what was kept for it (so no message kept before the
    /// registration is missed).
    /// - Returns: the registration's id and the kept messages this thread must now deliver.
    private func register(on channel: Channel, _ change: (inout State, UInt64) -> Bool) -> (UInt64, Drain?) {
        let now = ContinuousClock.now
        let defaultPolicy = options.defaultBufferPolicy
        return mutate { state -> (UInt64, Drain?) in
            let id = state.makeID()
            guard change(&state, id) else { return (id, nil) }
            return (id, Drain.start(on: channel, in: &state, now: now, defaultPolicy: defaultPolicy))
        }
    }

    // MARK: - Responders

    /// Registers the responder of a request channel, callback style: it gets a
    /// single-use ``Reply`` handle and calls it once with a `Result`, now or later.
    ///
    /// - Parameters:
    ///   - type: the request type; its ``Event/channel`` is the channel answered.
    ///   - deadline: how long a caller waits; `nil` means ``RouterOptions/defaultDeadline``.
    ///   - fallback: the reply sent when the deadline passes; `nil` means callers time out.
    ///   - responder: called with the decoded request and its reply handle.
    /// - Returns: the token that keeps the responder. Once ``Registration/cancel()``
    ///   returns, the responder is not called again (a pending ``Reply`` still answers).
    /// - Throws: ``RegistrationError/responderExists(_:)`` when the channel has a
    ///   responder already; use ``replaceResponder(of:deadline:fallback:_:)-(_,_,_,(R,Reply<R.Reply>)->Void)`` to replace it.
    public func respond<R: Request>(
        to type: R.Type,
        deadline: Duration? = nil,
        fallback: R.Reply? = nil,
        _ responder: @escaping @Sendable (R, Reply<R.Reply>) -> Void
    ) throws(RegistrationError) -> Registration {
        try addResponder(type, deadline: deadline, fallback: fallback, replacing: false, responder)
    }

    /// Registers the responder of a request channel, `async` style: the value it
    /// returns is the reply; an error it throws fails the request.
    ///
    /// The responder runs in a task of its own. Once ``Registration/cancel()`` returns (or a
    /// `replaceResponder` call that replaced it), it is not called again, even by a task
    /// started for a request that arrived before: such a request fails with
    /// ``RequestFailure/noResponder(_:)``.
    /// - Throws: ``RegistrationError/responderExists(_:)`` when the channel has one already.
    public func respond<R: Request>(
        to type: R.Type,
        deadline: Duration? = nil,
        fallback: R.Reply? = nil,
        _ responder: @escaping @Sendable (R) async throws -> R.Reply
    ) throws(RegistrationError) -> Registration {
        let flag = CancelFlag()
        return try addResponder(
            type, deadline: deadline, fallback: fallback, replacing: false, flag: flag,
            Router.adapt(responder, cancelled: flag))
    }

    /// Replaces the responder of a request channel (or registers the first one), explicitly.
    /// The replaced responder's token becomes inert, and once this method returns the
    /// replaced responder is not called again (a ``Reply`` it holds still answers).
    public func replaceResponder<R: Request>(
        of type: R.Type,
        deadline: Duration? = nil,
        fallback: R.Reply? = nil,
        _ responder: @escaping @Sendable (R, Reply<R.Reply>) -> Void
    ) -> Registration {
        (try? addResponder(type, deadline: deadline, fallback: fallback, replacing: true, responder)) ?? .inert
    }

    /// Replaces the responder of a request channel with an `async` one, explicitly.
    /// Like the `async` `respond(to:deadline:fallback:_:)`, it is not called by a task that starts
    /// after its token was cancelled (or it was replaced).
    public func replaceResponder<R: Request>(
        of type: R.Type,
        deadline: Duration? = nil,
        fallback: R.Reply? = nil,
        _ responder: @escaping @Sendable (R) async throws -> R.Reply
    ) -> Registration {
        let flag = CancelFlag()
        return
            (try? addResponder(
                type, deadline: deadline, fallback: fallback, replacing: true, flag: flag,
                Router.adapt(responder, cancelled: flag))) ?? .inert
    }

    /// An `async` responder as a callback one: a task per request calls `responder`,
    /// unless `cancelled` (its token's flag) is set by the time the task starts.
    private static func adapt<R: Request>(
        _ responder: @escaping @Sendable (R) async throws -> R.Reply, cancelled: CancelFlag
    ) -> @Sendable (R, Reply<R.Reply>) -> Void {
        { request, reply in
            let task = Task {
                // The task may start after the token was cancelled: checked right before the
                // call, as every call of what a token registered is.
                guard !cancelled.isCancelled else {
                    reply.state.reply(.failure(.noResponder(reply.channel)), reportUnhandled: true)
                    return
                }
                do {
                    let value = try await responder(request)
                    reply.succeed(value)
                } catch {
                    // Thrown once the request was resolved (its deadline passed, so its task was
                    // cancelled, and the network call threw `CancellationError` or `URLError(.cancelled)`):
                    // the caller has its answer already, and this is no late reply.
                    reply.failUnlessResolved(error)
                }
            }
            reply.state.onDeadline { task.cancel() }
        }
    }

    func addResponder<R: Request>(
        _ type: R.Type,
        deadline: Duration?,
        fallback: R.Reply?,
        replacing: Bool,
        flag: CancelFlag = CancelFlag(),
        _ responder: @escaping @Sendable (R, Reply<R.Reply>) -> Void
    ) throws(RegistrationError) -> Registration {
        let channel = R.channel
        let typed = TypedResponder(responder)
        let entryFallback = fallback.map { ReplyValue($0) }
        var refused = false
        let (id, drain) = register(on: channel) { state, id -> Bool in
            let existing = state.table.route(channel)?.responder
            if !replacing, existing != nil {
                refused = true
                return false
            }
            let entry = ResponderEntry(
                id: id, deadline: deadline, fallback: entryFallback, responder: typed, cancelled: flag)
            state.updateRoute(channel) { route in route.responder = entry }
            existing?.cancelled.cancel()
            return true
        }
        drain?.run(by: self)
        if refused { throw .responderExists(channel) }
        return Router.token(state, flag) { state in
            guard state.table.route(channel)?.responder?.id == id else { return }
            state.updateRoute(channel) { route in route.responder = nil }
        }
    }

    // MARK: - Middleware

    /// Adds a middleware at the end of the chain. Every message with a valid
    /// channel name passes through the chain in registration order.
    /// - Parameters:
    ///   - middleware: the middleware.
    ///   - name: a name for diagnostics; defaults to the middleware's type name.
    /// - Returns: the token that keeps the middleware in the chain. Once
    ///   ``Registration/cancel()`` returns, the middleware is not called again.
    public func use(_ middleware: some MessageMiddleware, name: String? = nil) -> Registration {
        let label = name ?? String(describing: type(of: middleware))
        let (id, flag) = mutate { state -> (UInt64, CancelFlag) in
            let id = state.makeID()
            let entry = MiddlewareEntry(id: id, name: label, middleware: middleware)
            state.chain = state.chain.appending(entry)
            return (id, entry.cancelled)
        }
        return Router.token(state, flag) { state in state.chain = state.chain.removing(id: id) }
    }
}

/// Why a registration was refused.
public enum RegistrationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The channel has a responder already; a request channel has exactly one.
    /// Use `replaceResponder(of:…)` to replace it explicitly.
    case responderExists(Channel)

    /// A sentence naming the channel.
    public var description: String {
        switch self {
        case .responderExists(let channel):
            return "\(channel): a responder is registered already; use replaceResponder(of:) to replace it"
        }
    }
}
