// Stub of WebKit's WKScriptMessage, for the Linux CI step .ci/webkit only.
// Source: https://developer.apple.com/documentation/webkit/wkscriptmessage
//   @MainActor class WKScriptMessage : NSObject
//   var body: Any { get }
//   @NSCopying var frameInfo: WKFrameInfo { get }
//   var name: String { get }
//   weak var webView: WKWebView? { get }
//   var world: WKContentWorld { get }
// WebKit header: Source/WebKit/UIProcess/API/Cocoa/WKScriptMessage.h
//   (body: id (NSNumber, NSString, NSDate, NSArray, NSDictionary, NSNull); webView (weak);
//    frameInfo (copy); name (copy); world)

import Foundation

@MainActor
open class WKScriptMessage: NSObject {
    /// The body the page posted: NSNumber, NSString, NSDate, NSArray, NSDictionary or NSNull.
    public var body: Any { stubBody }
    /// The frame that sent the message.
    public var frameInfo: WKFrameInfo { stubFrameInfo }
    /// The name of the handler the message was posted to.
    public var name: String { stubName }
    /// The web view that sent the message (weak, as in WebKit).
    public weak var webView: WKWebView? { stubWebView }
    /// The content world the message was posted from.
    public var world: WKContentWorld { stubWorld }

    private let stubBody: Any
    private let stubFrameInfo: WKFrameInfo
    private let stubName: String
    private weak var stubWebView: WKWebView?
    private let stubWorld: WKContentWorld

    /// STUB-ONLY: WebKit makes messages itself (`-_initWithBody:webView:frameInfo:name:world:`).
    public init(_body body: Any, webView: WKWebView?, frameInfo: WKFrameInfo, name: String, world: WKContentWorld) {
        stubBody = body
        stubWebView = webView
        stubFrameInfo = frameInfo
        stubName = name
        stubWorld = world
        super.init()
    }
}
