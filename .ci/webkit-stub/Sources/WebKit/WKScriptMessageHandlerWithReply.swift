// Stub of WebKit's WKScriptMessageHandlerWithReply, for the Linux CI step .ci/webkit only.
// Source: https://developer.apple.com/documentation/webkit/wkscriptmessagehandlerwithreply
//   @MainActor protocol WKScriptMessageHandlerWithReply : NSObjectProtocol
// and .../userContentController(_:didreceive:replyhandler:):
//   func userContentController(_ userContentController: WKUserContentController,
//       didReceive message: WKScriptMessage,
//       replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void)
// WebKit header: Source/WebKit/UIProcess/API/Cocoa/WKScriptMessageHandlerWithReply.h
//   (NS_SWIFT_UI_ACTOR; replyHandler:(void (^)(id _Nullable reply, NSString * _Nullable errorMessage))
//    WK_SWIFT_UI_ACTOR, which Swift imports as @MainActor @Sendable).
// Not mirrored: the SDK also imports an `async -> (Any?, String?)` form of the same
// Objective-C requirement (a conformer implements either one); a Swift protocol cannot
// say "one of two", so the stub has only the completion-handler form, which the adapter uses.

import Foundation

@MainActor
public protocol WKScriptMessageHandlerWithReply: NSObjectProtocol {
    func userContentController(
        _ userContentController: WKUserContentController,
        didReceive message: WKScriptMessage,
        replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void
    )
}
