extension Router {
    /// The manifest as an `AsyncSequence`: the current manifest first, then each change (a
    /// handler, responder, event loop or feature coming or going), so a view can show whether a
    /// feature is live:
    /// ```swift
    /// .task {
    ///     for await manifest in router.manifests { model.wishlistIsLive = manifest.features["wishlist"] ?? false }
    /// }
    /// ```
    /// Changes that come faster than the loop takes them are all kept, in order; changes that
    /// come faster than observers are told may come as one (the manifest after the last of
    /// them), as with ``observeManifest(_:)``. Iteration ends when the iterating task is cancelled.
    /// For SwiftUI, ``FeatureModel`` holds the current manifest as `@Observable` state.
    public var manifests: ManifestSequence {
        ManifestSequence(router: self)
    }

    /// Adds `continuation` as a manifest observer and, in the same step, yields it the current
    /// manifest: every manifest told afterwards is of a later change.
    func feedManifests(to continuation: AsyncStream<Manifest>.Continuation) -> Registration {
        let flag = CancelFlag()
        // The first manifest yielded, until the first one told is compared with it (the change it
        // tells may be one the first already shows).
        let first = Locked<Manifest?>(nil)
        let id = mutate { state -> UInt64 in
            let id = state.makeID()
            let current = Manifest(live: state.live, features: state.features, pushes: state.pushes)
            // Nobody waits on the stream yet (its iterator is not made): this only buffers it.
            continuation.yield(current)
            first.withLock { $0 = current }
            let observer: @Sendable (Manifest) -> Void = { manifest in
                // Compared outside every lock: comparing may derive a channel's contract.
                if let shown = first.withLock({ $0.take() }), manifest == shown { return }
                continuation.yield(manifest)
            }
            state.manifest.add(ManifestNotices.Observer(id: id, cancelled: flag, observer: observer))
            return id
        }
        return Router.token(state, flag) { state in state.manifest.remove(id: id) }
    }
}

/// The manifests of a router, as ``Router/manifests`` returns them: the current one first, then
/// each change, while a task iterates.
public struct ManifestSequence: AsyncSequence, Sendable {
    /// A manifest.
    public typealias Element = Manifest
    /// Iteration never throws: it ends when the iterating task is cancelled.
    public typealias Failure = Never

    let router: Router

    /// Starts observing: the iterator's first manifest is the current one.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncStream.makeStream(of: Manifest.self)
        let token = router.feedManifests(to: continuation)
        continuation.onTermination = { _ in token.cancel() }
        return Iterator(base: stream.makeAsyncIterator(), subscription: Subscription(token, router: router))
    }

    /// Iterates the manifests; releasing it (the loop ended) stops observing.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<Manifest>.Iterator
        let subscription: Subscription

        /// The next manifest; `nil` once the iterating task is cancelled.
        public mutating func next() async -> Manifest? {
            await base.next()
        }

        /// The next manifest, awaited in the caller's isolation; `nil` once the iterating task is cancelled.
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Manifest? {
            await base.next(isolation: actor)
        }
    }
}
