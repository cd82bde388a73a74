import Foundation
import Switchboard
import SwitchboardTesting
import Testing

@Suite struct TrafficRecorderTests {
    @Test func writesOneFixtureLinePerMessageWithNameBodyAndID() {
        let router = Router()
        let recorder = TrafficRecorder()
        let token = router.use(recorder, name: "recorder")
        _ = router.receive(name: "sdkReady", body: nil)
        _ = router.receive(name: "addCartLine", body: MessageBody(["quantity": 2, "ok": true, "price": 10.5, "tags": ["a/b"]]), id: "r1", replyHandler: nil)
        #expect(recorder.lines == [
            #"{"name":"sdkReady"}"#,
            #"{"name":"addCartLine","body":{"ok":true,"price":10.5,"quantity":2,"tags":["a/b"]},"id":"r1"}"#,
        ])
        #expect(recorder.ndjson == recorder.lines.map { $0 + "\n" }.joined())
        _ = token
    }

    @Test func redactsNamedKeysAtAnyDepthAndInsideArrays() {
        let body: [String: Any] = [
            "email": "a@example.com",
            "lines": [["Token": "secret", "quantity": 1], ["nested": ["EMAIL": ["x": 1]]]],
            "note": "email",
        ]
        let line = TrafficRecorder.line(for: Message(channel: "x", body: body), redacting: ["email", "token"])
        #expect(line == #"{"name":"x","body":{"email":"[redacted]","lines":[{"Token":"[redacted]","quantity":1},{"nested":{"EMAIL":"[redacted]"}}],"note":"email"}}"#)
        #expect(!line.contains("secret"))
        #expect(!line.contains("a@example.com"))
    }

    @Test func valuesThatAreNotJSONBecomeStringsSoEveryLineIsValid() throws {
        let body: [String: Any] = [
            "when": Date(timeIntervalSince1970: 0), "nan": Double.nan, "inf": Double.infinity,
            "flag": false, "text": "line\u{2028}break\n", "null": NSNull(),
        ]
        let line = TrafficRecorder.line(for: Message(channel: "x", body: body))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let parsed = try #require(object["body"] as? [String: Any])
        #expect(parsed["when"] as? String == "1970-01-01T00:00:00Z")
        #expect(parsed["nan"] as? String == "nan")
        #expect(parsed["inf"] as? String == "inf")
        #expect(parsed["text"] as? String == "line\u{2028}break\n")
        #expect(parsed["null"] is NSNull)
        #expect(line.contains(#""flag":false"#))
        #expect(!line.contains("\u{2028}"))
    }

    @Test func appendsToAFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("traffic.ndjson")
        try "{\"name\":\"earlier\"}\n".write(to: url, atomically: true, encoding: .utf8)
        let router = Router()
        let recorder = try TrafficRecorder(appendingTo: url, redacting: ["email"])
        let token = router.use(recorder)
        _ = router.receive(name: "addCartLine", body: line(1))
        token.cancel()
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.split(separator: "\n").count == 2)
        #expect(text.hasPrefix("{\"name\":\"earlier\"}\n{\"name\":\"addCartLine\""))
        #expect(text.contains(#""email":"[redacted]""#))
        #expect(recorder.lines.isEmpty)  // a file recorder keeps nothing in memory
    }

    @Test func recordsMessagesNoHandlerTakesAndPassesEveryMessageOnUnchanged() {
        let app = CountingApp()
        let recorder = TrafficRecorder()
        let token = app.router.use(recorder)
        #expect(app.router.receive(name: "nobody", body: nil).kind == "unhandled")
        #expect(app.router.receive(name: "addCartLine", body: line(4)).kind == "handled")
        #expect(app.total == 4)
        #expect(recorder.lines.count == 2)
        _ = token
    }

    @Test func recordedTrafficReplaysToTheSameOutcomes() async throws {
        // Live traffic through the app's router, recorded with redaction.
        let live = CountingApp()
        let recorder = TrafficRecorder(redacting: ["email"])
        let token = live.router.use(recorder, name: "recorder")
        let liveOutcomes = await live.router.replay([
            FixtureMessage(name: "sdkReady"),
            FixtureMessage(name: "addCartLine", body: MessageBody(line(2)), id: "a1"),
            FixtureMessage(name: "addCartLine", body: MessageBody(["quantity": "2"])),
            FixtureMessage(name: "addCartLine", body: MessageBody(line(-1))),
            FixtureMessage(name: "removeCartLine", body: MessageBody([:] as [String: Any])),
            FixtureMessage(name: "getCount", id: "7"),
        ], replyTimeout: patientReplyTimeout)
        token.cancel()

        // Tomorrow's test: the recorded NDJSON replayed through a fresh app.
        let fixture = Fixture(ndjson: Data(recorder.ndjson.utf8))
        #expect(fixture.malformed.isEmpty)
        #expect(!recorder.ndjson.contains("a@example.com"))
        let fresh = CountingApp()
        let replayed = await fresh.router.replay(fixture, replyTimeout: patientReplyTimeout)

        #expect(replayed.map(\.kind) == liveOutcomes.map(\.kind))
        #expect(replayed.map(\.kind) == ["handled", "handled", "invalid", "failed", "unhandled", "replied"])
        #expect(replayed.map(\.message.id) == [nil, "a1", nil, nil, nil, "7"])
        #expect(replayed.last?.replyValue?.value(as: Int.self) == 2)
        #expect(replayed.last?.replyValue?.value(as: Int.self) == liveOutcomes.last?.replyValue?.value(as: Int.self))
    }
}
