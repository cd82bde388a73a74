// Stub of WebKit's WKScriptMessageHandler, for the Linux CI step .ci/webkit only.
// Source: https://developer.apple.com/documentation/webkit/wkscriptmessagehandler
//   @MainActor protocol WKScriptMessageHandler : NSObjectProtocol
//   func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
// WebKit header: Source/WebKit/UIProcess/API/Cocoa/WKScriptMessageHandler.h
//   (NS_SWIFT_UI_ACTOR @protocol WKScriptMessageHandler <NSObject>, @required)

import Foundation

@MainActor
public protocol WKScriptMessageHandler: NSObjectProtocol {
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage)
}
