extension Router {
    // MARK: - Main-actor handlers

    /// Subscribes a handler isolated to the main actor, such as one that updates a
    /// `@MainActor` model: `router.on(AddCartLine.self) { @MainActor line in model.lines.append(line) }`.
    ///
    /// The handler always runs on the main actor. When the message arrives on the main actor
    /// (WebKit calls on the main thread; an `async` entry point called from the main actor keeps
    /// its isolation), it runs before ``receive(name:body:id:sender:isolation:replyHandler:)-(String,Any?,_,_,_,_)`` returns,
    /// like a nonisolated handler: an error it throws makes the outcome ``Outcome/failed(_:)``.
    /// When the message arrives on another thread (or actor), the handler is scheduled on the main
    /// actor, in arrival order, and the caller's outcome counts it as delivered
    /// (``Outcome/handled(count:)``) without waiting: an error it throws then is reported as
    /// ``Diagnostic/handlerFailed(_:message:)``. A hop whose token was cancelled before it runs
    /// calls nothing.
    ///
    /// Spell the closure `{ @MainActor line in … }`: an unannotated closure picks the nonisolated
    /// `@Sendable` overload, even in a module built with `.defaultIsolation(MainActor.self)` (Swift
    /// chooses the overload before it checks isolation), and the compiler then refuses its use of
    /// main-actor state.
    /// - Parameters:
    ///   - type: the event type; its ``Event/channel`` is the channel subscribed to.
    ///   - handler: called on the main actor with the decoded event.
    /// - Returns: the token that keeps the subscription. Once ``Registration/cancel()`` returns,
    ///   the handler is not called again (a scheduled hop included).
    public func on<E: Event, Failure: Error>(
        _ type: E.Type, _ handler: @escaping @MainActor (E) throws(Failure) -> Void
    ) -> Registration {
        let flag = CancelFlag()
        return addHandler(
            type, replacing: false, flag: flag,
            onMainActor({ event, _ throws(Failure) in try handler(event) }, cancelled: flag))
    }

    /// Subscribes a main-actor handler that also gets the message's context.
    /// See ``on(_:_:)-(_,(E)->Void)``.
    public func on<E: Event, Failure: Error>(
        _ type: E.Type, _ handler: @escaping @MainActor (E, MessageContext) throws(Failure) -> Void
    ) -> Registration {
        let flag = CancelFlag()
        return addHandler(type, replacing: false, flag: flag, onMainActor(handler, cancelled: flag))
    }

    /// Replaces every handler of an event's channel with a main-actor `handler`.
    /// See ``replaceHandlers(of:with:)-(_,(E,MessageContext)->Void)`` and ``on(_:_:)-(_,(E)->Void)``.
    /// - Returns: the token of the new handler.
    public func replaceHandlers<E: Event, Failure: Error>(
        of type: E.Type, with handler: @escaping @MainActor (E, MessageContext) throws(Failure) -> Void
    ) -> Registration {
        let flag = CancelFlag()
        return addHandler(type, replacing: true, flag: flag, onMainActor(handler, cancelled: flag))
    }

    /// A main-actor handler as a nonisolated one: called at once when delivery runs on the main
    /// actor, otherwise scheduled there (unless `cancelled` is set by the time it runs).
    private func onMainActor<E: Event, Failure: Error>(
        _ handler: @escaping @MainActor (E, MessageContext) throws(Failure) -> Void, cancelled: CancelFlag
    ) -> @Sendable (E, MessageContext) throws -> Void {
        { [diagnostics] event, context in
            if MainActorDelivery.isCurrent {
                try MainActor.assumeIsolated { () throws -> Void in try handler(event, context) }
                return
            }
            Task { @MainActor in
                guard !cancelled.isCancelled else { return }
                do {
                    try handler(event, context)
                } catch {
                    diagnostics.emit(.handlerFailed(context.channel, message: errorMessage(error)))
                }
            }
        }
    }

    // MARK: - Main-actor responders

    /// Registers a responder isolated to the main actor that returns its reply synchronously:
    /// `try router.respond(to: ProductCartGetState.self) { @MainActor _ in model.state }`.
    ///
    /// On the main actor (see ``on(_:_:)-(_,(E)->Void)``), it runs before `receive` returns, so the
    /// outcome is ``Outcome/replied(_:)`` (or ``Outcome/failed(_:)`` when it throws). From another
    /// thread, it is scheduled on the main actor and the caller's outcome is
    /// ``Outcome/awaitingReply``: the reply comes when it has run, as an `async` responder's does.
    /// An `async` main-actor closure (`{ @MainActor _ async throws in … }`) is an `async` responder
    /// (``respond(to:deadline:fallback:_:)-(_,_,_,(R)->R.Reply)``) whose body runs on the main actor.
    /// - Parameters:
    ///   - type: the request type; its ``Event/channel`` is the channel answered.
    ///   - deadline: how long a caller waits; `nil` means ``RouterOptions/defaultDeadline``.
    ///   - fallback: the reply sent when the deadline passes; `nil` means callers time out.
    ///   - responder: called on the main actor; returns the reply or throws.
    /// - Returns: the token that keeps the responder. Once ``Registration/cancel()`` returns, the
    ///   responder is not called again (a request whose hop had not run fails with
    ///   ``RequestFailure/noResponder(_:)``).
    /// - Throws: ``RegistrationError/responderExists(_:)`` when the channel has a responder already.
    public func respond<R: Request, Failure: Error>(
        to type: R.Type,
        deadline: Duration? = nil,
        fallback: R.Reply? = nil,
        _ responder: @escaping @MainActor (R) throws(Failure) -> R.Reply
    ) throws(RegistrationError) -> Registration {
        let flag = CancelFlag()
        return try addResponder(
            type, deadline: deadline, fallback: fallback, replacing: false, flag: flag,
            Router.onMainActor(responder, cancelled: flag))
    }

    /// Replaces the responder of a request channel with a main-actor one, explicitly.
    /// See ``respond(to:deadline:fallback:_:)-(_,_,_,(R)->R.Reply)``.
    public func replaceResponder<R: Request, Failure: Error>(
        of type: R.Type,
        deadline: Duration? = nil,
        fallback: R.Reply? = nil,
        _ responder: @escaping @MainActor (R) throws(Failure) -> R.Reply
    ) -> Registration {
        let flag = CancelFlag()
        return
            (try? addResponder(
                type, deadline: deadline, fallback: fallback, replacing: true, flag: flag,
                Router.onMainActor(responder, cancelled: flag))) ?? .inert
    }

    /// A main-actor responder as a callback one: called at once when delivery runs on the main
    /// actor, otherwise scheduled there (answering ``RequestFailure/noResponder(_:)`` when
    /// `cancelled` is set by the time it runs).
    private static func onMainActor<R: Request, Failure: Error>(
        _ responder: @escaping @MainActor (R) throws(Failure) -> R.Reply, cancelled: CancelFlag
    ) -> @Sendable (R, Reply<R.Reply>) -> Void {
        { request, reply in
            if MainActorDelivery.isCurrent {
                MainActor.assumeIsolated {
                    do {
                        reply.succeed(try responder(request))
                    } catch {
                        reply.fail(error)
                    }
                }
                return
            }
            Task { @MainActor in
                guard !cancelled.isCancelled else {
                    reply.state.reply(.failure(.noResponder(reply.channel)), reportUnhandled: true)
                    return
                }
                do {
                    reply.succeed(try responder(request))
                } catch {
                    reply.failUnlessResolved(error)
                }
            }
        }
    }
}
