extension Router {
    /// Declares features, so they appear in the manifest and can be observed.
    /// Declaring a feature with the name of one declared before replaces it.
    public func declare(_ features: [Feature]) {
        mutate { state in
            for feature in features { state.features[feature.name] = feature }
            state.manifest.changed()
        }
    }

    /// Declares features. See ``declare(_:)-([Feature])``.
    public func declare(_ features: Feature...) {
        declare(features)
    }

    /// Whether every channel `feature` needs has a handler or responder now
    /// (whether or not the feature was declared).
    public func isEnabled(_ feature: Feature) -> Bool {
        let live = state.withLock { $0.live }
        return feature.channels.allSatisfy { live.contains($0) }
    }

    /// Whether the declared feature named `name` is enabled; `false` for an undeclared name.
    public func isEnabled(featureNamed name: String) -> Bool {
        let (live, feature) = state.withLock { ($0.live, $0.features[name]) }
        guard let feature else { return false }
        return feature.channels.allSatisfy { live.contains($0) }
    }

    /// The channels that have a handler or responder, and each declared feature's state.
    ///
    /// A snapshot taken in O(1); its channels, features and contract are computed the first
    /// time one is read (outside the router's lock): O(n log n) in the number of channels.
    public var manifest: Manifest {
        state.withLock { Manifest(live: $0.live, features: $0.features, pushes: $0.pushes) }
    }

    /// Calls `observer` with the new manifest each time it changes (a handler,
    /// responder or feature comes or goes). The observer runs on the thread that
    /// made the change, or on the thread telling observers about an earlier one.
    /// Telling costs O(log n) per change: the manifest told is a snapshot whose content
    /// is computed only when the observer reads it.
    /// - Returns: the token that keeps the observer. Once ``Registration/cancel()``
    ///   returns, the observer is not called again.
    public func observeManifest(_ observer: @escaping @Sendable (Manifest) -> Void) -> Registration {
        let flag = CancelFlag()
        let id = mutate { state -> UInt64 in
            let id = state.makeID()
            state.manifest.add(ManifestNotices.Observer(id: id, cancelled: flag, observer: observer))
            return id
        }
        return Router.token(state, flag) { state in state.manifest.remove(id: id) }
    }

    /// Whether `channel` has a handler or a responder.
    public func isHandled(_ channel: Channel) -> Bool {
        state.withLock { $0.isLive(channel) }
    }
}
