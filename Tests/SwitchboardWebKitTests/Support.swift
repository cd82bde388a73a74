import Foundation
import Switchboard

/// A content controller stand-in: records every call and flags duplicates.
@MainActor
final class FakeRegistry: ScriptMessageHandlerRegistry {
    private(set) var handlers: Set<String> = []
    private(set) var calls: [String] = []
    private(set) var misuses: [String] = []
    private(set) var script: String?
    private(set) var scriptUpdates = 0
    /// The page scripts run (manifest updates, pushes) that the page's sender was admitted to.
    private(set) var ran: [PageScript] = []
    /// Who the loaded page is, for ``PageScript/admits``.
    var page = MessageSender(securityOriginProtocol: "https", host: "shop.example.com", port: 0, isMainFrame: true)

    func run(_ script: PageScript) {
        if script.admits(page) { ran.append(script) }
    }

    func addHandler(named name: String) {
        if handlers.contains(name) { misuses.append("duplicate add \(name)") }
        handlers.insert(name)
        calls.append("add \(name)")
    }

    func removeHandler(named name: String) {
        if !handlers.contains(name) { misuses.append("remove of unregistered \(name)") }
        handlers.remove(name)
        calls.append("remove \(name)")
    }

    func setUserScript(source: String?) {
        script = source
        scriptUpdates += 1
    }
}

/// What a reply handler was called with, as JSON text for comparison.
@MainActor
final class ReplyBox {
    private(set) var calls = 0
    private(set) var valueJSON: String?
    private(set) var error: String?

    var handler: @MainActor @Sendable (Any?, String?) -> Void {
        { [self] value, error in
            self.calls += 1
            self.valueJSON = value.map(jsonText)
            self.error = error
        }
    }
}

func jsonText(_ value: Any) -> String {
    guard JSONSerialization.isValidJSONObject([value]),
        let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
    else { return "<not JSON: \(value)>" }
    return String(decoding: data, as: UTF8.self)
}

/// The manifest JSON embedded in a user script built by `ManifestScript`.
func embeddedManifest(in script: String) -> Manifest? {
    guard let start = script.range(of: "var manifest = "),
        let end = script.range(of: ";\n", range: start.upperBound..<script.endIndex)
    else { return nil }
    let json = script[start.upperBound..<end.lowerBound]
    return try? JSONDecoder().decode(Manifest.self, from: Data(json.utf8))
}

struct Ping: BodylessEvent { static let channel: Channel = "ping" }

struct AddCartLine: Event {
    static let channel: Channel = "addCartLine"
    let productId: String
    let quantity: Int
}

struct RemoveCartLine: Event {
    static let channel: Channel = "removeCartLine"
    let lineId: String
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

struct BrokenTotal: Request {
    static let channel: Channel = "brokenTotal"
    typealias Reply = Double
}

struct CartError: Error, CustomStringConvertible {
    var description: String { "the cart is locked" }
}

/// The ``ErrorEnvelope`` a reply handler's error string holds (its JSON text), or `nil` when it
/// is not one.
func envelope(_ text: String?) -> ErrorEnvelope? {
    guard let text else { return nil }
    return try? JSONDecoder().decode(ErrorEnvelope.self, from: Data(text.utf8))
}

extension Manifest {
    /// The manifest's channels, features and whole-contract digest, without pushes and per-channel digests.
    var core: Manifest { Manifest(channels: channels, features: features, contract: contract) }
}
