// Stub of WebKit's WKFrameInfo, for the Linux CI step .ci/webkit only.
// Source: https://developer.apple.com/documentation/webkit/wkframeinfo
//   @MainActor class WKFrameInfo : NSObject, NSCopying
//   var isMainFrame: Bool { get }
//   var request: URLRequest { get }
//   var securityOrigin: WKSecurityOrigin { get }
//   weak var webView: WKWebView? { get }
// WebKit header: Source/WebKit/UIProcess/API/Cocoa/WKFrameInfo.h
//   (@property (nonatomic, readonly, getter=isMainFrame) BOOL mainFrame; request (copy);
//    securityOrigin; @property (nonatomic, readonly, weak) WKWebView *webView)

import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLRequest on Linux
#endif

@MainActor
open class WKFrameInfo: NSObject, NSCopying {
    /// Whether the frame is the page's main frame.
    public var isMainFrame: Bool { stubIsMainFrame }
    /// The frame's current request.
    public var request: URLRequest { stubRequest }
    /// The frame's security origin (scheme, host, port).
    public var securityOrigin: WKSecurityOrigin { stubOrigin }
    /// The web view that contains the frame (weak, as in WebKit).
    public weak var webView: WKWebView? { stubWebView }

    private let stubIsMainFrame: Bool
    private let stubRequest: URLRequest
    private let stubOrigin: WKSecurityOrigin
    private weak var stubWebView: WKWebView?

    /// STUB-ONLY: WebKit makes frame infos itself; tests make them with this.
    public init(_isMainFrame: Bool, request: URLRequest, securityOrigin: WKSecurityOrigin, webView: WKWebView? = nil) {
        stubIsMainFrame = _isMainFrame
        stubRequest = request
        stubOrigin = securityOrigin
        stubWebView = webView
        super.init()
    }

    /// STUB-ONLY convenience: a frame at `url` whose origin is `url`'s scheme, host and port.
    public convenience init(_url url: URL, isMainFrame: Bool, webView: WKWebView? = nil) {
        self.init(
            _isMainFrame: isMainFrame, request: URLRequest(url: url),
            securityOrigin: WKSecurityOrigin(_protocol: url.scheme ?? "", host: url.host ?? "", port: url.port ?? 0),
            webView: webView)
    }

    public nonisolated func copy(with zone: NSZone? = nil) -> Any {
        // A frame info is an immutable value object: the copy may be the object itself.
        self
    }
}
