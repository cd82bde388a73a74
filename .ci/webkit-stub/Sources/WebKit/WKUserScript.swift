// Stub of WebKit's WKUserScript, for the Linux CI step .ci/webkit only.
// Source: https://developer.apple.com/documentation/webkit/wkuserscript
//   @MainActor class WKUserScript : NSObject, NSCopying
//   init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool)
//   init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool, in contentWorld: WKContentWorld)
//   var source: String { get }   var injectionTime: WKUserScriptInjectionTime { get }
//   var isForMainFrameOnly: Bool { get }
// and https://developer.apple.com/documentation/webkit/wkuserscriptinjectiontime
//   enum WKUserScriptInjectionTime : Int { case atDocumentStart = 0, atDocumentEnd = 1 }
// WebKit header: Source/WebKit/UIProcess/API/Cocoa/WKUserScript.h

import Foundation

public enum WKUserScriptInjectionTime: Int, @unchecked Sendable {
    case atDocumentStart = 0
    case atDocumentEnd = 1
}

@MainActor
open class WKUserScript: NSObject, NSCopying {
    public let source: String
    public let injectionTime: WKUserScriptInjectionTime
    public let isForMainFrameOnly: Bool
    /// STUB-ONLY: the world the script runs in (WebKit keeps it privately, `_contentWorld`).
    public let _contentWorld: WKContentWorld

    public convenience init(source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool) {
        self.init(source: source, injectionTime: injectionTime, forMainFrameOnly: forMainFrameOnly, in: .page)
    }

    public init(
        source: String, injectionTime: WKUserScriptInjectionTime, forMainFrameOnly: Bool,
        in contentWorld: WKContentWorld
    ) {
        self.source = source
        self.injectionTime = injectionTime
        self.isForMainFrameOnly = forMainFrameOnly
        self._contentWorld = contentWorld
        super.init()
    }

    public nonisolated func copy(with zone: NSZone? = nil) -> Any {
        // Immutable: the copy may be the object itself.
        self
    }
}
