import Observation

/// A router's manifest as `@Observable` state on the main actor, for SwiftUI views (and anything
/// that watches with `withObservationTracking`):
/// ```swift
/// @State private var features = FeatureModel(router: router)
/// …
/// if features.isEnabled(featureNamed: "wishlist") { WishlistButton() }
/// ```
/// It follows ``Router/manifests``: ``manifest`` is the current manifest when it is created, and
/// changes (on the main actor) shortly after each change of the router's. It stops following
/// when it is released.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@MainActor @Observable
public final class FeatureModel {
    /// The router's manifest, as last told.
    public private(set) var manifest: Manifest

    @ObservationIgnored private nonisolated let follow = Locked<Task<Void, Never>?>(nil)

    /// Starts following `router`'s manifest.
    public init(router: Router) {
        manifest = router.manifest
        let task = Task { [weak self] in
            for await manifest in router.manifests {
                guard let self else { return }
                if manifest != self.manifest { self.manifest = manifest }
            }
        }
        follow.withLock { $0 = task }
    }

    deinit {
        follow.withLock { $0 }?.cancel()
    }

    /// The channels that have a handler, a responder or an event loop.
    public var channels: [Channel] { manifest.channels }

    /// Whether the declared feature named `name` is on; `false` for an undeclared name.
    public func isEnabled(featureNamed name: String) -> Bool {
        manifest.features[name] ?? false
    }

    /// Whether every channel `feature` needs is handled (whether or not it was declared).
    public func isEnabled(_ feature: Feature) -> Bool {
        let live = Set(manifest.channels)
        return feature.channels.allSatisfy { live.contains($0) }
    }

    /// Whether `channel` has a handler, a responder or an event loop.
    public func isHandled(_ channel: Channel) -> Bool {
        manifest.channels.contains(channel)
    }
}
