// Stub of WebKit's WKUserContentController, for the Linux CI step .ci/webkit only.
// Source: https://developer.apple.com/documentation/webkit/wkusercontentcontroller
//   @MainActor class WKUserContentController : NSObject, NSSecureCoding
//   var userScripts: [WKUserScript] { get }                                     (userScripts)
//   func addUserScript(_ userScript: WKUserScript)                               (addUserScript(_:))
//   func removeAllUserScripts()                                                  (removeAllUserScripts())
//   func add(_ scriptMessageHandler: any WKScriptMessageHandler, name: String)  (add(_:name:))
//   func add(_ scriptMessageHandler: any WKScriptMessageHandler, contentWorld world: WKContentWorld, name: String)
//                                                                                (add(_:contentWorld:name:))
//   func addScriptMessageHandler(_ scriptMessageHandlerWithReply: any WKScriptMessageHandlerWithReply,
//       contentWorld: WKContentWorld, name: String)          (addScriptMessageHandler(_:contentWorld:name:))
//   func removeScriptMessageHandler(forName name: String)                       (removeScriptMessageHandler(forName:))
//   func removeScriptMessageHandler(forName name: String, contentWorld: WKContentWorld)
//                                                                   (removeScriptMessageHandler(forName:contentWorld:))
//   func removeAllScriptMessageHandlers(from contentWorld: WKContentWorld)  (removeAllScriptMessageHandlers(from:))
//   func removeAllScriptMessageHandlers()                                  (removeAllScriptMessageHandlers())
// Behaviour: Source/WebKit/UIProcess/API/Cocoa/WKUserContentController.mm
//   -_addScriptMessageHandler: raises NSInvalidArgumentException
//     "Attempt to add script message handler with name '%@' when one already exists."
//   when WebUserContentControllerProxy::addUserScriptMessageHandler finds a handler with that
//   name in that content world; add(_:name:) and removeScriptMessageHandler(forName:) use the
//   page world. The controller retains each handler (ScriptMessageHandlerDelegate's RetainPtr).
//   The reply block raises NSInternalInconsistencyException "replyHandler passed to
//   userContentController:didReceiveScriptMessage:replyHandler: should not be called twice";
//   a reply handler released uncalled rejects with "WKWebView API client did not respond to this
//   postMessage"; an unserializable reply rejects with "The result value passed back from the
//   WKWebView API client was unable to be serialized".

import Foundation

@MainActor
open class WKUserContentController: NSObject {
    private enum Handler {
        case plain(any WKScriptMessageHandler)
        case withReply(any WKScriptMessageHandlerWithReply)

        var object: AnyObject {
            switch self {
            case .plain(let handler): handler
            case .withReply(let handler): handler
            }
        }
    }

    private struct Entry {
        let name: String
        let world: WKContentWorld
        let handler: Handler  // strong, as WebKit's RetainPtr
    }

    private var entries: [Entry] = []
    private var scripts: [WKUserScript] = []

    public override init() {
        super.init()
    }

    // MARK: User scripts

    public var userScripts: [WKUserScript] { scripts }

    public func addUserScript(_ userScript: WKUserScript) {
        scripts.append(userScript)
    }

    public func removeAllUserScripts() {
        scripts.removeAll()
    }

    // MARK: Script message handlers

    public func add(_ scriptMessageHandler: any WKScriptMessageHandler, name: String) {
        insert(Entry(name: name, world: .page, handler: .plain(scriptMessageHandler)))
    }

    public func add(
        _ scriptMessageHandler: any WKScriptMessageHandler, contentWorld world: WKContentWorld, name: String
    ) {
        insert(Entry(name: name, world: world, handler: .plain(scriptMessageHandler)))
    }

    public func addScriptMessageHandler(
        _ scriptMessageHandlerWithReply: any WKScriptMessageHandlerWithReply,
        contentWorld: WKContentWorld, name: String
    ) {
        insert(Entry(name: name, world: contentWorld, handler: .withReply(scriptMessageHandlerWithReply)))
    }

    public func removeScriptMessageHandler(forName name: String) {
        removeScriptMessageHandler(forName: name, contentWorld: .page)
    }

    public func removeScriptMessageHandler(forName name: String, contentWorld: WKContentWorld) {
        entries.removeAll { $0.name == name && $0.world === contentWorld }
    }

    public func removeAllScriptMessageHandlers(from contentWorld: WKContentWorld) {
        entries.removeAll { $0.world === contentWorld }
    }

    public func removeAllScriptMessageHandlers() {
        entries.removeAll()
    }

    private func insert(_ entry: Entry) {
        if entries.contains(where: { $0.name == entry.name && $0.world === entry.world }) {
            // WebKit: [NSException raise:NSInvalidArgumentException format:…] — uncaught, the app terminates.
            preconditionFailure(
                "*** Terminating app due to uncaught exception 'NSInvalidArgumentException', reason: "
                    + "'Attempt to add script message handler with name '\(entry.name)' when one already exists.'")
        }
        entries.append(entry)
    }

    // MARK: STUB-ONLY helpers for tests (not WebKit API)

    /// STUB-ONLY: the handler names registered in `world`, sorted.
    public func _handlerNames(in world: WKContentWorld = .page) -> [String] {
        entries.filter { $0.world === world }.map(\.name).sorted()
    }

    /// STUB-ONLY: the handler object registered under `name` in `world`.
    public func _handler(named name: String, in world: WKContentWorld = .page) -> AnyObject? {
        entries.first { $0.name == name && $0.world === world }?.handler.object
    }

    /// STUB-ONLY: what `window.webkit.messageHandlers.<name>.postMessage(body)` does in a frame
    /// of `world`: builds the WKScriptMessage (with `frameInfo`) and calls the handler on the
    /// main actor, now. Returns `nil` when no handler has that name in that world (the page
    /// would get a TypeError); otherwise the post, whose `result` follows the reply handler.
    @discardableResult
    public func _deliver(
        name: String, body: Any, frameInfo: WKFrameInfo, world: WKContentWorld = .page, webView: WKWebView? = nil
    ) -> _PostedMessage? {
        guard let entry = entries.first(where: { $0.name == name && $0.world === world }) else { return nil }
        let message = WKScriptMessage(_body: body, webView: webView, frameInfo: frameInfo, name: name, world: world)
        let post = _PostedMessage()
        switch entry.handler {
        case .plain(let handler):
            handler.userContentController(self, didReceive: message)
            post.settle(.resolved(nil))
        case .withReply(let handler):
            let checker = _PostedMessage.Checker(post)
            handler.userContentController(self, didReceive: message) { value, error in
                checker.reply(value, error)
            }
        }
        return post
    }
}

/// STUB-ONLY: a message posted through ``WKUserContentController/_deliver(name:body:frameInfo:world:webView:)``
/// and what the page's promise became.
public final class _PostedMessage: @unchecked Sendable {
    public enum Result {
        case pending
        case resolved(Any?)
        case rejected(String)
    }

    private let lock = NSLock()
    private var state = Result.pending
    private var calls = 0

    public var result: Result { lock.withLock { state } }
    /// How many times the reply handler was called.
    public var replyCalls: Int { lock.withLock { calls } }

    /// The resolved value, when the promise resolved.
    public var value: Any?? {
        if case .resolved(let value) = result { return .some(value) }
        return nil
    }

    /// The rejection message, when the promise was rejected.
    public var errorMessage: String? {
        if case .rejected(let message) = result { return message }
        return nil
    }

    /// STUB-ONLY: the rejection parsed as Switchboard's error envelope (`{"kind","channel","message"}`),
    /// as the page client reads it: its kind and message.
    public var envelope: (kind: String, message: String)? {
        guard let text = errorMessage,
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let kind = object["kind"] as? String, let message = object["message"] as? String
        else { return nil }
        return (kind, message)
    }

    public var isPending: Bool {
        if case .pending = result { return true }
        return false
    }

    func settle(_ result: Result) {
        lock.withLock {
            calls += 1
            state = result
        }
    }

    /// The state WebKit keeps behind a reply block (CompletionHandlerWithFinalizer).
    final class Checker: @unchecked Sendable {
        private let post: _PostedMessage
        private let lock = NSLock()
        private var called = false

        init(_ post: _PostedMessage) { self.post = post }

        func reply(_ value: Any?, _ error: String?) {
            let twice = lock.withLock { () -> Bool in
                defer { called = true }
                return called
            }
            if twice {
                preconditionFailure(
                    "*** Terminating app due to uncaught exception 'NSInternalInconsistencyException', reason: "
                        + "'replyHandler passed to userContentController:didReceiveScriptMessage:replyHandler: "
                        + "should not be called twice'")
            }
            if let error {
                post.settle(.rejected(error))
            } else if let value, !isSerializable(value) {
                post.settle(
                    .rejected(
                        "The result value passed back from the WKWebView API client was unable to be serialized"))
            } else {
                post.settle(.resolved(value))
            }
        }

        deinit {
            if !called { post.settle(.rejected("WKWebView API client did not respond to this postMessage")) }
        }
    }
}

/// What WebKit's SerializedScriptValue::createFromNSObject accepts: NSNumber, NSString, NSDate,
/// NSNull, and NSArray / NSDictionary (string keys) of those.
private func isSerializable(_ value: Any) -> Bool {
    switch value {
    case is NSNull, is String, is NSString, is Bool, is Int, is Double, is NSNumber, is Date:
        return true
    case let array as [Any]:
        return array.allSatisfy(isSerializable)
    case let object as [String: Any]:
        return object.values.allSatisfy(isSerializable)
    default:
        return false
    }
}
