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
/// handlers run inside ``receive(_:)``, in registration order, so the order of
/// messages per channel is the order of the `receive` calls. Replies complete
/// through single-use ``Reply`` handles, now or later, from any thread.
///
/// All methods are safe to call from any thread. Handlers and observers are
/// always called outside the router's lock, so they may call back into the router.
public final class Router: Sendable {
    /// The settings the router was created with.
    public let options: RouterOptions

    let diagnostics = DiagnosticSink()
    private let state = Locked(State())

    /// Creates a router.
    /// - Parameter options: decoding, deadline, buffering and limit settings.
    public init(options: RouterOptions = RouterOptions()) {
        self.options = options
    }

    // MARK: - State

    struct HandlerEntry: Sendable {
        let id: UInt64
        let eventType: ObjectIdentifier
        let decode: @Sendable (MessageBody, DecodingOptions) throws(BodyDecodingError) -> any Sendable
        let invoke: @Sendable (any Sendable, MessageContext) throws -> Void
    }

    struct ResponderEntry: Sendable {
        let id: UInt64
        let deadline: Duration?
        let fallback: ReplyValue?
        let decode: @Sendable (MessageBody, DecodingOptions) throws(BodyDecodingError) -> any Sendable
        let invoke: @Sendable (any Sendable, ReplyState, MessageContext) -> Void
    }

    struct KeptMessage: Sendable {
        let message: Message
        let arrival: ContinuousClock.Instant
        let reply: OnceReply?
    }

    struct ChannelEntry: Sendable {
        var handlers: [HandlerEntry] = []
        var responder: ResponderEntry?
        var policy: BufferPolicy?
        var kept: [KeptMessage] = []

        var isLive: Bool { responder != nil || !handlers.isEmpty }
    }

    struct State: Sendable {
        var channels: [Channel: ChannelEntry] = [:]
        var middleware: [MiddlewareEntry] = []
        var features: [String: Feature] = [:]
        var manifestObservers: [UInt64: @Sendable (Manifest) -> Void] = [:]
        var lastManifest = Manifest(channels: [], features: [:])
        var keptTotal = 0
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID &+= 1
            return nextID
        }

        func isLive(_ channel: Channel) -> Bool {
            channels[channel]?.isLive ?? false
        }

        func computeManifest() -> Manifest {
            let live = channels.filter { $0.value.isLive }.map(\.key)
            var enabled: [String: Bool] = [:]
            for (name, feature) in features {
                enabled[name] = feature.channels.allSatisfy { isLive($0) }
            }
            return Manifest(channels: live, features: enabled)
        }

        /// Recomputes the manifest; returns the observers to tell, with the new manifest, if it changed.
        mutating func manifestChange() -> (Manifest, [@Sendable (Manifest) -> Void])? {
            let manifest = computeManifest()
            guard manifest != lastManifest else { return nil }
            lastManifest = manifest
            return (manifest, manifestObservers.sorted { $0.key < $1.key }.map(\.value))
        }
    }

    /// Runs `body` under the lock, then tells manifest observers about a change it made.
    private func mutate<R>(_ body: (inout State) -> R) -> R {
        let (result, change) = state.withLock { state -> (R, (Manifest, [@Sendable (Manifest) -> Void])?) in
            let result = body(&state)
            return (result, state.manifestChange())
        }
        if let (manifest, observers) = change {
            for observer in observers { observer(manifest) }
        }
        return result
    }

    // MARK: - Event handlers

    /// Subscribes a handler to an event's channel. Several handlers may share a
    /// channel; they run in registration order.
    ///
    /// If messages were kept for the channel (see ``setBufferPolicy(_:for:)``), they
    /// are delivered, in arrival order, before this method returns.
    /// - Parameters:
    ///   - type: the event type; its ``Event/channel`` is the channel subscribed to.
    ///   - handler: called with the decoded event and its context; a thrown error
    ///     makes the outcome ``Outcome/failed(_:)`` (the other handlers still run).
    /// - Returns: the token that keeps the subscription; cancel or release it to unsubscribe.
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
    /// (the Poq container's `replace { … }`). The replaced handlers' tokens become inert.
    /// - Returns: the token of the new handler.
    public func replaceHandlers<E: Event>(
        of type: E.Type, with handler: @escaping @Sendable (E, MessageContext) throws -> Void
    ) -> Registration {
        addHandler(type, replacing: true, handler)
    }

    private func addHandler<E: Event>(
        _ type: E.Type, replacing: Bool, _ handler: @escaping @Sendable (E, MessageContext) throws -> Void
    ) -> Registration {
        let channel = E.channel
        let id = mutate { state -> UInt64 in
            let id = state.makeID()
            let entry = HandlerEntry(
                id: id,
                eventType: ObjectIdentifier(E.self),
                decode: { body, options throws(BodyDecodingError) in try body.decode(E.self, options: options) },
                invoke: { event, context in
                    guard let event = event as? E else { return }
                    try handler(event, context)
                }
            )
            if replacing {
                state.channels[channel, default: ChannelEntry()].handlers = [entry]
            } else {
                state.channels[channel, default: ChannelEntry()].handlers.append(entry)
            }
            return id
        }
        flushKept(channel)
        return Registration { [weak self] in
            self?.mutate { state in
                state.channels[channel]?.handlers.removeAll { $0.id == id }
            }
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
    /// - Returns: the token that keeps the responder.
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
    /// - Throws: ``RegistrationError/responderExists(_:)`` when the channel has one already.
    public func respond<R: Request>(
        to type: R.Type,
        deadline: Duration? = nil,
        fallback: R.Reply? = nil,
        _ responder: @escaping @Sendable (R) async throws -> R.Reply
    ) throws(RegistrationError) -> Registration {
        try addResponder(type, deadline: deadline, fallback: fallback, replacing: false, Router.adapt(responder))
    }

    /// Replaces the responder of a request channel (or registers the first one), explicitly.
    /// The replaced responder's token becomes inert.
    public func replaceResponder<R: Request>(
        of type: R.Type,
        deadline: Duration? = nil,
        fallback: R.Reply? = nil,
        _ responder: @escaping @Sendable (R, Reply<R.Reply>) -> Void
    ) -> Registration {
        (try? addResponder(type, deadline: deadline, fallback: fallback, replacing: true, responder)) ?? .inert
    }

    /// Replaces the responder of a request channel with an `async` one, explicitly.
    public func replaceResponder<R: Request>(
        of type: R.Type,
        deadline: Duration? = nil,
        fallback: R.Reply? = nil,
        _ responder: @escaping @Sendable (R) async throws -> R.Reply
    ) -> Registration {
        (try? addResponder(type, deadline: deadline, fallback: fallback, replacing: true, Router.adapt(responder)))
            ?? .inert
    }

    private static func adapt<R: Request>(
        _ responder: @escaping @Sendable (R) async throws -> R.Reply
    ) -> @Sendable (R, Reply<R.Reply>) -> Void {
        { request, reply in
            Task {
                do {
                    reply.succeed(try await responder(request))
                } catch {
                    reply.fail(error)
                }
            }
        }
    }

    private func addResponder<R: Request>(
        _ type: R.Type,
        deadline: Duration?,
        fallback: R.Reply?,
        replacing: Bool,
        _ responder: @escaping @Sendable (R, Reply<R.Reply>) -> Void
    ) throws(RegistrationError) -> Registration {
        let channel = R.channel
        let entryFallback = fallback.map { ReplyValue($0) }
        let id = mutate { state -> UInt64? in
            if !replacing, state.channels[channel]?.responder != nil { return nil }
            let id = state.makeID()
            state.channels[channel, default: ChannelEntry()].responder = ResponderEntry(
                id: id,
                deadline: deadline,
                fallback: entryFallback,
                decode: { body, options throws(BodyDecodingError) in try body.decode(R.self, options: options) },
                invoke: { request, replyState, _ in
                    guard let request = request as? R else { return }
                    responder(request, Reply<R.Reply>(state: replyState))
                }
            )
            return id
        }
        guard let id else { throw .responderExists(channel) }
        flushKept(channel)
        return Registration { [weak self] in
            self?.mutate { state in
                if state.channels[channel]?.responder?.id == id {
                    state.channels[channel]?.responder = nil
                }
            }
        }
    }

    // MARK: - Middleware

    /// Adds a middleware at the end of the chain. Every message with a valid
    /// channel name passes through the chain in registration order.
    /// - Parameters:
    ///   - middleware: the middleware.
    ///   - name: a name for diagnostics; defaults to the middleware's type name.
    /// - Returns: the token that keeps the middleware in the chain.
    public func use(_ middleware: some MessageMiddleware, name: String? = nil) -> Registration {
        let label = name ?? String(describing: type(of: middleware))
        let id = state.withLock { state -> UInt64 in
            let id = state.makeID()
            state.middleware.append(MiddlewareEntry(id: id, name: label, middleware: middleware))
            return id
        }
        return Registration { [weak self] in
            self?.state.withLock { state in state.middleware.removeAll { $0.id == id } }
        }
    }

    // MARK: - Features and manifest

    /// Declares features, so they appear in the manifest and can be observed.
    /// Declaring a feature with the name of one declared before replaces it.
    public func declare(_ features: [Feature]) {
        mutate { state in
            for feature in features { state.features[feature.name] = feature }
        }
    }

    /// Declares features. See ``declare(_:)-([Feature])``.
    public func declare(_ features: Feature...) {
        declare(features)
    }

    /// Whether every channel `feature` needs has a handler or responder now
    /// (whether or not the feature was declared).
    public func isEnabled(_ feature: Feature) -> Bool {
        state.withLock { state in feature.channels.allSatisfy { state.isLive($0) } }
    }

    /// Whether the declared feature named `name` is enabled; `false` for an undeclared name.
    public func isEnabled(featureNamed name: String) -> Bool {
        state.withLock { state in
            guard let feature = state.features[name] else { return false }
            return feature.channels.allSatisfy { state.isLive($0) }
        }
    }

    /// The channels that have a handler or responder, and each declared feature's state.
    public var manifest: Manifest {
        state.withLock { $0.computeManifest() }
    }

    /// Calls `observer` with the new manifest each time it changes (a handler,
    /// responder or feature comes or goes). The observer runs on the thread that
    /// made the change.
    /// - Returns: the token that keeps the observer.
    public func observeManifest(_ observer: @escaping @Sendable (Manifest) -> Void) -> Registration {
        let id = state.withLock { state -> UInt64 in
            let id = state.makeID()
            state.manifestObservers[id] = observer
            return id
        }
        return Registration { [weak self] in
            self?.state.withLock { state in _ = state.manifestObservers.removeValue(forKey: id) }
        }
    }

    /// Whether `channel` has a handler or a responder.
    public func isHandled(_ channel: Channel) -> Bool {
        state.withLock { $0.isLive(channel) }
    }

    // MARK: - Diagnostics

    /// Calls `observer` with every ``Diagnostic``: unhandled and invalid messages,
    /// kept, expired and overflowing messages, failed handlers, duplicate, late and
    /// dropped replies, passed deadlines. It runs on the thread where it happened.
    /// - Returns: the token that keeps the observer.
    public func observeDiagnostics(_ observer: @escaping @Sendable (Diagnostic) -> Void) -> Registration {
        let id = state.withLock { $0.makeID() }
        diagnostics.add(id, observer)
        return Registration { [diagnostics] in diagnostics.remove(id) }
    }

    // MARK: - Buffering

    /// Sets what `channel` does with messages that arrive before it has a handler.
    /// Switching to ``BufferPolicy/drop`` discards (and reports) what was kept.
    public func setBufferPolicy(_ policy: BufferPolicy, for channel: Channel) {
        let discarded = state.withLock { state -> [KeptMessage] in
            state.channels[channel, default: ChannelEntry()].policy = policy
            guard policy == .drop, let kept = state.channels[channel]?.kept, !kept.isEmpty else { return [] }
            state.channels[channel]?.kept = []
            state.keptTotal -= kept.count
            return kept
        }
        for message in discarded { discard(message, on: channel, diagnostic: .unhandled(channel)) }
    }

    /// The policy in effect for `channel`.
    public func bufferPolicy(for channel: Channel) -> BufferPolicy {
        state.withLock { $0.channels[channel]?.policy } ?? options.defaultBufferPolicy
    }

    /// How many messages are kept for `channel`, waiting for a handler.
    public func keptCount(for channel: Channel) -> Int {
        state.withLock { $0.channels[channel]?.kept.count ?? 0 }
    }

    /// Discards kept messages that waited longer than their channel's policy allows, reporting each.
    /// The router also does this on its own when a kept message's time is up.
    public func discardExpiredMessages() {
        let now = ContinuousClock.now
        let expired = state.withLock { state -> [(Channel, KeptMessage)] in
            var expired: [(Channel, KeptMessage)] = []
            for (channel, entry) in state.channels where !entry.kept.isEmpty {
                guard case .keep(_, let limit) = entry.policy ?? options.defaultBufferPolicy else { continue }
                let (old, fresh) = entry.kept.partitioned { now - $0.arrival >= limit }
                guard !old.isEmpty else { continue }
                state.channels[channel]?.kept = fresh
                state.keptTotal -= old.count
                expired += old.map { (channel, $0) }
            }
            return expired
        }
        for (channel, message) in expired { discard(message, on: channel, diagnostic: .keptExpired(channel)) }
    }

    private func discard(_ kept: KeptMessage, on channel: Channel, diagnostic: Diagnostic) {
        diagnostics.emit(diagnostic)
        kept.reply?.resolve(.failure(.noResponder(channel)))
    }

    /// Keeps a message that found no handler, according to `policy`.
    private func keep(_ message: Message, policy: BufferPolicy, reply: OnceReply?) -> Outcome {
        let channel = message.channel
        let kept = KeptMessage(message: message, arrival: .now, reply: reply)
        let perChannel: Int
        switch policy {
        case .drop: perChannel = 0
        case .keepLast: perChannel = 1
        case .keep(let max, _): perChannel = Swift.max(0, Swift.min(max, options.maxKeptPerChannel))
        }
        let (accepted, overflow, count) = state.withLock { state -> (Bool, [KeptMessage], Int) in
            var entry = state.channels[channel] ?? ChannelEntry()
            // A handler may have registered since delivery looked: deliver instead.
            if entry.isLive { return (false, [], 0) }
            var overflow: [KeptMessage] = []
            if perChannel == 0 || options.maxKeptTotal <= 0 { return (true, [kept], 0) }
            entry.kept.append(kept)
            state.keptTotal += 1
            while entry.kept.count > perChannel {
                overflow.append(entry.kept.removeFirst())
                state.keptTotal -= 1
            }
            if state.keptTotal > options.maxKeptTotal, overflow.isEmpty, entry.kept.count > 0 {
                overflow.append(entry.kept.removeFirst())
                state.keptTotal -= 1
            }
            state.channels[channel] = entry
            return (true, overflow, entry.kept.count)
        }
        guard accepted else { return deliver(message, reply: reply) }
        for message in overflow { discard(message, on: channel, diagnostic: .keptOverflow(channel)) }
        if overflow.contains(where: { $0.arrival == kept.arrival && $0.message.id == message.id }) && count == 0 {
            return .unhandled
        }
        diagnostics.emit(.kept(channel, count: count))
        if case .keep(_, let limit) = policy {
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(limit.nanosecondsClamped)) {
                [weak self] in self?.discardExpiredMessages()
            }
        }
        reply?.armDeadline(options.defaultDeadline, channel: channel)
        return .kept
    }

    /// Delivers what was kept for `channel` to the handler that just registered.
    private func flushKept(_ channel: Channel) {
        discardExpiredMessages()
        let kept = state.withLock { state -> [KeptMessage] in
            guard let entry = state.channels[channel], entry.isLive, !entry.kept.isEmpty else { return [] }
            state.channels[channel]?.kept = []
            state.keptTotal -= entry.kept.count
            return entry.kept
        }
        guard !kept.isEmpty else { return }
        var delivered = 0
        for message in kept where !(message.reply?.isResolved ?? false) {
            _ = deliver(message.message, reply: message.reply)
            delivered += 1
        }
        diagnostics.emit(.keptDelivered(channel, count: delivered))
    }

    // MARK: - Receiving

    /// Routes one message from a loosely typed source (`WKScriptMessage`,
    /// `JSONSerialization`): validates the name, runs middleware, decodes the
    /// body and delivers it.
    /// - Parameters:
    ///   - name: the channel name as received.
    ///   - body: the body; `nil` means no body.
    /// - Returns: what happened to the message.
    public func receive(name: String, body: Any?) -> Outcome {
        receive(name: name, body: MessageBody(body), replyHandler: nil)
    }

    /// Routes one message. See ``receive(name:body:)``.
    public func receive(_ message: Message) -> Outcome {
        dispatch(message, reply: nil)
    }

    /// Routes one message and resolves `replyHandler` exactly once with its reply:
    /// a request's reply (now or later), `ReplyValue.none` for a handled event, or
    /// the ``RequestFailure`` that says why there is none. This is the shape of
    /// `WKScriptMessageHandlerWithReply`.
    /// - Returns: what happened to the message (``Outcome/awaitingReply`` while a reply is pending).
    public func receive(
        _ message: Message,
        replyHandler: @escaping @Sendable (Result<ReplyValue, RequestFailure>) -> Void
    ) -> Outcome {
        dispatch(message, reply: OnceReply(replyHandler))
    }

    /// Routes one message by name; `replyHandler` (when given) is resolved exactly once.
    /// See ``receive(_:replyHandler:)``.
    public func receive(
        name: String,
        body: MessageBody,
        id: String? = nil,
        replyHandler: (@Sendable (Result<ReplyValue, RequestFailure>) -> Void)?
    ) -> Outcome {
        let channel: Channel
        do {
            channel = try Channel(validating: name)
        } catch {
            diagnostics.emit(.invalidChannel(name: name, error))
            replyHandler?(.failure(.invalidChannel(name: name, error)))
            return .invalidChannel(error)
        }
        let message = Message(channel: channel, body: body, id: id)
        return dispatch(message, reply: replyHandler.map(OnceReply.init))
    }

    private func dispatch(_ message: Message, reply: OnceReply?) -> Outcome {
        let middleware = state.withLock { $0.middleware }
        if middleware.isEmpty {
            return deliver(message, reply: reply)
        }
        let chain = MiddlewareChain(
            entries: middleware,
            deliver: { [self] message in self.deliver(message, reply: reply) },
            report: diagnostics
        )
        let outcome = chain.run(message, from: 0)
        if let reply, !reply.isResolved, !reply.isHeld {
            reply.resolve(Router.result(of: outcome, on: message.channel))
        }
        return outcome
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
        }
    }

    /// Delivers a message (after middleware) to the channel's responder or handlers,
    /// or applies the channel's policy when it has neither.
    private func deliver(_ message: Message, reply: OnceReply?) -> Outcome {
        let channel = message.channel
        let (handlers, responder, policy) = state.withLock { state in
            let entry = state.channels[channel]
            return (entry?.handlers ?? [], entry?.responder, entry?.policy)
        }
        let context = MessageContext(message: message, options: options.decoding)

        if let responder {
            let request: any Sendable
            do {
                request = try responder.decode(message.body, options.decoding)
            } catch {
                return invalid(error, on: channel, reply: reply)
            }
            var failures: [String] = []
            if !handlers.isEmpty {
                switch runHandlers(handlers, context: context) {
                case .failure(let error): return invalid(error, on: channel, reply: reply)
                case .success(let errors): failures = errors
                }
            }
            var completion: ReplyState.Completion?
            if let reply {
                reply.hold()
                completion = { result in reply.resolve(result) }
            }
            let replyState = ReplyState(
                channel: channel, fallback: responder.fallback, report: diagnostics, completion: completion)
            responder.invoke(request, replyState, context)
            guard let result = replyState.result else {
                replyState.armDeadline(responder.deadline ?? options.defaultDeadline)
                return .awaitingReply
            }
            switch result {
            case .success(let value):
                return failures.isEmpty ? .replied(value) : .failed(HandlerFailure(channel: channel, errors: failures))
            case .failure(let failure):
                diagnostics.emit(.responderFailed(channel, message: failure.message))
                return .failed(HandlerFailure(channel: channel, errors: failures + [failure.message]))
            }
        }

        if !handlers.isEmpty {
            switch runHandlers(handlers, context: context) {
            case .failure(let error):
                return invalid(error, on: channel, reply: reply)
            case .success(let errors) where errors.isEmpty:
                reply?.resolve(.success(.none))
                return .handled(count: handlers.count)
            case .success(let errors):
                let failure = HandlerFailure(
                    channel: channel, errors: errors, succeeded: handlers.count - errors.count)
                reply?.resolve(.failure(.responderFailed(channel, message: failure.message)))
                return .failed(failure)
            }
        }

        let effective = policy ?? options.defaultBufferPolicy
        if effective != .drop {
            return keep(message, policy: effective, reply: reply)
        }
        diagnostics.emit(.unhandled(channel))
        reply?.resolve(.failure(.noResponder(channel)))
        return .unhandled
    }

    private func invalid(_ error: BodyDecodingError, on channel: Channel, reply: OnceReply?) -> Outcome {
        diagnostics.emit(.invalidBody(channel, error))
        reply?.resolve(.failure(.invalidBody(channel, error)))
        return .invalid(error)
    }

    /// Decodes the body once per event type, then runs the handlers in order.
    /// - Returns: the decoding failure (no handler ran), or the messages of the handlers that threw.
    private func runHandlers(
        _ handlers: [HandlerEntry], context: MessageContext
    ) -> Result<[String], BodyDecodingError> {
        var events: [any Sendable] = []
        events.reserveCapacity(handlers.count)
        for (index, handler) in handlers.enumerated() {
            if let earlier = handlers[..<index].firstIndex(where: { $0.eventType == handler.eventType }) {
                events.append(events[earlier])
                continue
            }
            do {
                events.append(try handler.decode(context.body, context.options))
            } catch {
                return .failure(error)
            }
        }
        var errors: [String] = []
        for (handler, event) in zip(handlers, events) {
            do {
                try handler.invoke(event, context)
            } catch {
                let message = errorMessage(error)
                diagnostics.emit(.handlerFailed(context.channel, message: message))
                errors.append(message)
            }
        }
        return .success(errors)
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

extension Array {
    /// Splits into the elements that match `predicate` and those that do not, keeping order.
    fileprivate func partitioned(by predicate: (Element) -> Bool) -> ([Element], [Element]) {
        var matching: [Element] = []
        var rest: [Element] = []
        for element in self {
            if predicate(element) { matching.append(element) } else { rest.append(element) }
        }
        return (matching, rest)
    }
}
