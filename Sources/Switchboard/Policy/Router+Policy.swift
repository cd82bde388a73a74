extension Router {
    // MARK: - Who may call a channel

    /// Sets the policy of every channel that has none of its own (see ``OriginPolicy``);
    /// `nil` removes it, so that such channels admit every message again.
    ///
    /// Takes effect for messages received after it returns; one being delivered on
    /// another thread meanwhile was checked against the policy before.
    public func setDefaultOriginPolicy(_ policy: OriginPolicy?) {
        let old = mutate { state -> OriginPolicy? in
            defer { state.defaultOriginPolicy = policy }
            return state.defaultOriginPolicy
        }
        withExtendedLifetime(old) {}
    }

    /// The policy of channels that have none of their own: ``RouterOptions/originPolicy``
    /// until ``setDefaultOriginPolicy(_:)`` changes it.
    public var defaultOriginPolicy: OriginPolicy? {
        state.withLock { $0.defaultOriginPolicy }
    }

    /// Sets who may call `channel`, replacing the default policy for it (see ``OriginPolicy``).
    /// `nil` removes the channel's own policy: the default applies to it again.
    public func setOriginPolicy(_ policy: OriginPolicy?, for channel: Channel) {
        mutate { state in
            _ = state.updateRoute(channel) { route in route.originPolicy = policy }
        }
    }

    /// The policy that applies to `channel`: its own, else the default; `nil` when none applies.
    public func originPolicy(for channel: Channel) -> OriginPolicy? {
        let hash = RoutingTable.hash(channel.name)
        return state.withLock { state in
            state.originPolicy(of: state.table.route(named: channel.name, hash: hash))
        }
    }

    /// The manifest as `sender` sees it: the live channels it may call, each feature
    /// enabled only when every channel it needs is live and callable by `sender`, and the
    /// digest of those channels' contract.
    ///
    /// A page's manifest should list what the page can use. The bridge's injected
    /// script cannot know which frame it runs in, so it publishes ``manifest`` (see
    /// `RouterBridge`); a page that asks for its manifest through a channel of its own
    /// can be answered with this, for the sender of the request.
    public func manifest(for sender: MessageSender) -> Manifest {
        let (table, features, defaultPolicy) = state.withLock { ($0.table, $0.features, $0.defaultOriginPolicy) }
        func callable(_ channel: Channel, _ route: Route?) -> Bool {
            guard let route, route.isLive else { return false }
            guard let policy = Route.appliedOriginPolicy(route, default: defaultPolicy) else { return true }
            return policy.rejection(of: sender, on: channel) == nil
        }
        var channels: [Channel] = []
        table.forEachRoute { channel, route in
            if callable(channel, route) { channels.append(channel) }
        }
        var enabled: [String: Bool] = [:]
        for (name, feature) in features {
            enabled[name] = feature.channels.allSatisfy { callable($0, table.route($0)) }
        }
        return Manifest(
            channels: channels, features: enabled, contract: ContractDigests.digest(of: table, only: Set(channels)))
    }

    /// Delivers a message that middleware moved to another channel, after checking it
    /// against that channel's policy: a refused one is rejected as at ``receive(_:isolation:replyHandler:)``
    /// (outcome, diagnostic, ``RequestFailure/rejected(_:_:)``), and nothing else runs.
    func deliverRerouted(_ message: Message, reply: ReplyState?) -> Outcome {
        let (route, _, access) = lookUp(message.channel)
        if let access, let rejection = access.rejection(of: message.sender, on: message.channel) {
            diagnostics.emit(.rejected(rejection))
            reply?.answer(.failure(.rejected(rejection.channel, rejection)))
            return .rejected(rejection)
        }
        return deliver(message, on: route, reply: reply)
    }

    /// Refuses a message its channel's policy does not admit: reports it, answers its
    /// reply handler, and returns the outcome. Nothing else runs and nothing changes.
    func reject(
        _ rejection: PolicyRejection, replyHandler: (@Sendable (Result<ReplyValue, RequestFailure>) -> Void)?
    ) -> Outcome {
        diagnostics.emit(.rejected(rejection))
        replyHandler?(.failure(.rejected(rejection.channel, rejection)))
        return .rejected(rejection)
    }
}

extension Router.Route {
    /// The ``OriginPolicy`` that applies to a channel whose route is `route`: the channel's
    /// own, else `defaultPolicy` (the router's default); `nil` when none applies.
    @inline(__always)
    static func appliedOriginPolicy(_ route: Router.Route?, default defaultPolicy: OriginPolicy?) -> OriginPolicy? {
        route?.originPolicy ?? defaultPolicy
    }
}

extension Router.State {
    /// The ``OriginPolicy`` that applies to a channel whose route is `route` (see
    /// ``Router/Route/appliedOriginPolicy(_:default:)``).
    @inline(__always)
    func originPolicy(of route: Router.Route?) -> OriginPolicy? {
        Router.Route.appliedOriginPolicy(route, default: defaultOriginPolicy)
    }
}

extension Router {
    /// Whether `sender` passes the origin policy that applies to `channel` (its own, or the
    /// router's default); `true` when none applies. The WebKit bridge asks it before delivering
    /// a push to a frame.
    public func admits(_ sender: MessageSender, on channel: Channel) -> Bool {
        originPolicy(for: channel)?.rejection(of: sender, on: channel) == nil
    }
}
