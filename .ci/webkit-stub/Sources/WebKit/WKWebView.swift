// Stub of the parts of WebKit's WKWebView and WKWebViewConfiguration the adapter uses,
// for the Linux CI step .ci/webkit only.
// Source: https://developer.apple.com/documentation/webkit/wkwebview
//   @MainActor class WKWebView : UIView / NSView
//   init(frame: CGRect, configuration: WKWebViewConfiguration)
//   @NSCopying var configuration: WKWebViewConfiguration { get }
//   func evaluateJavaScript(_ javaScriptString: String,
//       completionHandler: (@MainActor @Sendable (Any?, (any Error)?) -> Void)? = nil)
//                                              (evaluateJavaScript(_:completionHandler:))
//   @MainActor @preconcurrency func evaluateJavaScript(_ javaScript: String, in frame: WKFrameInfo? = nil,
//       in contentWorld: WKContentWorld,
//       completionHandler: (@MainActor @Sendable (Result<Any, any Error>) -> Void)? = nil)
//                                              (evaluateJavaScript(_:in:in:completionHandler:))
//   @MainActor @preconcurrency func callAsyncJavaScript(_ functionBody: String,
//       arguments: [String : Any] = [:], in frame: WKFrameInfo?, in contentWorld: WKContentWorld,
//       completionHandler: (@MainActor @Sendable (Result<Any, any Error>) -> Void)? = nil)
//                                              (callAsyncJavaScript(_:arguments:in:in:completionHandler:))
//   var url: URL? { get }                      (url)
// and https://developer.apple.com/documentation/webkit/wkwebviewconfiguration
//   var userContentController: WKUserContentController { get set }

import Foundation

@MainActor
open class WKWebViewConfiguration: NSObject {
    public var userContentController = WKUserContentController()

    public override init() {
        super.init()
    }
}

@MainActor
open class WKWebView: NSObject {
    /// WebKit copies the configuration, but the copy shares its user content controller.
    public let configuration: WKWebViewConfiguration

    /// STUB-ONLY: every script evaluated, with its world, in order.
    public private(set) var _evaluated: [(source: String, world: WKContentWorld)] = []
    /// STUB-ONLY: every function called with `callAsyncJavaScript`, with its arguments and world, in order.
    public private(set) var _called:
        [(body: String, arguments: [String: Any], frame: WKFrameInfo?, world: WKContentWorld)] = []
    /// STUB-ONLY: the URL of the loaded page.
    public var _url: URL?

    /// The URL of the page loaded in the main frame.
    public var url: URL? { _url }

    public init(frame: CGRect, configuration: WKWebViewConfiguration) {
        self.configuration = configuration
        super.init()
    }

    public func evaluateJavaScript(
        _ javaScriptString: String, completionHandler: (@MainActor @Sendable (Any?, (any Error)?) -> Void)? = nil
    ) {
        _evaluated.append((javaScriptString, .page))
        completionHandler?(nil, nil)
    }

    public func evaluateJavaScript(
        _ javaScript: String, in frame: WKFrameInfo? = nil, in contentWorld: WKContentWorld,
        completionHandler: (@MainActor @Sendable (Result<Any, any Error>) -> Void)? = nil
    ) {
        _evaluated.append((javaScript, contentWorld))
        completionHandler?(.success(NSNull()))
    }

    public func callAsyncJavaScript(
        _ functionBody: String, arguments: [String: Any] = [:], in frame: WKFrameInfo?,
        in contentWorld: WKContentWorld,
        completionHandler: (@MainActor @Sendable (Result<Any, any Error>) -> Void)? = nil
    ) {
        _called.append((functionBody, arguments, frame, contentWorld))
        completionHandler?(.success(NSNull()))
    }
}
