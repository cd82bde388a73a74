extension Router {
    /// What delivery needs to know about one channel: its handlers, its responder
    /// and its buffer policy.
    ///
    /// Immutable: a registration makes a new route and stores it in a new
    /// ``RoutingTable``, so delivery uses the route it read however the table
    /// changes meanwhile (a cancelled entry is skipped: see ``CancelFlag``).
    final class Route: Sendable {
        /// The parts of a route that registrations change.
        struct Parts: Sendable {
            var handlers: [HandlerEntry] = []
            var responder: ResponderEntry?
            var policy: BufferPolicy?
            /// Who may call the channel, when it has a policy of its own (see `Router+Policy.swift`).
            var originPolicy: OriginPolicy?
            /// Whether messages kept before the channel had a handler are being delivered:
            /// a message arriving meanwhile queues behind them (see `Router.deliver`).
            var isDraining = false
        }

        let handlers: [HandlerEntry]
        let responder: ResponderEntry?
        let policy: BufferPolicy?
        let originPolicy: OriginPolicy?
        let isDraining: Bool
        /// Whether every handler takes the same event type, so the body is decoded once
        /// into that type and handed to each handler without boxing (the usual case).
        let handlersShareEventType: Bool

        /// No handlers, responder or policy: the route of a channel the table does not hold.
        static let empty = Route(Parts())

        init(_ parts: Parts) {
            handlers = parts.handlers
            responder = parts.responder
            policy = parts.policy
            originPolicy = parts.originPolicy
            isDraining = parts.isDraining
            let firstType = parts.handlers.first?.eventType
            handlersShareEventType = parts.handlers.allSatisfy { $0.eventType == firstType }
        }

        var parts: Parts {
            Parts(
                handlers: handlers, responder: responder, policy: policy, originPolicy: originPolicy,
                isDraining: isDraining)
        }

        /// Whether the channel has a handler or a responder.
        var isLive: Bool { responder != nil || !handlers.isEmpty }

        /// Whether the route holds nothing worth keeping (so a channel name from outside leaves no trace).
        var isVacant: Bool { !isLive && policy == nil && originPolicy == nil && !isDraining }
    }

    /// One subscribed handler: its id (for its token), its event type, the typed
    /// handler and the flag its token sets when cancelled.
    struct HandlerEntry: Sendable {
        let id: UInt64
        let eventType: ObjectIdentifier
        let handler: EventHandling
        let cancelled: CancelFlag
    }

    /// A responder with its deadline and fallback (a class, so a route copies one reference).
    final class ResponderEntry: Sendable {
        let id: UInt64
        let deadline: Duration?
        let fallback: ReplyValue?
        /// Decodes the request and calls the responder, typed (no existential box, no cast).
        let responder: Responding
        let cancelled: CancelFlag

        init(id: UInt64, deadline: Duration?, fallback: ReplyValue?, responder: Responding, cancelled: CancelFlag) {
            self.id = id
            self.deadline = deadline
            self.fallback = fallback
            self.responder = responder
            self.cancelled = cancelled
        }
    }
}

/// The responder of one request type, with the decoding of that type.
///
/// A class, so the request stays typed from decoding to the responder. Every
/// responder is a ``TypedResponder`` (the router makes no other), which
/// overrides ``respond(to:options:cancelled:beforeResponding:makeState:)``; the base is
/// never called (a debug build stops if it is).
class Responding: @unchecked Sendable {
    // `@unchecked`: not final (see `TypedResponder`); it has no stored properties.

    /// Decodes `body` as the request, runs `beforeResponding` (the channel's event
    /// handlers), then, unless `cancelled` is set by then, calls the responder with a
    /// reply handle on the state `makeState` gives (`nil`: the request may not go to a responder).
    /// - Returns: what `beforeResponding` returned (the messages of handlers that threw) and
    ///   the state, `nil` when the responder was not called (cancelled, or `makeState` refused).
    /// - Throws: the decoding failure (then nothing else ran), or what `beforeResponding` threw.
    func respond(
        to body: MessageBody, options: DecodingOptions, cancelled: CancelFlag,
        beforeResponding: () throws(BodyDecodingError) -> [String], makeState: () -> ReplyState?
    ) throws(BodyDecodingError) -> (failures: [String], state: ReplyState?) {
        assertionFailure("every responder is a TypedResponder")
        return ([], nil)
    }
}

/// The responder of requests of type `R`.
final class TypedResponder<R: Request>: Responding, @unchecked Sendable {
    // `@unchecked`: its one stored property is an immutable `Sendable` closure.
    let responder: @Sendable (R, Reply<R.Reply>) -> Void
    /// `Reply<R.Reply>`, looked up once: this class's code is generic, so naming the type
    /// in `respond` would look its metadata up in the runtime's cache on every request.
    private let replyType: Reply<R.Reply>.Type
    /// `TypedReplyBox<R.Reply>`, the box of every reply, looked up once for the same reason.
    private let replyBoxType: TypedReplyBox<R.Reply>.Type

    init(_ responder: @escaping @Sendable (R, Reply<R.Reply>) -> Void) {
        self.responder = responder
        replyType = Reply<R.Reply>.self
        replyBoxType = TypedReplyBox<R.Reply>.self
    }

    override func respond(
        to body: MessageBody, options: DecodingOptions, cancelled: CancelFlag,
        beforeResponding: () throws(BodyDecodingError) -> [String], makeState: () -> ReplyState?
    ) throws(BodyDecodingError) -> (failures: [String], state: ReplyState?) {
        let request = try body.decode(R.self, options: options)
        let failures = try beforeResponding()
        // Checked last, right before the call: once `cancel()` has returned, the responder is not called.
        // Announced before the state is claimed and the handle made (no user code), withdrawn right
        // before the call: a `cancel()` under way waits for this caller only until then.
        guard cancelled.enter() else { return (failures, nil) }
        guard let state = makeState() else {
            cancelled.leave()
            return (failures, nil)
        }
        let reply = replyType.init(state: state, boxType: replyBoxType)
        cancelled.leave()
        responder(request, reply)
        return (failures, state)
    }
}

/// A handler of one event type, with the decoding of that type.
///
/// A class rather than a protocol, so delivery calls a route's handlers through
/// `Unretained` without retaining them (a protocol existential cannot be). Every
/// handler is a ``TypedEventHandler`` (the router makes no other), which overrides
/// all three methods; the base class is never called (a debug build stops if it is).
class EventHandling: @unchecked Sendable {
    // `@unchecked`: not final (see `TypedEventHandler`); it has no stored properties.

    /// Decodes the body as this handler's event type (for channels whose handlers take several types).
    func decodeEvent(_ body: MessageBody, options: DecodingOptions) throws(BodyDecodingError) -> any Sendable {
        assertionFailure("every handler is a TypedEventHandler")
        return ()
    }

    /// Calls the handler with an event decoded by ``decodeEvent(_:options:)`` of a handler of the same type.
    func invoke(_ event: any Sendable, context: MessageContext) throws {
        assertionFailure("every handler is a TypedEventHandler")
    }

    /// Decodes the body once and calls every handler of `route` (all of this
    /// handler's event type) in order, skipping those cancelled by then.
    /// - Returns: the messages of the handlers that threw, each reported to `diagnostics`,
    ///   and how many handlers were called.
    func runAll(
        _ route: Router.Route, context: MessageContext, diagnostics: DiagnosticSink
    ) throws(BodyDecodingError) -> (errors: [String], called: Int) {
        assertionFailure("every handler is a TypedEventHandler")
        return ([], 0)
    }
}

/// A handler of events of type `E`.
final class TypedEventHandler<E: Event>: EventHandling, @unchecked Sendable {
    // `@unchecked`: every stored property is an immutable `Sendable` value.
    let handler: @Sendable (E, MessageContext) throws -> Void
    /// `E.init()` when `E` is a ``BodylessEvent``: such an event ignores its body,
    /// so it is made without running a decoder.
    private let makeBodyless: (@Sendable () -> E)?

    init(_ handler: @escaping @Sendable (E, MessageContext) throws -> Void) {
        self.handler = handler
        makeBodyless = TypedEventHandler.bodylessInitializer()
        super.init()
    }

    /// `E.init` when `E` is a ``BodylessEvent``, else `nil`.
    private static func bodylessInitializer() -> (@Sendable () -> E)? {
        guard let bodyless = E.self as? any BodylessEvent.Type else { return nil }
        func initializer<B: BodylessEvent>(_: B.Type) -> (@Sendable () -> E)? {
            let make: @Sendable () -> B = { B() }
            return make as? @Sendable () -> E
        }
        return initializer(bodyless)
    }

    func decode(_ body: MessageBody, options: DecodingOptions) throws(BodyDecodingError) -> E {
        // Called through optional chaining: binding the closure first would retain it.
        if let event = makeBodyless?() { return event }
        return try body.decode(E.self, options: options)
    }

    override func decodeEvent(_ body: MessageBody, options: DecodingOptions) throws(BodyDecodingError) -> any Sendable {
        try decode(body, options: options)
    }

    override func invoke(_ event: any Sendable, context: MessageContext) throws {
        guard let event = event as? E else { return }
        try handler(event, context)
    }

    override func runAll(
        _ route: Router.Route, context: MessageContext, diagnostics: DiagnosticSink
    ) throws(BodyDecodingError) -> (errors: [String], called: Int) {
        let handlers = route.handlers
        let event = try decode(context.body, options: context.options)
        var errors: [String] = []
        var called = 0
        for index in handlers.indices {
            let cancelled = handlers[index].cancelled
            do {
                // Every entry has this entry's event type, so its handler is of this class
                // (checked by class identity, which needs no runtime type lookup, unlike `as?`).
                // `route` (the caller's) keeps its handler list, and so this handler, alive:
                // it is called without another retain. The flag is checked right before the
                // call: once `cancel()` has returned, the handler is not called.
                try Unretained(handlers[index].handler).call { handler in
                    if ObjectIdentifier(type(of: handler)) == ObjectIdentifier(type(of: self)) {
                        let typed = unsafeDowncast(handler, to: Self.self)
                        guard !cancelled.isCancelled else { return }
                        called &+= 1
                        try typed.handler(event, context)
                    } else {
                        guard !cancelled.isCancelled else { return }
                        called &+= 1
                        try handler.invoke(event, context: context)
                    }
                }
            } catch {
                let message = errorMessage(error)
                diagnostics.emit(.handlerFailed(context.channel, message: message))
                errors.append(message)
            }
        }
        return (errors, called)
    }
}
