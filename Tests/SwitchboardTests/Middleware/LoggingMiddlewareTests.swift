import Foundation
import Switchboard
import Testing

@Suite struct LoggingMiddlewareTests {
    private func parsed(_ json: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
    }

    @Test func itWritesOneLinePerMessageWithChannelOutcomeAndBody() throws {
        let router = Router()
        let lines = RouterRecorder<String>()
        let logging = router.use(LoggingMiddleware(sink: { lines.append($0) }))
        let handler = router.on(Ping.self) { _ in }
        _ = router.receive(name: "ping", body: try parsed(#"{"count": 2, "label": "two"}"#))
        _ = router.receive(Message(channel: "nobody", body: nil, id: "r1"))
        #expect(
            lines.all == [
                #"switchboard: ping → handled by 1 {"count":2,"label":"two"}"#,
                #"switchboard: nobody #"r1" → unhandled (no body)"#,
            ])
        withExtendedLifetime((logging, handler)) {}
    }

    @Test func itTruncatesLargeBodiesAndSaysHowMuchWasLeftOut() throws {
        let body = MessageBody(["text": String(repeating: "x", count: 1000)])
        let rendered = LoggingMiddleware.render(body, maxBytes: 20)
        // {"text":"xxxxxxxxxxx  is 20 bytes; the whole rendering is 1011.
        #expect(rendered == #"{"text":"xxxxxxxxxxx… (+991 bytes)"#)
        #expect(LoggingMiddleware.render(body, maxBytes: 5000).count == 1011)
    }

    @Test func truncationNeverSplitsACharacter() {
        let rendered = LoggingMiddleware.render(MessageBody("ééééé"), maxBytes: 4)
        #expect(rendered == #""é… (+9 bytes)"#)
    }

    @Test func itRendersEveryKindOfValueCompactly() throws {
        let tree = try parsed(
            #"{"b": true, "n": null, "i": 1, "d": 2.5, "s": "a\"b\nc", "a": [1, false], "o": {"z": 1, "y": 2}}"#)
        #expect(
            LoggingMiddleware.render(MessageBody(tree), maxBytes: 500)
                == #"{"a":[1,false],"b":true,"d":2.5,"i":1,"n":null,"o":{"y":2,"z":1},"s":"a\"b\nc"}"#)
        let native: [String: Any] = ["count": 3, "ok": true, "price": 9.5, "when": Date(timeIntervalSince1970: 0)]
        #expect(
            LoggingMiddleware.render(MessageBody(native), maxBytes: 500)
                == #"{"count":3,"ok":true,"price":9.5,"when":"1970-01-01T00:00:00Z"}"#)
        struct Opaque {}
        #expect(LoggingMiddleware.render(MessageBody([Opaque()]), maxBytes: 500) == #"["<Opaque>"]"#)
        #expect(LoggingMiddleware.render(.absent, maxBytes: 500) == "(no body)")
    }

    @Test func aJSONValueBodyRendersToo() {
        let body = MessageBody(json: .object(["b": .array([.null, .bool(true)]), "a": .string("x")]))
        #expect(LoggingMiddleware.render(body, maxBytes: 100) == #"{"a":"x","b":[null,true]}"#)
    }

    @Test func aBodyReadFromJSONBytesRendersToo() throws {
        let body = try MessageBody(jsonBytes: Array(#"{"a":[1,"x",true,null],"b":{"c":2.5}}"#.utf8))
        #expect(LoggingMiddleware.render(body, maxBytes: 100).contains(#""c":2.5"#))
    }

    @Test func aLineNeverHoldsALineBreak() {
        let logging = LoggingMiddleware(prefix: "", sink: { _ in })
        let line = logging.line(
            for: Message(channel: "c", body: ["k": "v"], id: "multi\nline"), outcome: .stopped(reason: "a\nb"))
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix("c #"))
    }

    @Test func itLogsTheOutcomeOfRequestsAndPassesItOnUnchanged() async throws {
        let router = Router()
        let lines = RouterRecorder<String>()
        let logging = router.use(LoggingMiddleware(maxBodyBytes: 0, prefix: "bridge", sink: { lines.append($0) }))
        let responder = try router.respond(to: Echo.self) { request, reply in reply.succeed(request.text) }
        #expect(await router.request(name: "echo", body: ["text": "hi"]).reply(as: String.self) == "hi")
        #expect(lines.all == [#"bridge: echo → replied "hi" … (+13 bytes)"#])
        withExtendedLifetime((logging, responder)) {}
    }
}
