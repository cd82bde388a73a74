/// The part of a web view's content controller a ``RouterBridge`` drives: named
/// script message handlers and one user script.
///
/// `SwitchboardWebKit` conforms a small wrapper around `WKUserContentController`;
/// tests conform a fake that records the calls. The bridge calls these methods on
/// the main actor only, adds a name only when it is not registered, and removes
/// only names it added, so a conformance never sees a duplicate.
///
/// ## Implementation requirements
/// - Hold the handler object you register for `name` strongly if the controller
///   needs it, but never hold the ``RouterBridge`` (or the object that owns the
///   web view) strongly from it: the content controller retains its handlers, and
///   a strong path back is the classic `add(self)` retain cycle.
/// - Do not call back into the bridge from these methods.
@MainActor
public protocol ScriptMessageHandlerRegistry: AnyObject, Sendable {
    /// Registers a script message handler under `name`
    /// (`window.webkit.messageHandlers.<name>.postMessage(…)` becomes available).
    func addHandler(named name: String)

    /// Removes the script message handler registered under `name`.
    func removeHandler(named name: String)

    /// Replaces the bridge's user script with `source`, or removes it when `source` is `nil`.
    /// Other user scripts of the controller are not the bridge's and must be kept.
    func setUserScript(source: String?)

    /// The controller and world this registry adds handlers to, when another registry
    /// can add handlers there too. Bridges whose registries have equal scopes never
    /// register at the same time: the newest takes the scope over (``RouterBridge``).
    /// `nil` (the default) when the registry is the only one that can add handlers there:
    /// the answer for a registry of your own (a fake in tests); scopes are made by the
    /// WebKit adapter, for the controller and content world it registers into.
    var handlerScope: HandlerScope? { get }

    /// Runs `script` in the loaded page, in each frame whose sender ``PageScript/admits`` (the
    /// main frame at least, when it is admitted): how manifest changes and the app's pushes reach
    /// a page that is already loaded. The default does nothing (a registry without a page).
    func run(_ script: PageScript)
}

extension ScriptMessageHandlerRegistry {
    /// No shared scope: the registry is the only one that adds handlers where it does.
    public var handlerScope: HandlerScope? { nil }

    /// Does nothing: the registry has no page to run scripts in.
    public func run(_ script: PageScript) {}
}
