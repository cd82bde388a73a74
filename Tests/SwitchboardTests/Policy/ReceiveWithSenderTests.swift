import Switchboard
import Testing

/// `receive(name:body:sender:)`: a sender without a reply handler, for `Any?` and
/// ``MessageBody`` bodies; a ``MessageBody`` routes as itself.
@Suite struct ReceiveWithSenderTests {
    static let shop = MessageSender(originText: "https://shop.example.com", isMainFrame: true)

    @Test func aSenderIsGivenWithoutAReplyHandler() throws {
        let policy = try OriginPolicy(allowing: ["https://shop.example.com"])
        let router = Router(options: RouterOptions(originPolicy: policy))
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { seen.append($0.count) }
        #expect(router.receive(name: "ping", body: ["count": 1], sender: Self.shop).kind == .handled)
        let ads = MessageSender(originText: "https://ads.example.net", isMainFrame: true)
        #expect(router.receive(name: "ping", body: ["count": 2], sender: ads).kind == .rejected)
        #expect(router.receive(name: "ping", body: nil, sender: ads).kind == .rejected)
        #expect(seen.all == [1])
        withExtendedLifetime(token) {}
    }

    @Test func aMessageBodyGivenWithASenderRoutesAsItself() throws {
        let policy = try OriginPolicy(allowing: ["https://shop.example.com"])
        let router = Router(options: RouterOptions(originPolicy: policy))
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { seen.append($0.count) }
        let json = JSONValue.object(["count": 1])
        let body = MessageBody(json: json)
        #expect(router.receive(name: "ping", body: body, sender: Self.shop).kind == .handled)
        let erased: Any = body
        #expect(router.receive(name: "ping", body: erased, sender: Self.shop).kind == .handled)
        let optional: MessageBody? = body
        #expect(router.receive(name: "ping", body: optional, sender: Self.shop).kind == .handled)
        #expect(router.receive(name: "ping", body: json as Any, sender: Self.shop).kind == .handled)
        let bytes = try MessageBody(jsonBytes: Array(#"{"count":1}"#.utf8))
        #expect(router.receive(name: "ping", body: bytes, sender: Self.shop).kind == .handled)
        #expect(seen.all == [1, 1, 1, 1, 1])
        withExtendedLifetime(token) {}
    }
}
