// Stub of WebKit's WKContentWorld, for the Linux CI step .ci/webkit only.
// Source: https://developer.apple.com/documentation/webkit/wkcontentworld
//   @MainActor class WKContentWorld : NSObject
//   class var page: WKContentWorld { get }            (WKContentWorld/page)
//   class var defaultClient: WKContentWorld { get }   (WKContentWorld/defaultClient)
//   class func world(name: String) -> WKContentWorld  (WKContentWorld/world(name:))
//   var name: String? { get }                          (WKContentWorld/name)
// WebKit header: Source/WebKit/UIProcess/API/Cocoa/WKContentWorld.h
//   (+pageWorld, +defaultClientWorld, +worldWithName:, @property name, NS_SWIFT_UI_ACTOR)

import Foundation

@MainActor
open class WKContentWorld: NSObject {
    /// The world of the page's own scripts. One object, as in WebKit.
    public class var page: WKContentWorld { Worlds.page }

    /// The default world for clients. One object, as in WebKit.
    public class var defaultClient: WKContentWorld { Worlds.defaultClient }

    /// The world with `name`: the same object for the same name (WebKit documents
    /// "The next time you request a content world with the same name, this method
    /// returns the object it previously created").
    public class func world(name: String) -> WKContentWorld {
        if let world = Worlds.named[name] { return world }
        let world = WKContentWorld(stubName: name)
        Worlds.named[name] = world
        return world
    }

    /// The world's name; `nil` for `.page` and `.defaultClient`.
    public var name: String? { stubName }

    private let stubName: String?

    fileprivate init(stubName: String?) {
        self.stubName = stubName
        super.init()
    }
}

@MainActor
private enum Worlds {
    static let page = WKContentWorld(stubName: nil)
    static let defaultClient = WKContentWorld(stubName: nil)
    static var named: [String: WKContentWorld] = [:]
}
