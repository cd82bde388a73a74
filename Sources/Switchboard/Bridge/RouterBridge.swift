import Foundation

/// Keeps a web view's script message handlers in step with a ``Router``, and
/// routes what the page posts: the logic of `SwitchboardWebKit`, with the
/// content controller behind ``ScriptMessageHandlerRegistry`` so it runs (and is
/// tested) on every platform.
///
/// ```
///   Router ──observeManifest──▶ RouterBridge ──add / remove / user script──▶ registry (WKUserContentController)
///     ▲                              │
///     └── receive(_:replyHandler:) ◀─┴── handle(name:body:sender:replyHandler:) ◀── page: postMessage(…)
/// ```
///
/// The bridge registers exactly the router's live channels (those with a handler
/// or responder, as in ``Router/manifest``), the channels whose messages the router keeps
/// until a handler exists (a ``Router/setBufferPolicy(_:for:)`` other than `drop`, set before
/// the bridge is made or followed by ``synchronize()``: ``Router/bufferingChannels``), plus
/// the channels you name in `alsoRegistering`, and adds or removes handlers as registrations
/// come and go. It also publishes the manifest to the page as a user script
/// (``userScriptSource``), updated on every change and sent to the loaded page at once
/// (``ScriptMessageHandlerRegistry/run(_:)``), and delivers the app's pushes
/// (``Router/push(_:)``) to the page as `"<globalName>:push"` events.
///
/// It follows the router on the main actor, soon after a change (never inside it, even
/// on the main thread), once for all the changes made until then: a burst of
/// registrations or cancellations costs O(log n) each for the handlers (the bridge adds
/// and removes what changed, found by comparing manifest snapshots, not every channel)
/// and one script of the manifest (O(n)) at the end. ``synchronize()`` does it now.
///
/// Ownership: the bridge holds the router and the registry; the router holds the
/// bridge only weakly (through its manifest observer), and the registry must not
/// hold the bridge strongly. Releasing the bridge stops the observation and
/// removes the handlers and the script it added; ``stop()`` does the same now.
///
/// ## One bridge per content controller and world
/// WebKit allows one handler per name in each content world of a controller and
/// terminates the app when a second one is added. So a bridge never adds a name
/// that is taken:
/// - **Another bridge on the same controller and world** (equal
///   ``ScriptMessageHandlerRegistry/handlerScope``): the new bridge takes over.
///   The previous bridge stops first (its handlers and script are removed,
///   ``isStopped`` and ``wasTakenOver`` become `true`, messages that still reach it
///   are answered with a failure saying so), then the new one registers. Releasing either
///   bridge later, in any order, removes only what that bridge still holds: a
///   taken-over bridge holds nothing, so it never removes the new bridge's handlers.
/// - **Names the app registers itself** on that controller: pass them as
///   `reservedNames`. The bridge never adds them; a live channel with such a name
///   is listed in ``conflictingNames`` (its messages cannot reach the router from
///   the page). WebKit has no API to list a controller's handlers, so names added
///   by other code must be declared this way.
///
/// ## The page's hello
/// The bridge also registers one handler of its own, named after ``globalName``
/// (`window.webkit.messageHandlers.switchboard` by default), where a page states once per
/// load the contract digests it was built against: `postMessage({contracts: {NAME: DIGEST}})`
/// (``PageHello``). The bridge checks them (``Router/checkContracts(_:from:)``, which reports a
/// ``Diagnostic/contractSkew(_:page:app:)`` per channel that differs) and resolves the page's
/// promise with `{differing: [NAME, …]}`. That name is never a channel the bridge adds: a live
/// channel named so is listed in ``conflictingNames``. When ``globalName`` is among
/// `reservedNames`, the app handles it itself and the bridge registers no hello handler.
@MainActor
public final class RouterBridge {
    /// The router messages are routed through.
    public let router: Router
    /// The channels registered whether or not they have a handler.
    public let alsoRegistering: Set<Channel>
    /// The property of `window` that holds the published manifest.
    public let globalName: String
    /// Handler names the bridge never adds: the app registers them on the controller itself.
    public let reservedNames: Set<String>
    /// The name of the handler that takes the page's hello (``globalName``), or `nil` when it is
    /// among ``reservedNames``.
    private nonisolated let helloName: String?

    private struct State: Sendable {
        var registered: Set<String> = []
        var conflicts: Set<String> = []
        var script: String?
        var stopped = false
        var takenOver = false
        /// The manifest the handlers were last brought in line with.
        var synced: Manifest?
        /// Whether a sync to the router's manifest is scheduled on the main actor.
        var syncScheduled = false
    }

    /// The names of ``alsoRegistering``.
    private nonisolated let alsoRegisteringNames: Set<String>
    /// The content controller (or the fake) the bridge keeps in step with the router.
    public nonisolated let registry: any ScriptMessageHandlerRegistry
    private nonisolated let scope: HandlerScope?
    private nonisolated let state = Locked(State())
    private var observation: Registration?
    private var pushObservation: Registration?

    /// Creates a bridge and brings the registry in line with the router at once.
    ///
    /// When another live bridge drives the same ``ScriptMessageHandlerRegistry/handlerScope``,
    /// this one takes over: the other stops (removing its handlers and script) before this
    /// one adds its own, so no handler name is ever added twice.
    /// - Parameters:
    ///   - router: the router the page's messages go to.
    ///   - registry: the content controller (or a fake) to keep in sync.
    ///   - alsoRegistering: channels to register even without a handler, so that
    ///     messages sent before the handler exists reach the router's buffer.
    ///   - reservedNames: handler names the app registers on the same controller itself;
    ///     the bridge never adds them and reports a live channel among them in ``conflictingNames``.
    ///   - globalName: the property of `window` that holds the published manifest.
    public init(
        router: Router,
        registry: any ScriptMessageHandlerRegistry,
        alsoRegistering: [Channel] = [],
        reservedNames: Set<String> = [],
        globalName: String = "switchboard"
    ) {
        self.router = router
        self.registry = registry
        self.scope = registry.handlerScope
        self.alsoRegistering = Set(alsoRegistering)
        self.alsoRegisteringNames = Set(alsoRegistering.map(\.name))
        self.reservedNames = reservedNames
        self.globalName = globalName
        self.helloName = reservedNames.contains(globalName) ? nil : globalName
        if let scope, let previous = BridgeClaims.claim(scope, for: self, take: takeCleanup) {
            previous.stop(takenOver: true)
        }
        observation = router.observeManifest { [weak self, state] _ in
            // One sync at a time: changes told before it runs are all taken by it.
            let schedule = state.withLock { state -> Bool in
                guard !state.stopped, !state.syncScheduled else { return false }
                state.syncScheduled = true
                return true
            }
            // Always later, on the main actor: a burst of changes (on the main thread too) is followed once.
            if schedule { Task { @MainActor in self?.followRouter() } }
        }
        pushObservation = router.observePushes { [weak self, state] push in
            guard !state.withLock({ $0.stopped }) else { return }
            RouterBridge.onMainActor { self?.deliver(push) }
        }
        synchronize()
    }

    deinit {
        // What is still registered is taken on the main actor, now when released there.
        // Released elsewhere, a bridge created on the same scope in the meantime takes it
        // first (BridgeClaims): removed once, before that bridge adds anything.
        let take = takeCleanup
        RouterBridge.onMainActor { take()?.run() }
    }

    /// Takes, once, what the bridge has registered (marking it stopped); `nil` when nothing is left.
    /// It holds the state and the registry, not the bridge.
    private nonisolated var takeCleanup: @Sendable () -> BridgeClaims.Cleanup? {
        { [state, registry] in
            let (names, hadScript) = state.withLock { state -> ([String], Bool) in
                defer {
                    state = State(registered: [], script: nil, stopped: true, takenOver: state.takenOver)
                }
                return (state.stopped ? [] : state.registered.sorted(), state.script != nil)
            }
            guard !names.isEmpty || hadScript else { return nil }
            return BridgeClaims.Cleanup(registry: registry, names: names, hadScript: hadScript)
        }
    }

    /// The handler names registered now, sorted.
    public var registeredNames: [String] {
        state.withLock { $0.registered.sorted() }
    }

    /// Live channel names the bridge did not register because they are in
    /// ``reservedNames`` (the app's own handlers hold them), sorted. Messages the page
    /// posts to these names go to the app's handler, not to the router.
    public var conflictingNames: [String] {
        state.withLock { $0.conflicts.sorted() }
    }

    /// The user script published now, or `nil` after ``stop()``.
    public var userScriptSource: String? {
        state.withLock { $0.script }
    }

    /// Brings the registry in line with the router now: removes the handlers of
    /// channels that went away, adds those of new channels (each name once), and
    /// updates the user script when the manifest changed. The bridge does this on
    /// its own soon after the router's manifest changes, once for a burst of changes.
    public func synchronize() {
        let manifest = router.manifest
        let live = Set(manifest.channels.map(\.name)).union(alsoRegisteringNames)
            .union(router.bufferingChannels.map(\.name))
        var wanted = live.subtracting(reservedNames)
        if let helloName { wanted.insert(helloName) }
        let taken = helloName.map { reservedNames.union([$0]) } ?? reservedNames
        let script = ManifestScript.source(for: manifest, globalName: globalName)
        let change = state.withLock { state -> (remove: [String], add: [String], script: String?)? in
            guard !state.stopped else { return nil }
            state.conflicts = live.intersection(taken)
            let remove = state.registered.subtracting(wanted).sorted()
            let add = wanted.subtracting(state.registered).sorted()
            state.registered = wanted
            state.synced = manifest
            let newScript = state.script == script ? nil : script
            state.script = script
            return (remove, add, newScript)
        }
        guard let change else { return }
        apply(remove: change.remove, add: change.add)
        if let script = change.script {
            registry.setUserScript(source: script)
            registry.run(PageScript.manifest(manifest, globalName: globalName))
        }
    }

    /// Follows changes of the router's manifest, once for all the changes told since the
    /// last time: adds and removes the handlers of the channels that changed since the last
    /// sync, found by comparing the two manifests' snapshots (O(changes × log n), not
    /// O(channels)), then publishes the new manifest as the user script (O(channels), once
    /// for the burst).
    private func followRouter() {
        let previous = state.withLock { state -> Manifest? in
            // Cleared before the manifest is read: a change after the read schedules another sync.
            state.syncScheduled = false
            return state.synced
        }
        let manifest = router.manifest
        guard let old = previous?.live, let new = manifest.live else { return synchronize() }
        let (added, removed) = Router.LiveChannels.changes(from: old, to: new)
        let change = state.withLock { state -> (remove: [String], add: [String])? in
            guard !state.stopped else { return nil }
            var remove: [String] = []
            var add: [String] = []
            // A name in `alsoRegistering` stays registered (or, when reserved, in conflict).
            // The hello handler stays registered whatever channels come and go.
            for name in removed where !alsoRegisteringNames.contains(name) {
                state.conflicts.remove(name)
                if name != helloName, state.registered.remove(name) != nil { remove.append(name) }
            }
            for name in added {
                if reservedNames.contains(name) || name == helloName {
                    state.conflicts.insert(name)
                } else if state.registered.insert(name).inserted {
                    add.append(name)
                }
            }
            state.synced = manifest
            return (remove.sorted(), add.sorted())
        }
        guard let change else { return }
        apply(remove: change.remove, add: change.add)
        let script = ManifestScript.source(for: manifest, globalName: globalName)
        let changed = state.withLock { state -> Bool in
            guard !state.stopped, state.script != script else { return false }
            state.script = script
            return true
        }
        if changed {
            registry.setUserScript(source: script)
            registry.run(PageScript.manifest(manifest, globalName: globalName))
        }
    }

    /// Sends a push to the page, as a `"<globalName>:push"` event, to the frames the push channel's
    /// origin policy admits (``Router/admits(_:on:)``); its body encoded by the router's encoder and
    /// passed as an argument, never written into script text. A body that does not encode is
    /// reported as a ``Diagnostic/handlerFailed(_:message:)`` on the push channel and not sent.
    public func push<P: Push>(_ value: P) {
        deliver(PushMessage(channel: P.channel, body: ReplyValue(value)))
    }

    private func deliver(_ push: PushMessage) {
        guard !isStopped else { return }
        let body: JSONValue
        do {
            body = try JSONReader().read(push.body.jsonBytes())
        } catch {
            router.diagnostics.emit(.handlerFailed(push.channel, message: "the push could not be encoded: \(error)"))
            return
        }
        let channel = push.channel
        let router = router
        registry.run(
            PageScript.push(channel: channel, body: body, globalName: globalName) { sender in
                router.admits(sender, on: channel)
            })
    }

    private func apply(remove: [String], add: [String]) {
        for name in remove { registry.removeHandler(named: name) }
        for name in add { registry.addHandler(named: name) }
    }

    /// Stops following the router and removes every handler and the script the
    /// bridge added. Messages that still arrive are answered with a failure.
    public func stop() {
        stop(takenOver: false)
    }

    private func stop(takenOver: Bool) {
        observation?.cancel()
        observation = nil
        pushObservation?.cancel()
        pushObservation = nil
        if let scope { BridgeClaims.release(scope, by: self) }
        if takenOver { state.withLock { $0.takenOver = true } }
        takeCleanup()?.run()
    }

    /// Whether ``stop()`` has run, or another bridge took the content controller over.
    public var isStopped: Bool {
        state.withLock { $0.stopped }
    }

    /// Whether this bridge stopped because a newer bridge on the same content controller
    /// and world took over (see "One bridge per content controller and world").
    public var wasTakenOver: Bool {
        state.withLock { $0.takenOver }
    }

    /// Routes one message the page posted and answers the page's promise.
    ///
    /// The message goes through ``Router/receive(name:body:id:sender:isolation:replyHandler:)-(String,Any?,_,_,_,_)``;
    /// `replyHandler` is called exactly once, on the main actor, with the result mapped to
    /// WebKit's reply handler's arguments: `(value, nil)` for a reply, its JSON-compatible
    /// Foundation tree (`NSNull` for a handled event), `(nil, envelope)` for a failure, the JSON text of an
    /// ``ErrorEnvelope`` whose `kind` the page switches on (`rejected` for a message the
    /// channel's ``OriginPolicy`` refuses, `noResponder`, `invalid`, `failed`, …; `unavailable`
    /// once the bridge is stopped). A message to the hello handler (named ``globalName``) is the
    /// page's hello, answered with `{"differing": [...]}` (see "The page's hello"): `.handled(count: 1)`,
    /// or `.invalid` when the body is not a hello.
    /// - Parameters:
    ///   - name: `WKScriptMessage.name`.
    ///   - body: `WKScriptMessage.body`.
    ///   - sender: who posted it, from `WKScriptMessage.frameInfo`
    ///     (``MessageSender/init(securityOriginProtocol:host:port:isMainFrame:)``);
    ///     ``MessageSender/unknown`` by default, which a channel with a policy refuses.
    ///   - isolation: the caller's isolation (WebKit's delegate runs on the main actor, so
    ///     main-actor handlers run before this returns); `#isolation` by default (leave it).
    ///   - replyHandler: WebKit's reply handler.
    /// - Returns: the router's outcome for the message.
    @discardableResult
    public func handle(
        name: String, body: Any?, sender: MessageSender = .unknown, isolation: isolated (any Actor)? = #isolation,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) -> Outcome {
        let channel = try? Channel(validating: name)
        let complete: @Sendable (Result<ReplyValue, RequestFailure>) -> Void = { result in
            RouterBridge.onMainActor {
                let (value, error) = ScriptReply.arguments(for: result, on: channel)
                replyHandler(value, error)
            }
        }
        let (stopped, takenOver) = state.withLock { ($0.stopped, $0.takenOver) }
        if stopped {
            let why = takenOver ? " (another bridge took over its content controller)" : ""
            let failure = ErrorEnvelope(
                kind: .unavailable, channel: channel?.name, message: "\(name): the Switchboard bridge is stopped" + why)
            let text = failure.jsonText
            RouterBridge.onMainActor { replyHandler(nil, text) }
            return .stopped(reason: "bridge stopped" + why)
        }
        if name == helloName { return hello(body: MessageBody(body), sender: sender, replyHandler: replyHandler) }
        return router.receive(
            name: name, body: MessageBody(body), sender: sender, isolation: isolation, replyHandler: complete)
    }

    /// Answers a page's hello (see "The page's hello"): `{"differing": [NAME, …]}`, or an
    /// ``ErrorEnvelope`` of kind `invalid` naming the key path when the body is not a hello.
    private nonisolated func hello(
        body: MessageBody, sender: MessageSender, replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    ) -> Outcome {
        let hello: PageHello
        do {
            hello = try PageHello(body: body)
        } catch {
            let message = "\(globalName): not a hello, {\"contracts\": {CHANNEL: DIGEST}}: \(error)"
            let text = ErrorEnvelope(kind: .invalid, channel: nil, message: message).jsonText
            RouterBridge.onMainActor { replyHandler(nil, text) }
            return .invalid(error)
        }
        let differing = router.checkContracts(hello.contracts, from: sender).map(\.name)
        RouterBridge.onMainActor {
            let (value, error) = ScriptReply.arguments(for: .success(ReplyValue(["differing": differing])), on: nil)
            replyHandler(value, error)
        }
        return .handled(count: 1)
    }

    /// Runs `body` on the main actor: now when called on the main thread, else soon after.
    nonisolated static func onMainActor(_ body: @escaping @MainActor @Sendable () -> Void) {
        if Thread.isMainThread {
            MainActor.assumeIsolated(body)
        } else {
            Task { @MainActor in body() }
        }
    }
}
