extension Router {
    // MARK: - Receiving

    /// Routes one message from a loosely typed source (`WKScriptMessage`,
    /// `JSONSerialization`): checks the name and the sender, runs middleware, decodes the
    /// body and delivers it.
    ///
    /// A ``MessageBody`` or a ``JSONValue`` passed here (as `Any`) is routed as
    /// itself, as ``receive(name:body:id:sender:isolation:replyHandler:)-(String,MessageBody,_,_,_,_)`` would.
    /// Main-actor handlers and responders (``on(_:_:)-(_,(E)->Void)``) run before this returns
    /// when the caller is on the main actor (its isolation, passed by default, says so); from
    /// elsewhere they are scheduled on the main actor.
    ///
    /// With a `replyHandler` (the shape of `WKScriptMessageHandlerWithReply`), it is resolved
    /// exactly once: with a request's reply (now or later), `ReplyValue.none` for a handled
    /// event, or the ``RequestFailure`` that says why there is none. It runs on the thread that
    /// resolves the message: the calling thread when the answer is known before this method
    /// returns, otherwise the thread that replies, a timer thread (deadlines), or the thread
    /// that registers a responder (kept messages).
    /// - Parameters:
    ///   - name: the channel name as received.
    ///   - body: the body; `nil` means no body.
    ///   - id: the caller's correlation id; `nil` by default.
    ///   - sender: who sent it (origin and frame), checked against the channel's ``OriginPolicy``
    ///     right after the name; ``MessageSender/unknown`` by default.
    ///   - isolation: the caller's isolation; `#isolation` by default (leave it).
    ///   - replyHandler: resolved exactly once with the reply or the failure; `nil` (the default)
    ///     when the caller learns all it needs from the outcome.
    /// - Returns: what happened to the message (``Outcome/rejected(_:)`` when the policy refuses
    ///   `sender`; ``Outcome/awaitingReply`` while a responder's reply is pending,
    ///   ``Outcome/kept`` while it waits for one).
    public func receive(
        name: String,
        body: Any?,
        id: String? = nil,
        sender: MessageSender = .unknown,
        isolation: isolated (any Actor)? = #isolation,
        replyHandler: (@Sendable (Result<ReplyValue, RequestFailure>) -> Void)? = nil
    ) -> Outcome {
        // Tested against nil first: binding an `Any?` copies it through runtime calls.
        if body == nil {
            return receive(
                name: name, body: MessageBody.absent, id: id, sender: sender, isolation: isolation,
                replyHandler: replyHandler)
        }
        return receive(
            name: name, body: MessageBody(body), id: id, sender: sender, isolation: isolation,
            replyHandler: replyHandler)
    }

    /// Routes one message whose body is a ``MessageBody`` (a Foundation tree, a
    /// ``JSONValue`` or JSON bytes). See ``receive(name:body:id:sender:isolation:replyHandler:)-(String,Any?,_,_,_,_)``.
    /// - Parameters:
    ///   - name: the channel name as received.
    ///   - body: the body.
    ///   - id: the caller's correlation id; `nil` by default.
    ///   - sender: who sent it (origin and frame); ``MessageSender/unknown`` by default.
    ///   - isolation: the caller's isolation; `#isolation` by default (leave it).
    ///   - replyHandler: resolved exactly once with the reply or the failure; `nil` by default.
    /// - Returns: what happened to the message.
    public func receive(
        name: String,
        body: consuming MessageBody,
        id: String? = nil,
        sender: MessageSender = .unknown,
        isolation: isolated (any Actor)? = #isolation,
        replyHandler: (@Sendable (Result<ReplyValue, RequestFailure>) -> Void)? = nil
    ) -> Outcome {
        if MainActorDelivery.isMainActor(isolation) {
            let body = consume body
            return MainActorDelivery.deliver(isolation: isolation) {
                route(name: name, body: body, id: id, sender: sender, replyHandler: replyHandler)
            }
        }
        return route(name: name, body: body, id: id, sender: sender, replyHandler: replyHandler)
    }

    /// Routes one message (its channel, body, id and sender). See
    /// ``receive(name:body:id:sender:isolation:replyHandler:)-(String,Any?,_,_,_,_)``.
    /// - Parameters:
    ///   - message: the message.
    ///   - isolation: the caller's isolation; `#isolation` by default (leave it).
    ///   - replyHandler: resolved exactly once with the reply or the failure; `nil` by default.
    /// - Returns: what happened to the message (``Outcome/awaitingReply`` while a
    ///   responder's reply is pending, ``Outcome/kept`` while it waits for one).
    public func receive(
        _ message: Message,
        isolation: isolated (any Actor)? = #isolation,
        replyHandler: (@Sendable (Result<ReplyValue, RequestFailure>) -> Void)? = nil
    ) -> Outcome {
        MainActorDelivery.deliver(isolation: isolation) {
            let (route, chain, access) = lookUp(message.channel)
            if let access, let rejection = access.rejection(of: message.sender, on: message.channel) {
                return reject(rejection, replyHandler: replyHandler)
            }
            return dispatch(message, replyHandler: replyHandler, route: route, chain: chain)
        }
    }

    /// ``receive(_:isolation:replyHandler:)`` for a caller that learns all it needs from the outcome when
    /// only event handlers take the message, as the wire session does: such a message (no
    /// middleware, no responder, nothing kept before it) is delivered without `replyHandler`,
    /// which is then dropped uncalled (`handlersOnly` is `true`; the outcome,
    /// ``Outcome/handled(count:)``, ``Outcome/failed(_:)`` or ``Outcome/invalid(_:)``, says
    /// what the reply would have). Otherwise `replyHandler` is resolved exactly once, as there.
    /// - Parameter key: the ``ChannelKey`` of the message's channel, when the caller keeps one.
    package func receiveAnsweringRequests(
        _ message: Message, key: ChannelKey? = nil,
        replyHandler: @escaping @Sendable (Result<ReplyValue, RequestFailure>) -> Void
    ) -> (outcome: Outcome, handlersOnly: Bool) {
        let (route, chain, access) = lookUp(message.channel, hash: key?.hash ?? RoutingTable.hash(message.channel.name))
        if let access, let rejection = access.rejection(of: message.sender, on: message.channel) {
            return (reject(rejection, replyHandler: replyHandler), false)
        }
        if Router.takesHandlersOnly(route, chain) {
            if let outcome = handlersOutcome(message, route: route) { return (outcome, true) }
            // Every handler was cancelled after the route was read: delivered again, as `dispatch`
            // does then (not through `dispatch`, which would run the handlers' outcome a second time).
            let reply = Router.replyState(for: replyHandler, on: message.channel)
            return (deliver(message, route: nil, reply: reply), false)
        }
        return (dispatch(message, replyHandler: replyHandler, route: route, chain: chain), false)
    }

    /// Whether a message with this route and chain goes to the channel's handlers alone, at once:
    /// no middleware, no drain of kept messages under way, no responder, some handler.
    @inline(__always)
    private static func takesHandlersOnly(_ route: Route, _ chain: MiddlewareChain) -> Bool {
        chain.entries.isEmpty && !route.isDraining && route.responder == nil && !route.handlers.isEmpty
    }

    /// ``receive(name:body:id:sender:isolation:replyHandler:)-(String,MessageBody,_,_,_,_)`` once the caller's isolation is marked.
    private func route(
        name: String,
        body: consuming MessageBody,
        id: String?,
        sender: MessageSender,
        replyHandler: (@Sendable (Result<ReplyValue, RequestFailure>) -> Void)?
    ) -> Outcome {
        // A name in the routing table is valid (every registered channel was validated):
        // only names the table does not know need checking.
        let fits = name.utf8.count <= Channel.maxLength
        let hash = fits ? RoutingTable.hash(name) : 0
        let (found, chain, defaultAccess) = state.withLock { state in
            (fits ? state.table.route(named: name, hash: hash) : nil, state.chain, state.defaultOriginPolicy)
        }
        if found == nil, let error = Channel.problem(in: name) {
            diagnostics.emit(.invalidChannel(name: name, error))
            replyHandler?(.failure(.invalidChannel(name: name, error)))
            return .invalidChannel(error)
        }
        let channel = Channel(uncheckedName: name)
        // Who may call: checked before middleware, buffering, decoding and lookup.
        if let access = found?.originPolicy ?? defaultAccess, let rejection = access.rejection(of: sender, on: channel)
        {
            return reject(rejection, replyHandler: replyHandler)
        }
        let message = Message(channel: channel, body: body, id: id, sender: sender)
        return dispatch(message, replyHandler: replyHandler, route: found ?? .empty, chain: chain)
    }

    /// The route of `channel` (``Route/empty`` when it has none), the middleware chain and
    /// the origin policy that applies, in one lock round trip. The table is a snapshot:
    /// no rebuild to wait for.
    func lookUp(_ channel: Channel) -> (Route, MiddlewareChain, OriginPolicy?) {
        lookUp(channel, hash: RoutingTable.hash(channel.name))
    }

    /// ``lookUp(_:)`` with the hash of the channel's name (``RoutingTable``'s) in hand.
    @inline(__always)
    private func lookUp(_ channel: Channel, hash: UInt64) -> (Route, MiddlewareChain, OriginPolicy?) {
        let (route, chain, access) = state.withLock { state in
            let route = state.table.route(named: channel.name, hash: hash)
            return (route, state.chain, state.originPolicy(of: route))
        }
        return (route ?? .empty, chain, access)
    }

    /// The route of `channel` now (``Route/empty`` when it has none).
    func currentRoute(of channel: Channel) -> Route {
        let hash = RoutingTable.hash(channel.name)
        return state.withLock { $0.table.route(named: channel.name, hash: hash) } ?? .empty
    }

    /// ``dispatch(_:reply:route:chain:)`` for a caller's `replyHandler`. When the channel has
    /// only handlers and there is no middleware, nothing but the handlers' run can answer the
    /// caller, and it does so before this returns: `replyHandler` is called directly, once,
    /// with no reply state made, locked or shared (the usual event).
    private func dispatch(
        _ message: Message, replyHandler: ReplyState.Completion?, route: Route, chain: MiddlewareChain
    ) -> Outcome {
        if Router.takesHandlersOnly(route, chain) {
            // `nil`: every handler was cancelled after the route was read; delivered again below, as usual.
            if let outcome = handlersOutcome(message, route: route) {
                replyHandler?(Router.result(of: outcome, on: message.channel))
                return outcome
            }
            return deliver(message, route: nil, reply: Router.replyState(for: replyHandler, on: message.channel))
        }
        return dispatch(
            message, reply: Router.replyState(for: replyHandler, on: message.channel), route: route, chain: chain)
    }

    /// The reply state of a caller's `replyHandler`, if it gave one. (Not `replyHandler.map { … }`:
    /// a closure passed through a generic parameter comes out wrapped in a thunk, an allocation,
    /// and every call of the completion would then go through it.)
    private static func replyState(for replyHandler: ReplyState.Completion?, on channel: Channel) -> ReplyState? {
        guard let replyHandler else { return nil }
        return ReplyState(channel: channel, completion: replyHandler)
    }

    /// Runs the middleware chain (if any) and delivery.
    private func dispatch(_ message: Message, reply: ReplyState?, route: Route, chain: MiddlewareChain) -> Outcome {
        if chain.entries.isEmpty {
            return deliver(message, on: route, reply: reply)
        }
        let outcome = ChainRun(router: self, reply: reply, channel: message.channel, route: route, chain: chain)
            .run(message, from: 0)
        // Every delivery path resolves or claims the reply; one left unclaimed was stopped by middleware.
        if let reply { reply.answer(Router.stoppedResult(of: outcome, on: message.channel), by: .routerOnly) }
        return outcome
    }

    /// The reply a caller gets when middleware stopped its message before delivery:
    /// a stop with ``Outcome/replied(_:)`` answers it, any other outcome is
    /// ``RequestFailure/stopped(_:_:)``.
    static func stoppedResult(of outcome: Outcome, on channel: Channel) -> Result<ReplyValue, RequestFailure> {
        if case .replied(let value) = outcome { return .success(value) }
        return .failure(.stopped(channel, outcome))
    }

    /// The reply a caller gets for an outcome that did not come from a responder.
    static func result(of outcome: Outcome, on channel: Channel) -> Result<ReplyValue, RequestFailure> {
        switch outcome {
        case .handled: return .success(.none)
        case .replied(let value): return .success(value)
        case .awaitingReply, .kept: return .failure(.stopped(channel, outcome))
        case .unhandled: return .failure(.noResponder(channel))
        case .invalid(let error): return .failure(.invalidBody(channel, error))
        case .failed(let failure): return .failure(.responderFailed(channel, message: failure.message))
        case .invalidChannel(let problem): return .failure(.invalidChannel(name: channel.name, problem))
        case .stopped: return .failure(.stopped(channel, outcome))
        case .rejected(let rejection): return .failure(.rejected(channel, rejection))
        }
    }

    /// The reason given when a request reaches delivery a second time.
    static let repeatedRequestReason = "the request was passed on twice; its responder answers it once"

    // MARK: - Delivery

    /// Delivers a message (after middleware) to the channel's responder or handlers,
    /// or applies the channel's policy when it has neither. Every path either
    /// resolves `reply` or hands it on (to a responder or a buffer).
    /// - Parameter route: the channel's route as read with the middleware, or `nil` to look it up.
    func deliver(_ message: Message, route: Route?, reply: ReplyState?) -> Outcome {
        deliver(message, on: route ?? currentRoute(of: message.channel), reply: reply)
    }

    /// ``deliver(_:route:reply:)`` with the route of the message's channel in hand.
    func deliver(_ message: Message, on route: Route, reply: ReplyState?) -> Outcome {
        // While kept messages are delivered, a later message queues behind them.
        if route.isDraining {
            return keep(message, policy: route.policy ?? options.defaultBufferPolicy, reply: reply)
        }
        return deliverDirectly(message, on: route, reply: reply)
    }

    /// Delivers without looking at a drain (a drain's own messages come this way).
    func deliverDirectly(_ message: Message, on route: Route, reply: ReplyState?) -> Outcome {
        if route.responder == nil, !route.handlers.isEmpty {
            return deliverToHandlers(message, route: route, reply: reply)
        }
        return deliverToResponderOrPolicy(message, route: route, reply: reply)
    }

    /// Delivers a message to the handlers of a channel without a responder.
    private func deliverToHandlers(_ message: Message, route: Route, reply: ReplyState?) -> Outcome {
        // Every handler was cancelled after the route was read: route it again.
        guard let outcome = handlersOutcome(message, route: route) else {
            return deliver(message, route: nil, reply: reply)
        }
        if let reply { reply.answer(Router.result(of: outcome, on: message.channel)) }
        return outcome
    }

    /// Runs the handlers of a channel without a responder: ``Outcome/handled(count:)``,
    /// ``Outcome/failed(_:)`` (the handlers that threw) or ``Outcome/invalid(_:)`` (reported to
    /// diagnostics); `nil` when every handler was cancelled after the route was read. The
    /// caller's reply is ``result(of:on:)`` of the outcome.
    private func handlersOutcome(_ message: Message, route: Route) -> Outcome? {
        let context = MessageContext(message: message, options: options.decoding)
        let errors: [String]
        let called: Int
        do {
            (errors, called) = try runHandlers(route, context: context)
        } catch {
            diagnostics.emit(.invalidBody(context.channel, error))
            return .invalid(error)
        }
        if called == 0 { return nil }
        if errors.isEmpty { return .handled(count: called) }
        return .failed(HandlerFailure(channel: context.channel, errors: errors, succeeded: called - errors.count))
    }

    /// Delivers a message to the channel's responder (and its handlers), or applies
    /// the channel's buffer policy when it has neither.
    private func deliverToResponderOrPolicy(_ message: Message, route: Route, reply: ReplyState?) -> Outcome {
        let channel = message.channel
        if let responder = route.responder {
            if responder.cancelled.isCancelled { return deliver(message, route: nil, reply: reply) }
            return deliverToResponder(message, responder: responder, route: route, reply: reply)
        }
        let effective = route.policy ?? options.defaultBufferPolicy
        if effective != .drop {
            return keep(message, policy: effective, reply: reply)
        }
        diagnostics.emit(.unhandled(channel))
        reply?.answer(.failure(.noResponder(channel)))
        return .unhandled
    }

    /// Delivers a request to its responder; the channel's handlers (if any) run between
    /// decoding and the responder's call.
    private func deliverToResponder(
        _ message: Message, responder: ResponderEntry, route: Route, reply: ReplyState?
    ) -> Outcome {
        let channel = message.channel
        if let reply, !reply.mayGoToResponder { return .stopped(reason: Router.repeatedRequestReason) }
        let decoding = options.decoding
        let handlers = route.handlers
        let failures: [String]
        let called: ReplyState?
        var refused = false
        do {
            // Decoded as its own type and handed to the responder as it is (no box, no cast).
            (failures, called) = try responder.responder.respond(
                to: message.body, options: decoding, cancelled: responder.cancelled,
                beforeResponding: { () throws(BodyDecodingError) -> [String] in
                    if handlers.isEmpty { return [] }
                    return try runHandlers(route, context: MessageContext(message: message, options: decoding)).errors
                },
                makeState: { [diagnostics] () -> ReplyState? in
                    let state = reply ?? ReplyState(channel: channel, completion: nil)
                    guard state.claimForResponder(fallback: responder.fallback, report: diagnostics) else {
                        refused = true
                        return nil
                    }
                    return state
                })
        } catch {
            return invalid(error, on: channel, reply: reply)
        }
        if refused { return .stopped(reason: Router.repeatedRequestReason) }
        guard let replyState = called else {
            // The responder was cancelled after the route was read.
            if handlers.isEmpty { return deliver(message, route: nil, reply: reply) }
            reply?.answer(.failure(.noResponder(channel)))
            return failures.isEmpty
                ? .handled(count: handlers.count)
                : .failed(
                    HandlerFailure(channel: channel, errors: failures, succeeded: handlers.count - failures.count))
        }
        guard let result = replyState.result else {
            replyState.armDeadline(responder.deadline ?? options.defaultDeadline)
            return .awaitingReply
        }
        let succeeded = handlers.count - failures.count
        switch result {
        case .success(let value):
            return failures.isEmpty
                ? .replied(value) : .failed(HandlerFailure(channel: channel, errors: failures, succeeded: succeeded))
        case .failure(let failure):
            return .failed(HandlerFailure(channel: channel, errors: failures + [failure.reason], succeeded: succeeded))
        }
    }

    private func invalid(_ error: BodyDecodingError, on channel: Channel, reply: ReplyState?) -> Outcome {
        diagnostics.emit(.invalidBody(channel, error))
        reply?.answer(.failure(.invalidBody(channel, error)))
        return .invalid(error)
    }

    /// Decodes the body once per event type, then runs the handlers in order
    /// (skipping those cancelled by the time their turn comes).
    ///
    /// The usual case (every handler of the channel takes the same event type)
    /// decodes into that type and calls each handler with it, boxing nothing;
    /// other types are decoded into a small list.
    /// - Returns: the messages of the handlers that threw, and how many handlers were called.
    /// - Throws: the decoding failure (then no handler ran).
    private func runHandlers(
        _ route: Route, context: MessageContext
    ) throws(BodyDecodingError) -> (errors: [String], called: Int) {
        guard !route.handlers.isEmpty else { return ([], 0) }
        if route.handlersShareEventType {
            // The route's handler list keeps the handler alive: call it without retaining it again.
            var failure: BodyDecodingError?
            let ran = Unretained(route.handlers[0].handler).call { handler -> (errors: [String], called: Int) in
                do throws(BodyDecodingError) {
                    return try handler.runAll(route, context: context, diagnostics: diagnostics)
                } catch {
                    failure = error
                    return ([], 0)
                }
            }
            if let failure { throw failure }
            return ran
        }
        let handlers = route.handlers
        guard let first = handlers.first else { return ([], 0) }
        let firstType = first.eventType
        let firstEvent = try first.handler.decodeEvent(context.body, options: context.options)
        var others: [(type: ObjectIdentifier, event: any Sendable)] = []
        for handler in handlers.dropFirst()
        where handler.eventType != firstType && !others.contains(where: { $0.type == handler.eventType }) {
            others.append((handler.eventType, try handler.handler.decodeEvent(context.body, options: context.options)))
        }
        var errors: [String] = []
        var called = 0
        for handler in handlers {
            let event =
                handler.eventType == firstType
                ? firstEvent : (others.first { $0.type == handler.eventType }?.event ?? firstEvent)
            // Right before the call: once `cancel()` has returned, the handler is not called.
            guard !handler.cancelled.isCancelled else { continue }
            called += 1
            do {
                try handler.handler.invoke(event, context: context)
            } catch {
                let message = errorMessage(error)
                diagnostics.emit(.handlerFailed(context.channel, message: message))
                errors.append(message)
            }
        }
        return (errors, called)
    }
}
