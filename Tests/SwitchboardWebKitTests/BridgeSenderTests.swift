import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// The bridge routes with the sender WebKit reports; a refused message's promise is
/// rejected with a message the page can tell from "no responder".
@MainActor
@Suite struct BridgeSenderTests {
    func shopBridge() throws -> (Router, RouterBridge, RouterRecorderBox, [Registration]) {
        let policy = try OriginPolicy(allowing: ["https://shop.example.com"])
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(50), originPolicy: policy))
        let seen = RouterRecorderBox()
        var tokens: [Registration] = []
        tokens.append(router.on(AddCartLine.self) { line in seen.append(line.productId) })
        tokens.append(
            try router.respond(to: CartTotal.self) { request, reply in
                reply(.success(Total(amount: "1.00", currency: request.currency)))
            })
        return (router, RouterBridge(router: router, registry: FakeRegistry()), seen, tokens)
    }

    @Test func webKitsFrameInfoBecomesTheSender() throws {
        let shop = MessageSender(securityOriginProtocol: "https", host: "shop.example.com", port: 0, isMainFrame: true)
        #expect(shop.origin == (try Origin(parsing: "https://shop.example.com")))
        #expect(shop.isMainFrame == true)
        let explicit = MessageSender(
            securityOriginProtocol: "https", host: "Shop.Example.com", port: 443, isMainFrame: false)
        #expect(explicit.origin == shop.origin && explicit.isMainFrame == false)
        let other = MessageSender(
            securityOriginProtocol: "https", host: "shop.example.com", port: 8443, isMainFrame: true)
        #expect(other.origin?.serialized == "https://shop.example.com:8443")
        // An opaque origin (sandboxed frame, about:blank): WebKit reports empty parts.
        let opaque = MessageSender(securityOriginProtocol: "", host: "", port: 0, isMainFrame: false)
        #expect(opaque.origin == nil && opaque.claimedOrigin == nil)
        let odd = MessageSender(securityOriginProtocol: "https", host: "shop.example.com.", port: 0, isMainFrame: true)
        #expect(odd.origin == nil && odd.claimedOrigin == "https://shop.example.com.")
    }

    /// Whatever parts WebKit reports, the sender is either a valid origin or unknown (refused under a policy).
    @Test func webKitsOddPartsLeaveTheOriginUnknown() throws {
        let policy = try OriginPolicy(
            allowing: ["https://shop.example.com", "http://[::1]:8080"], allowsSubframes: true)
        let refused: [(String, String, Int)] = [
            ("", "shop.example.com", 0), ("https", "", 0), ("file", "", 0), ("https", "shop.example.com", -1),
            ("https", "shop.example.com", 65_536), ("https", "shop.example.com:443", 0), ("https", "fe80::1%en0", 0),
            ("https", "[+1::]", 0), ("blob", "shop.example.com", 0), ("https", "shop.example.com\u{0}", 0),
            ("https", "shop.example.com/", 0), ("https", "user@shop.example.com", 0), ("https ", "shop.example.com", 0),
        ]
        for (scheme, host, port) in refused {
            let sender = MessageSender(securityOriginProtocol: scheme, host: host, port: port, isMainFrame: true)
            #expect(sender.origin == nil, "\(scheme) \(host) \(port)")
            #expect(!policy.admits(sender), "\(scheme) \(host) \(port)")
        }
        for (scheme, host, port) in [
            ("HTTPS", "SHOP.example.com", 443), ("http", "::1", 8080), ("http", "[::1]", 8080),
        ] {
            let sender = MessageSender(securityOriginProtocol: scheme, host: host, port: port, isMainFrame: false)
            #expect(policy.admits(sender), "\(scheme) \(host) \(port)")
        }
    }

    @Test func theShopsMainFrameIsHandled() async throws {
        let (_, bridge, seen, tokens) = try shopBridge()
        let box = ReplyBox()
        let shop = MessageSender(securityOriginProtocol: "https", host: "shop.example.com", port: 0, isMainFrame: true)
        let outcome = bridge.handle(
            name: "addCartLine", body: ["productId": "p1", "quantity": 1], sender: shop, replyHandler: box.handler)
        #expect(outcome.kind == .handled)
        #expect(await eventually { box.calls == 1 })
        #expect(seen.all == ["p1"])
        _ = tokens
    }

    @Test func anAdInASubframeIsRejectedAndThePromiseSaysSo() async throws {
        let (_, bridge, seen, tokens) = try shopBridge()
        let box = ReplyBox()
        let ad = MessageSender(securityOriginProtocol: "https", host: "ads.example.net", port: 0, isMainFrame: false)
        let outcome = bridge.handle(
            name: "addCartLine", body: ["productId": "p1", "quantity": 1], sender: ad, replyHandler: box.handler)
        #expect(outcome.kind == .rejected)
        #expect(await eventually { box.calls == 1 })
        #expect(box.valueJSON == nil)
        #expect(
            envelope(box.error)?.message.hasPrefix(
                "addCartLine: rejected: origin https://ads.example.net is not allowed")
                == true)
        #expect(envelope(box.error)?.kind == .rejected)
        #expect(envelope(box.error)?.channel == "addCartLine")
        #expect(seen.all.isEmpty)
        _ = tokens
    }

    @Test func aRequestWithoutASenderIsRejectedFailClosed() async throws {
        let (_, bridge, _, tokens) = try shopBridge()
        let box = ReplyBox()
        let outcome = bridge.handle(name: "cartTotal", body: ["currency": "EUR"], replyHandler: box.handler)
        #expect(outcome.kind == .rejected)
        #expect(await eventually { box.calls == 1 })
        #expect(envelope(box.error)?.message.hasPrefix("cartTotal: rejected: ") == true)
        #expect(envelope(box.error)?.kind == .rejected)
        _ = tokens
    }

    @Test func aRejectedFailureMapsToNoValueAndItsMessage() throws {
        let rejection = PolicyRejection(
            channel: "cartTotal", sender: .unknown, reason: .unknownOrigin, policy: try OriginPolicy(allowing: []))
        let failure = RequestFailure.rejected("cartTotal", rejection)
        let (value, error) = ScriptReply.arguments(for: .failure(failure), on: "cartTotal")
        #expect(value == nil)
        #expect(envelope(error) == ErrorEnvelope(failure))
        #expect(envelope(error)?.kind == .rejected)
    }
}

/// A thread-safe list of what a handler saw.
final class RouterRecorderBox: Sendable {
    private let values = Locked<[String]>([])
    func append(_ value: String) { values.withLock { $0.append(value) } }
    var all: [String] { values.withLock { $0 } }
}
