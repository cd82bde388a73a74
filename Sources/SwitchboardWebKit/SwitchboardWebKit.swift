// SwitchboardWebKit: connects a Router to a WKWebView's WKUserContentController.
//
// Everything WebKit-specific is here, inside `#if canImport(WebKit)`, and kept
// small: the logic (which handlers to add or remove, how replies and failures map
// to the page's promise, the manifest script) is `RouterBridge` in the
// Switchboard module, tested on every platform through a fake registry.
//
// Ownership, without the classic `add(self)` cycle:
//
//   owner ──▶ RouterBridge ──▶ ContentControllerRegistry ──weak──▶ WKUserContentController
//                 ▲                       │                              │ (retains its handlers)
//                 └──────── weak ── ScriptMessageProxy ◀─────────────────┘
//
// The content controller retains the proxy; the proxy holds the bridge weakly and
// nothing here holds the web view or its owner strongly.
//
// On Linux, CI compiles this file against a stub WebKit module (.ci/webkit-stub,
// run by .ci/webkit) and runs the adapter tests there.

import Switchboard

#if canImport(WebKit)
    import Foundation
    import WebKit

    extension RouterBridge {
        /// Creates a bridge that keeps `userContentController`'s script message
        /// handlers in step with `router` and publishes the manifest as a user script.
        ///
        /// ```swift
        /// let configuration = WKWebViewConfiguration()
        /// let bridge = RouterBridge(router: router, userContentController: configuration.userContentController)
        /// let webView = WKWebView(frame: .zero, configuration: configuration)
        /// ```
        /// Keep the bridge for as long as the page should reach the router; release
        /// it (or call `RouterBridge.stop()`) to remove the handlers and the script.
        ///
        /// One bridge drives a content controller's world at a time: a second bridge on
        /// the same controller and world takes over (the first stops and removes its
        /// handlers before the second adds its own), so WebKit never sees a handler name
        /// twice. Names of handlers the app adds to the controller itself go in
        /// `reservedNames`: the bridge never adds them (see `RouterBridge.conflictingNames`).
        ///
        /// Each message is routed with its sender, read from `WKScriptMessage.frameInfo`
        /// (`securityOrigin` and `isMainFrame`), so the router's `OriginPolicy` decides
        /// which origins and frames may call each channel (docs/security.md).
        /// - Parameters:
        ///   - router: the router the page's messages go to.
        ///   - userContentController: the web view configuration's content controller (held weakly).
        ///   - webView: when given (held weakly), each manifest change is also applied to the loaded page at once.
        ///   - contentWorld: the world the handlers and the script live in; `.page` by default.
        ///   - alsoRegistering: channels to register even before they have a handler.
        ///   - reservedNames: names of script message handlers the app adds to this controller itself.
        ///   - globalName: the property of `window` that holds the published manifest.
        public convenience init(
            router: Router,
            userContentController: WKUserContentController,
            webView: WKWebView? = nil,
            contentWorld: WKContentWorld = .page,
            alsoRegistering: [Channel] = [],
            reservedNames: Set<String> = [],
            globalName: String = "switchboard"
        ) {
            let registry = ContentControllerRegistry(
                controller: userContentController, webView: webView, world: contentWorld)
            self.init(
                router: router, registry: registry, alsoRegistering: alsoRegistering,
                reservedNames: reservedNames, globalName: globalName)
            registry.proxy.bridge = self
            registry.proxy.registry = registry
        }

        /// Sends manifest changes and pushes to `webView`'s loaded page from now on (held weakly): for
        /// a bridge made before its web view. A bridge also adopts the web view of the first message
        /// the page posts.
        public func attach(_ webView: WKWebView) {
            (registry as? ContentControllerRegistry)?.webView = webView
        }
    }

    /// The `WKUserContentController` side of a ``RouterBridge``.
    @MainActor
    final class ContentControllerRegistry: ScriptMessageHandlerRegistry {
        private weak var controller: WKUserContentController?
        weak var webView: WKWebView?
        private let world: WKContentWorld
        private var script: WKUserScript?
        let proxy = ScriptMessageProxy()
        let handlerScope: HandlerScope?

        init(controller: WKUserContentController, webView: WKWebView?, world: WKContentWorld) {
            self.controller = controller
            self.webView = webView
            self.world = world
            handlerScope = HandlerScope(controller: controller, world: world)
        }

        func addHandler(named name: String) {
            controller?.addScriptMessageHandler(proxy, contentWorld: world, name: name)
        }

        func removeHandler(named name: String) {
            controller?.removeScriptMessageHandler(forName: name, contentWorld: world)
        }

        func setUserScript(source: String?) {
            guard let controller else { return }
            // WebKit removes user scripts only all at once: keep everyone else's.
            let others = controller.userScripts.filter { $0 !== script }
            controller.removeAllUserScripts()
            for other in others { controller.addUserScript(other) }
            script = nil
            guard let source else { return }
            let userScript = WKUserScript(
                source: source, injectionTime: .atDocumentStart, forMainFrameOnly: false, in: world)
            controller.addUserScript(userScript)
            script = userScript
            webView?.evaluateJavaScript(source, in: nil, in: world, completionHandler: nil)
        }

        /// Runs `script` in the main frame when the script admits the loaded page's origin; its
        /// arguments are passed as values (`callAsyncJavaScript`), never written into the source.
        func run(_ script: PageScript) {
            guard let webView else { return }
            let sender =
                webView.url.map { url in
                    MessageSender(
                        securityOriginProtocol: url.scheme ?? "", host: url.host ?? "", port: url.port ?? 0,
                        isMainFrame: true)
                } ?? .unknown
            guard script.admits(sender) else { return }
            let arguments = script.arguments.mapValues { $0.foundationValue }
            webView.callAsyncJavaScript(
                script.source, arguments: arguments, in: nil, in: world, completionHandler: nil)
        }

        /// Adopts the web view a message came from, when the bridge has none yet.
        func adopt(_ webView: WKWebView?) {
            if self.webView == nil, let webView { self.webView = webView }
        }
    }

    /// The handler object the content controller retains; it holds the bridge weakly.
    @MainActor
    final class ScriptMessageProxy: NSObject, WKScriptMessageHandlerWithReply {
        weak var bridge: RouterBridge?
        weak var registry: ContentControllerRegistry?

        func userContentController(
            _ userContentController: WKUserContentController,
            didReceive message: WKScriptMessage,
            replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
        ) {
            guard let bridge else {
                replyHandler(nil, "\(message.name): the Switchboard bridge is gone")
                return
            }
            registry?.adopt(message.webView)
            // Who posted it, for the channel's origin policy: WebKit's own account of the frame.
            let frame = message.frameInfo
            let origin = frame.securityOrigin
            let sender = MessageSender(
                securityOriginProtocol: origin.protocol, host: origin.host, port: origin.port,
                isMainFrame: frame.isMainFrame)
            bridge.handle(name: message.name, body: message.body, sender: sender, replyHandler: replyHandler)
        }
    }
#endif
