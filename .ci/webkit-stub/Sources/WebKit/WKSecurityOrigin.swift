// Stub of WebKit's WKSecurityOrigin, for the Linux CI step .ci/webkit only.
// Source: https://developer.apple.com/documentation/webkit/wksecurityorigin
//   @MainActor class WKSecurityOrigin : NSObject
//   var `protocol`: String { get }   var host: String { get }   var port: Int { get }
// WebKit header: Source/WebKit/UIProcess/API/Cocoa/WKSecurityOrigin.h
//   (@property protocol, host, port (NSInteger); `- (instancetype)init NS_UNAVAILABLE;`)

import Foundation

@MainActor
open class WKSecurityOrigin: NSObject {
    /// The origin's scheme, e.g. `"https"`.
    public var `protocol`: String { stubProtocol }
    /// The origin's host, e.g. `"shop.example.com"`.
    public var host: String { stubHost }
    /// The origin's port; `0` when the scheme's default port is used (as WebKit reports it).
    public var port: Int { stubPort }

    private let stubProtocol: String
    private let stubHost: String
    private let stubPort: Int

    /// STUB-ONLY (WebKit's init is unavailable; WebKit creates origins itself).
    public init(_protocol: String, host: String, port: Int = 0) {
        stubProtocol = _protocol
        stubHost = host
        stubPort = port
        super.init()
    }
}
