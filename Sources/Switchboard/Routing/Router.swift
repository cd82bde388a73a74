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

    struct KeptMessage: Sendable {
        let message: Message
        let arrival: ContinuousClock.Instant
        let reply: OnceReply?
    }

    struct State: Sendable {
        /// The routes and the middleware, replaced as a whole on every change: delivery
        /// copies out one route (which carries the chain) under the lock and reads it outside.
        var table = RoutingTable(routes: [:], middleware: [])
        /// Every channel with a handler, a responder or a buffer policy.
        var routes: [Channel: Route] { table.routes }
        /// Messages kept for channels with no handler yet, in arrival order; no empty lists.
        var kept: [Channel: [KeptMessage]] = [:]
        /// The middleware chain, in registration order.
        var middleware: [MiddlewareEntry] {
            get { table.middleware }
            set { table = table.replacing(middleware: newValue) }
        }
        var features: [String: Feature] = [:]
        /// In registration order (ids only grow).
        var manifestObservers: [(id: UInt64, observer: @Sendable (Manifest) -> Void)] = []
        var lastManifest = Manifest(channels: [], features: [:])
        /// Manifests computed but not yet told to observers, oldest first.
        var pendingManifests: [Manifest] = []
        /// Whether a thread is telling observers (it tells every pending manifest, in order).
        var notifying = false
        var keptTotal = 0
        var nextID: UInt64 = 0

        mutating func makeID() -> UInt64 {
            nextID &+= 1
            return nextID
        }

        func isLive(_ channel: Channel) -> Bool {
            routes[channel]?.isLive ?? false
        }

        /// Changes the route of `channel`, removing it when it holds nothing.
        mutating func updateRoute(_ channel: Channel, _ change: (inout Route.Parts) -> Void) {
            table = table.updating(channel, change)
        }

        func computeManifest() -> Manifest {
            let live = routes.filter { $0.value.isLive }.map(\.key)
            var enabled: [String: Bool] = [:]
            for (name, feature) in features {
                enabled[name] = feature.channels.allSatisfy { isLive($0) }
            }
            return Manifest(channels: live, features: enabled)
        }

        /// Recomputes the manifest and queues it for observers if it changed.
        /// - Returns: whether the caller must now tell observers (no other thread is doing it).
        mutating func queueManifestChange() -> Bool {
            let manifest = computeManifest()
            guard manifest != lastManifest else { return false }
            lastManifest = manifest
            guard !manifestObservers.isEmpty else { return false }
            pendingManifests.append(manifest)
            guard !notifying else { return false }
            notifying = true
            return true
        }

        /// Takes the kept messages of `channel` for delivery, after removing those that
        /// expired under `policy`. Returns (to deliver, expired), both in arrival order.
        mutating func takeKept(
            _ channel: Channel, now: ContinuousClock.Instant, defaultPolicy: BufferPolicy
        ) -> ([KeptMessage], [KeptMessage]) {
            guard let kept = self.kept.removeValue(forKey: channel) else { return ([], []) }
            keptTotal -= kept.count
            guard case .keep(_, let limit) = routes[channel]?.policy ?? defaultPolicy else { return (kept, []) }
            let (expired, fresh) = kept.partitioned { now - $0.arrival >= limit }
            return (fresh, expired)
        }
    }

    /// Runs `body` under the lock, then tells manifest observers about any change it made.
    private func mutate<R>(_ body: (inout State) -> R) -> R {
        Router.mutate(state, body)
    }

    /// ``mutate(_:)`` on a router's state. Tokens and timers hold the state weakly,
    /// not the router: a weakly referenced object takes the slow path of every
    /// retain and release, and the router is retained on every message.
    private static func mutate<R>(_ state: Locked<State>, _ body: (inout State) -> R) -> R {
        let (result, mustNotify) = state.withLock { state -> (R, Bool) in
            let result = body(&state)
            return (result, state.queueManifestChange())
        }
        if mustNotify { notifyManifestObservers(state) }
        return result
    }

    /// Tells observers every queued manifest, oldest first, outside the lock.
    ///
    /// One thread at a time does this, so observers see changes in the order they
    /// were made and the last manifest they see is the current one, even when
    /// threads register concurrently. A change made by an observer (or by another
    /// thread meanwhile) is queued and told by the same loop.
    private static func notifyManifestObservers(_ state: Locked<State>) {
        while true {
            let next = state.withLock { state -> (Manifest, [@Sendable (Manifest) -> Void])? in
                guard !state.pendingManifests.isEmpty else {
                    state.notifying = false
                    return nil
                }
                return (state.pendingManifests.removeFirst(), state.manifestObservers.map(\.observer))
            }
            guard let (manifest, observers) = next else { return }
            for observer in observers { observer(manifest) }
        }
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
        let now = ContinuousClock.now
        let defaultPolicy = options.defaultBufferPolicy
        let typed = TypedEventHandler(handler)
        let (id, kept, expired) = mutate { state -> (UInt64, [KeptMessage], [KeptMessage]) in
            let id = state.makeID()
            let entry = HandlerEntry(id: id, eventType: ObjectIdentifier(E.self), handler: typed)
            state.updateRoute(channel) { route in
                if replacing {
                    route.handlers = [entry]
                } else {
                    route.handlers.append(entry)
                }
            }
            // Taken in the same step as the registration, so no message kept before it is missed.
            let (kept, expired) = state.takeKept(channel, now: now, defaultPolicy: defaultPolicy)
            return (id, kept, expired)
        }
        deliverKept(kept, expired: expired, on: channel)
        return Registration { [weak state] in
            guard let state else { return }
            Router.mutate(state) { state in
                guard state.routes[channel]?.handlers.contains(where: { $0.id == id }) == true else { return }
                state.updateRoute(channel) { route in route.handlers.removeAll { $0.id == id } }
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
            let task = Task {
                do {
                    reply.succeed(try await responder(request))
                } catch is CancellationError where reply.isResolved {
                    // Cancelled because the deadline passed: the caller has its answer already.
                } catch {
                    reply.fail(error)
                }
            }
            reply.state.onDeadline { task.cancel() }
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
        let now = ContinuousClock.now
        let defaultPolicy = options.defaultBufferPolicy
        let registered = mutate { state -> (UInt64, [KeptMessage], [KeptMessage])? in
            if !replacing, state.routes[channel]?.responder != nil { return nil }
            let id = state.makeID()
            let responderEntry = ResponderEntry(
                id: id, deadline: deadline, fallback: entryFallback, responder: TypedResponder(responder))
            state.updateRoute(channel) { route in route.responder = responderEntry }
            let (kept, expired) = state.takeKept(channel, now: now, defaultPolicy: defaultPolicy)
            return (id, kept, expired)
        }
        guard let (id, kept, expired) = registered else { throw .responderExists(channel) }
        deliverKept(kept, expired: expired, on: channel)
        return Registration { [weak state] in
            guard let state else { return }
            Router.mutate(state) { state in
                if state.routes[channel]?.responder?.id == id {
                    state.updateRoute(channel) { route in route.responder = nil }
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
        return Registration { [weak state] in
            state?.withLock { state in state.middleware.removeAll { $0.id == id } }
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
            state.manifestObservers.append((id, observer))
            return id
        }
        return Registration { [weak state] in
            state?.withLock { state in state.manifestObservers.removeAll { $0.id == id } }
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
    ///
    /// Switching to ``BufferPolicy/drop`` discards what was kept, reporting each as
    /// ``Diagnostic/unhandled(_:)``; switching to a smaller buffer discards the
    /// oldest kept messages, reporting each as ``Diagnostic/keptOverflow(_:)``.
    /// A discarded request's caller gets ``RequestFailure/noResponder(_:)``.
    public func setBufferPolicy(_ policy: BufferPolicy, for channel: Channel) {
        let capacity = self.capacity(of: policy)
        let discarded = state.withLock { state -> [KeptMessage] in
            state.updateRoute(channel) { route in route.policy = policy }
            guard let kept = state.kept[channel], kept.count > capacity else { return [] }
            let excess = Array(kept.prefix(kept.count - capacity))
            state.kept[channel] = capacity > 0 ? Array(kept.suffix(capacity)) : nil
            state.keptTotal -= excess.count
            return excess
        }
        let diagnostic: Diagnostic = policy == .drop ? .unhandled(channel) : .keptOverflow(channel)
        for message in discarded { discard(message, on: channel, diagnostic: diagnostic) }
    }

    /// The policy in effect for `channel`: the one set with ``setBufferPolicy(_:for:)``,
    /// or ``RouterOptions/defaultBufferPolicy``.
    public func bufferPolicy(for channel: Channel) -> BufferPolicy {
        state.withLock { $0.routes[channel]?.policy } ?? options.defaultBufferPolicy
    }

    /// How many messages are kept for `channel`, waiting for a handler.
    public func keptCount(for channel: Channel) -> Int {
        state.withLock { $0.kept[channel]?.count ?? 0 }
    }

    /// How many messages are kept on all channels together (at most ``RouterOptions/maxKeptTotal``).
    public var keptTotal: Int {
        state.withLock { $0.keptTotal }
    }

    /// Discards kept messages that waited longer than their channel's policy allows,
    /// reporting each as ``Diagnostic/keptExpired(_:)``. The router also does this on
    /// its own when a kept message's time is up, and before delivering kept messages.
    public func discardExpiredMessages() {
        Router.discardExpiredMessages(state, defaultPolicy: options.defaultBufferPolicy, diagnostics: diagnostics)
    }

    /// ``discardExpiredMessages()`` on a router's state (see ``mutate(_:_:)`` for why not on the router).
    private static func discardExpiredMessages(
        _ state: Locked<State>, defaultPolicy: BufferPolicy, diagnostics: DiagnosticSink
    ) {
        let now = ContinuousClock.now
        let expired = state.withLock { state -> [(Channel, KeptMessage)] in
            var expired: [(Channel, KeptMessage)] = []
            for (channel, kept) in state.kept {
                guard case .keep(_, let limit) = state.routes[channel]?.policy ?? defaultPolicy else {
                    continue
                }
                let (old, fresh) = kept.partitioned { now - $0.arrival >= limit }
                guard !old.isEmpty else { continue }
                state.kept[channel] = fresh.isEmpty ? nil : fresh
                state.keptTotal -= old.count
                expired += old.map { (channel, $0) }
            }
            return expired
        }
        for (channel, message) in expired {
            discard(message, on: channel, diagnostic: .keptExpired(channel), diagnostics: diagnostics)
        }
    }

    private func discard(_ kept: KeptMessage, on channel: Channel, diagnostic: Diagnostic) {
        Router.discard(kept, on: channel, diagnostic: diagnostic, diagnostics: diagnostics)
    }

    private static func discard(
        _ kept: KeptMessage, on channel: Channel, diagnostic: Diagnostic, diagnostics: DiagnosticSink
    ) {
        diagnostics.emit(diagnostic)
        kept.reply?.resolve(.failure(.noResponder(channel)))
    }

    /// How many messages a policy keeps on one channel, within ``RouterOptions/maxKeptPerChannel``.
    private func capacity(of policy: BufferPolicy) -> Int {
        switch policy {
        case .drop: return 0
        case .keepLast: return Swift.min(1, Swift.max(0, options.maxKeptPerChannel))
        case .keep(let max, _): return Swift.max(0, Swift.min(max, options.maxKeptPerChannel))
        }
    }

    /// Keeps a message that found no handler, according to `policy`.
    private func keep(_ message: Message, policy: BufferPolicy, reply: OnceReply?) -> Outcome {
        enum Decision {
            case deliverNow
            case refused
            case kept(count: Int, overflow: [KeptMessage])
            case pushedOut(overflow: [KeptMessage])
        }
        let channel = message.channel
        let capacity = self.capacity(of: policy)
        let maxTotal = options.maxKeptTotal
        reply?.markKept()
        let kept = KeptMessage(message: message, arrival: .now, reply: reply)
        let decision = state.withLock { state -> Decision in
            // A handler may have registered since delivery looked: deliver instead.
            if state.isLive(channel) { return .deliverNow }
            if capacity == 0 || maxTotal <= 0 { return .refused }
            var overflow: [KeptMessage] = []
            var total = state.keptTotal + 1
            var list = state.kept.removeValue(forKey: channel) ?? []
            list.append(kept)
            // Past either limit, the channel's oldest kept message goes (the new one last of all).
            while list.count > capacity || (total > maxTotal && !list.isEmpty) {
                overflow.append(list.removeFirst())
                total -= 1
            }
            let count = list.count
            state.kept[channel] = list.isEmpty ? nil : list
            state.keptTotal = total
            // The new message is the last one appended, so it survived if anything is left.
            if count == 0 {
                return .pushedOut(overflow: overflow)
            }
            return .kept(count: count, overflow: overflow)
        }
        switch decision {
        case .deliverNow:
            return deliver(message, route: nil, reply: reply)
        case .refused:
            discard(kept, on: channel, diagnostic: .keptOverflow(channel))
            return .unhandled
        case .pushedOut(let overflow):
            for message in overflow { discard(message, on: channel, diagnostic: .keptOverflow(channel)) }
            return .unhandled
        case .kept(let count, let overflow):
            for message in overflow { discard(message, on: channel, diagnostic: .keptOverflow(channel)) }
            diagnostics.emit(.kept(channel, count: count))
            if case .keep(_, let limit) = policy {
                let defaultPolicy = options.defaultBufferPolicy
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(limit.nanosecondsClamped)) {
                    [weak state, diagnostics] in
                    guard let state else { return }
                    Router.discardExpiredMessages(state, defaultPolicy: defaultPolicy, diagnostics: diagnostics)
                }
            }
            if let reply { armKeptDeadline(reply, on: channel) }
            return .kept
        }
    }

    /// Times out a kept request after ``RouterOptions/defaultDeadline`` unless a
    /// responder took it by then (the responder's own deadline applies from delivery).
    private func armKeptDeadline(_ reply: OnceReply, on channel: Channel) {
        let deadline = options.defaultDeadline
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(deadline.nanosecondsClamped)) {
            [weak state, diagnostics] in
            guard !reply.isResolved else { return }
            state?.withLock { state in
                guard var list = state.kept[channel], let index = list.firstIndex(where: { $0.reply === reply })
                else { return }
                list.remove(at: index)
                state.kept[channel] = list.isEmpty ? nil : list
                state.keptTotal -= 1
            }
            // Reported before the caller resumes, as the other deadline paths do.
            // (Reported only while the router lives, which its state does not outlive.)
            reply.resolveUnlessAtResponder(.failure(.timedOut(channel, after: deadline))) {
                if state != nil { diagnostics.emit(.deadlinePassed(channel, after: deadline, usedFallback: false)) }
            }
        }
    }

    /// Delivers what was kept for `channel` to the handler or responder that just
    /// registered, in arrival order, after reporting what expired.
    private func deliverKept(_ kept: [KeptMessage], expired: [KeptMessage], on channel: Channel) {
        for message in expired { discard(message, on: channel, diagnostic: .keptExpired(channel)) }
        guard !kept.isEmpty else { return }
        var delivered = 0
        for message in kept where !(message.reply?.isResolved ?? false) {
            _ = deliver(message.message, route: nil, reply: message.reply)
            delivered += 1
        }
        if delivered > 0 { diagnostics.emit(.keptDelivered(channel, count: delivered)) }
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
        // Tested against nil first: binding an `Any?` copies it through runtime calls.
        if body == nil { return receive(name: name, body: MessageBody(storage: .absent), id: nil, replyHandler: nil) }
        return receive(name: name, body: MessageBody(body), id: nil, replyHandler: nil)
    }

    /// Routes one message. See ``receive(name:body:)``.
    public func receive(_ message: Message) -> Outcome {
        dispatch(message, reply: nil, route: route(of: message.channel))
    }

    /// Routes one message and resolves `replyHandler` exactly once with its reply:
    /// a request's reply (now or later), `ReplyValue.none` for a handled event, or
    /// the ``RequestFailure`` that says why there is none. This is the shape of
    /// `WKScriptMessageHandlerWithReply`.
    ///
    /// `replyHandler` runs on the thread that resolves the message: the calling
    /// thread when the answer is known before this method returns, otherwise the
    /// thread that replies, a timer thread (deadlines), or the thread that
    /// registers a responder (kept messages).
    /// - Returns: what happened to the message (``Outcome/awaitingReply`` while a
    ///   responder's reply is pending, ``Outcome/kept`` while it waits for one).
    public func receive(
        _ message: Message,
        replyHandler: @escaping @Sendable (Result<ReplyValue, RequestFailure>) -> Void
    ) -> Outcome {
        let reply = OnceReply(channel: message.channel, replyHandler)
        return dispatch(message, reply: reply, route: route(of: message.channel))
    }

    /// Routes one message by name; `replyHandler` (when given) is resolved exactly once.
    /// See ``receive(_:replyHandler:)``.
    public func receive(
        name: String,
        body: consuming MessageBody,
        id: String? = nil,
        replyHandler: (@Sendable (Result<ReplyValue, RequestFailure>) -> Void)?
    ) -> Outcome {
        // A name in the routing table is valid (every registered channel was validated):
        // only names the table does not know need checking.
        let channel = Channel(uncheckedName: name)
        let fits = name.utf8.count <= Channel.maxLength
        let hash = fits ? RouteIndex.hash(name) : 0
        let route = state.withLock { state in
            fits ? state.table.routeOrUnrouted(named: name, hash: hash) : state.table.unrouted
        }
        if route.isUnrouted, let error = Channel.problem(in: name) {
            diagnostics.emit(.invalidChannel(name: name, error))
            replyHandler?(.failure(.invalidChannel(name: name, error)))
            return .invalidChannel(error)
        }
        let message = Message(channel: channel, body: body, id: id)
        let reply = replyHandler.map { OnceReply(channel: channel, $0) }
        return dispatch(message, reply: reply, route: route)
    }

    /// The route of `channel` with the middleware chain, in one lock round trip.
    private func route(of channel: Channel) -> Route {
        let hash = RouteIndex.hash(channel.name)
        return state.withLock { $0.table.routeOrUnrouted(named: channel.name, hash: hash) }
    }

    /// Runs the middleware chain (if any) and delivery, with the route read for the message's channel.
    private func dispatch(_ message: Message, reply: OnceReply?, route: Route) -> Outcome {
        if route.middleware.isEmpty {
            return deliver(message, on: route, reply: reply)
        }
        // The run refers to this router and the route without holding them (this frame does).
        let run = ChainRun.start(router: self, reply: reply, channel: message.channel, route: route)
        let outcome = run.run(message, from: 0)
        var finished = consume run
        ChainRun.finish(&finished, router: self, route: route)
        // Every delivery path resolves or claims the reply; one left unclaimed was stopped by middleware.
        if let reply { reply.resolveIfUnclaimed { Router.stoppedResult(of: outcome, on: message.channel) } }
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
        }
    }

    /// The reason given when a request reaches delivery a second time.
    static let repeatedRequestReason = "the request was passed on twice; its responder answers it once"

    /// Delivers a message (after middleware) to the channel's responder or handlers,
    /// or applies the channel's policy when it has neither. Every path either
    /// resolves `reply` or hands it on (to a responder or a buffer).
    /// - Parameter route: the channel's route as read with the middleware, or `nil` to look it up.
    func deliver(_ message: Message, route: Route?, reply: OnceReply?) -> Outcome {
        if let route { return deliver(message, on: route, reply: reply) }
        let found = state.withLock { $0.table.route(message.channel) } ?? .empty
        return deliver(message, on: found, reply: reply)
    }

    /// ``deliver(_:route:reply:)`` with the route of the message's channel in hand.
    func deliver(_ message: Message, on route: Route, reply: OnceReply?) -> Outcome {
        if route.responder == nil, !route.handlers.isEmpty {
            return deliverToHandlers(message, route: route, reply: reply)
        }
        return deliverToResponderOrPolicy(message, route: route, reply: reply)
    }

    /// Delivers a message to the handlers of a channel without a responder.
    private func deliverToHandlers(_ message: Message, route: Route, reply: OnceReply?) -> Outcome {
        let context = MessageContext(message: message, options: options.decoding)
        let errors: [String]
        do {
            errors = try runHandlers(route, context: context)
        } catch {
            return invalid(error, on: context.channel, reply: reply)
        }
        if errors.isEmpty {
            if let reply { reply.resolve(.success(.none)) }
            return .handled(count: route.handlers.count)
        }
        let channel = context.channel
        let failure = HandlerFailure(channel: channel, errors: errors, succeeded: route.handlers.count - errors.count)
        if let reply { reply.resolve(.failure(.responderFailed(channel, message: failure.message))) }
        return .failed(failure)
    }

    /// Delivers a message to the channel's responder (and its handlers), or applies
    /// the channel's buffer policy when it has neither.
    private func deliverToResponderOrPolicy(_ message: Message, route: Route, reply: OnceReply?) -> Outcome {
        let channel = message.channel
        let handlers = route.handlers

        if let responder = route.responder {
            if let reply, !reply.claimForResponder() {
                return .stopped(reason: Router.repeatedRequestReason)
            }
            let decoding = options.decoding
            let failures: [String]
            let replyState: ReplyState
            do {
                // Decoded as its own type and handed to the responder as it is (no box, no cast);
                // the channel's event handlers (if any) run between the two, as before.
                (failures, replyState) = try responder.responder.respond(
                    to: message.body, options: decoding,
                    beforeResponding: { () throws(BodyDecodingError) -> [String] in
                        if handlers.isEmpty { return [] }
                        return try runHandlers(route, context: MessageContext(message: message, options: decoding))
                    },
                    makeState: {
                        var completion: ReplyState.Completion?
                        if let reply {
                            completion = { result in reply.resolve(result) }
                        }
                        return ReplyState(
                            channel: channel, fallback: responder.fallback, report: diagnostics, completion: completion)
                    })
            } catch {
                return invalid(error, on: channel, reply: reply)
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
                return .failed(
                    HandlerFailure(channel: channel, errors: failures + [failure.reason], succeeded: succeeded))
            }
        }

        let effective = route.policy ?? options.defaultBufferPolicy
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
    ///
    /// The usual case (every handler of the channel takes the same event type)
    /// decodes into that type and calls each handler with it, boxing nothing;
    /// other types are decoded into a small list.
    /// - Returns: the messages of the handlers that threw.
    /// - Throws: the decoding failure (then no handler ran).
    private func runHandlers(_ route: Route, context: MessageContext) throws(BodyDecodingError) -> [String] {
        guard !route.handlers.isEmpty else { return [] }
        if route.handlersShareEventType {
            // The route keeps the handler alive: call it without retaining it again.
            var failure: BodyDecodingError?
            let errors = Unmanaged.passUnretained(route.handlers[0].handler)._withUnsafeGuaranteedRef {
                handler -> [String] in
                do throws(BodyDecodingError) {
                    return try handler.runAll(route, context: context, diagnostics: diagnostics)
                } catch {
                    failure = error
                    return []
                }
            }
            if let failure { throw failure }
            return errors
        }
        let handlers = route.handlers
        guard let first = handlers.first else { return [] }
        let firstType = first.eventType
        let firstEvent = try first.handler.decodeEvent(context.body, options: context.options)
        var others: [(type: ObjectIdentifier, event: any Sendable)] = []
        for handler in handlers.dropFirst()
        where handler.eventType != firstType && !others.contains(where: { $0.type == handler.eventType }) {
            others.append((handler.eventType, try handler.handler.decodeEvent(context.body, options: context.options)))
        }
        var errors: [String] = []
        for handler in handlers {
            let event =
                handler.eventType == firstType
                ? firstEvent : (others.first { $0.type == handler.eventType }?.event ?? firstEvent)
            do {
                try handler.handler.invoke(event, context: context)
            } catch {
                let message = errorMessage(error)
                diagnostics.emit(.handlerFailed(context.channel, message: message))
                errors.append(message)
            }
        }
        return errors
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
