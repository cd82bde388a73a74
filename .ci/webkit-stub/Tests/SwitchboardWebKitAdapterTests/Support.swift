import Foundation
import Switchboard
import WebKit

/// A page frame at `url` (stub-only initializer), as WebKit would describe the sender.
@MainActor
func frame(_ url: String = "https://shop.example.com/cart", mainFrame: Bool = true) -> WKFrameInfo {
    WKFrameInfo(_url: URL(string: url)!, isMainFrame: mainFrame)
}

/// `value` as sorted JSON text, for comparing what the page's promise resolved with.
func jsonText(_ value: Any?) -> String {
    guard let value else { return "undefined" }
    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
    else { return "<not JSON: \(value)>" }
    return String(decoding: data, as: UTF8.self)
}

/// An app's own script message handler: records what it receives.
@MainActor
final class AppHandler: NSObject, WKScriptMessageHandler {
    private(set) var received: [WKScriptMessage] = []
    func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage) {
        received.append(message)
    }
}

struct Ping: BodylessEvent { static let channel: Channel = "ping" }

struct AddCartLine: Event {
    static let channel: Channel = "addCartLine"
    let productId: String
    let quantity: Int
}

struct CartTotal: Request {
    static let channel: Channel = "cartTotal"
    typealias Reply = Total
    let currency: String
}

struct Total: Codable, Sendable, Equatable {
    let amount: String
    let currency: String
}

struct CartLocked: Error, CustomStringConvertible {
    var description: String { "the cart is locked" }
}
