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

        /// The sub-frames that posted a message to the bridge (WebKit has no API to list a page's
        /// frames), newest last, at most ``subFrameLimit``; one whose call fails is forgotten.
        private var subFrames: [WKFrameInfo] = []
        static let subFrameLimit = 32

        /// Runs `script` in the main frame and in each sub-frame that posted a message, when the
        /// script admits the frame's origin; its arguments are passed as values
        /// (`callAsyncJavaScript`), never written into the source.
        ///
        /// The call also carries the origin it was admitted for, and the script returns at once in a
        /// document of another origin: a frame may have navigated between the check and the call.
        func run(_ script: PageScript) {
            guard let webView else { return }
            let arguments = script.arguments.mapValues { $0.foundationValue }
            let source = "if (location.origin !== switchboardAdmittedOrigin) { return; }\n" + script.source
            if let url = webView.url {
                let scheme = url.scheme ?? ""
                let host = url.host ?? ""
                let port = url.port ?? 0
                let main = MessageSender(securityOriginProtocol: scheme, host: host, port: port, isMainFrame: true)
                if script.admits(main) {
                    var admitted = arguments
                    admitted["switchboardAdmittedOrigin"] = ContentControllerRegistry.origin(scheme, host, port)
                    webView.callAsyncJavaScript(source, arguments: admitted, in: nil, in: world, completionHandler: nil)
                }
            }
            for frame in subFrames where script.admits(ContentControllerRegistry.sender(of: frame)) {
                let origin = frame.securityOrigin
                var admitted = arguments
                admitted["switchboardAdmittedOrigin"] = ContentControllerRegistry.origin(
                    origin.protocol, origin.host, origin.port)
                webView.callAsyncJavaScript(source, arguments: admitted, in: frame, in: world) {
                    [weak self] result in
                    // A frame that navigated away or was removed: not called again.
                    if case .failure = result { self?.subFrames.removeAll { $0 === frame } }
                }
            }
        }

        /// An origin as `location.origin` spells it: `scheme://host`, `:port` when one is given
        /// (WebKit gives 0 for a scheme's default port), brackets around an IPv6 address.
        static func origin(_ scheme: String, _ host: String, _ port: Int) -> String {
            let name = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            return "\(scheme.lowercased())://\(name.lowercased())" + (port > 0 ? ":\(port)" : "")
        }

        /// Adopts the web view a message came from, when the bridge has none yet, and remembers
        /// a sub-frame that posted, so pushes its origin is admitted to reach it too.
        func adopt(_ webView: WKWebView?, frame: WKFrameInfo) {
            if self.webView == nil, let webView { self.webView = webView }
            guard !frame.isMainFrame, !subFrames.contains(where: { $0 === frame }) else { return }
            subFrames.append(frame)
            if subFrames.count > ContentControllerRegistry.subFrameLimit { subFrames.removeFirst() }
        }

        /// Who a frame is, for an origin policy.
        static func sender(of frame: WKFrameInfo) -> MessageSender {
            let origin = frame.securityOrigin
            return MessageSender(
                securityOriginProtocol: origin.protocol, host: origin.host, port: origin.port,
                isMainFrame: frame.isMainFrame)
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
                let envelope = ErrorEnvelope(
                    kind: .unavailable, channel: (try? Channel(validating: message.name))?.name,
                    message: "\(message.name): the Switchboard bridge is gone")
                replyHandler(nil, envelope.jsonText)
                return
            }
            let frame = message.frameInfo
            registry?.adopt(message.webView, frame: frame)
            // Who posted it, for the channel's origin policy: WebKit's own account of the frame.
            let sender = ContentControllerRegistry.sender(of: frame)
            bridge.handle(name: message.name, body: message.body, sender: sender, replyHandler: replyHandler)
        }
    }
#endif
