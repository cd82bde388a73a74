/// Where a ``ScriptMessageHandlerRegistry`` adds its handlers: one content controller
/// and one content world.
///
/// WebKit keeps one script message handler per name in each world of a
/// `WKUserContentController`, and raises `NSInvalidArgumentException` (the app
/// terminates) when a second one is added under a name in use. Two registries whose
/// scopes are equal share those names, so at most one ``RouterBridge`` may drive a
/// scope at a time: a new bridge on a scope takes it over from the previous one
/// (see ``RouterBridge``).
///
/// A scope compares the identities of its objects; it holds them weakly, and a
/// scope whose controller is gone no longer counts.
public struct HandlerScope: Hashable, Sendable {
    private let controllerID: ObjectIdentifier
    private let worldID: ObjectIdentifier?
    private let controller: WeakObject

    /// The scope of `controller`'s handlers in `world`.
    /// - Parameters:
    ///   - controller: the object that holds the handlers (a `WKUserContentController`).
    ///   - world: the namespace of the names within it (a `WKContentWorld`), or `nil` when there is one.
    package init(controller: AnyObject, world: AnyObject?) {
        controllerID = ObjectIdentifier(controller)
        worldID = world.map(ObjectIdentifier.init)
        self.controller = WeakObject(controller)
    }

    /// Whether the controller still exists.
    var isAlive: Bool { controller.object != nil }

    public static func == (lhs: HandlerScope, rhs: HandlerScope) -> Bool {
        lhs.controllerID == rhs.controllerID && lhs.worldID == rhs.worldID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(controllerID)
        hasher.combine(worldID)
    }
}

/// A weak reference that can cross threads (loading a weak reference is atomic).
private final class WeakObject: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
