extension Router {
    /// Declares a push channel: the app sends values of `type` to the page on
    /// `type.channel`. Declared pushes are in the router's ``Contract`` (kind `push`, with the
    /// body's schema), in the ``Manifest`` (``Manifest/pushes``, with their digests in
    /// ``Manifest/contracts``) and in the generated page client (`sb.on.<channel>`).
    /// Declaring the same channel again replaces its type.
    /// - Parameter type: the push type.
    public func declare<P: Push>(push type: P.Type) {
        mutate { state in
            state.pushes.declare(type)
            state.manifest.changed()
        }
    }

    /// The push channels declared, sorted by name.
    public var declaredPushes: [Channel] {
        state.withLock { $0.pushes.channels }
    }

    /// Sends `value` to the page: every push observer (the WebKit bridge, a wire session
    /// started with pushes on, your own) is told, in registration order, on the calling
    /// thread, before this method returns. A value pushed on a channel that was not declared
    /// is still sent; declare it to put it in the contract.
    /// - Parameter value: the push; encoded by the receivers with ``BodyEncoder``'s rules.
    /// - Returns: how many observers were told (0 when nobody listens: then nothing is kept).
    @discardableResult
    public func push<P: Push>(_ value: P) -> Int {
        pushObservers.tell(PushMessage(channel: P.channel, body: ReplyValue(typed: value)))
    }

    /// Whether anyone observes the router's pushes now (``observePushes(_:)``): a pusher whose
    /// body is costly to make can skip making it when nobody would receive it.
    package var isObservingPushes: Bool { pushObservers.isObserved }

    /// Calls `observer` with each push the app makes (``push(_:)``), on the pushing thread,
    /// before `push` returns.
    /// - Returns: the token that keeps the observer. Once ``Registration/cancel()`` returns,
    ///   the observer is not called again.
    public func observePushes(_ observer: @escaping @Sendable (PushMessage) -> Void) -> Registration {
        let flag = CancelFlag()
        let id = pushObservers.add(observer, cancelled: flag)
        return Registration.unregistering(flag) { [pushObservers] in pushObservers.remove(id: id) }
    }
}
