import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWire
import Testing

@Suite struct TrafficRecorderTests {
    @Test func writesOneFixtureLinePerMessageWithNameBodyAndID() {
        let router = Router()
        let recorder = TrafficRecorder()
        let token = router.use(recorder, name: "recorder")
        _ = router.receive(name: "sdkReady", body: nil)
        _ = router.receive(
            name: "addCartLine", body: MessageBody(["quantity": 2, "ok": true, "price": 10.5, "tags": ["a/b"]]),
            id: "r1", replyHandler: nil)
        #expect(
            recorder.lines == [
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
        #expect(
            line
                == #"{"name":"x","body":{"email":"[redacted]","lines":[{"Token":"[redacted]","quantity":1},{"nested":{"EMAIL":"[redacted]"}}],"note":"email"}}"#
        )
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
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("switchboard-wire-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
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

    /// `output` runs outside the recorder's lock: it may read the recorder and route a
    /// message through the same router (recorded after the one being written, not lost).
    @Test func outputMayCallBackIntoTheRecorderAndTheRouter() {
        let router = Router()
        let written = Locked<[String]>([])
        let holder = Locked<TrafficRecorder?>(nil)
        let recorder = TrafficRecorder { line in
            _ = holder.withLock { $0 }?.lines  // re-enters the recorder
            written.withLock { $0.append(line) }
            if line.contains("first") {
                _ = router.receive(name: "second", body: nil)  // re-enters the router and the recorder
            }
        }
        holder.withLock { $0 = recorder }
        let token = router.use(recorder)
        _ = router.receive(name: "first", body: nil)
        _ = router.receive(name: "third", body: nil)
        #expect(written.withLock { $0 } == [#"{"name":"first"}"#, #"{"name":"second"}"#, #"{"name":"third"}"#])
        holder.withLock { $0 = nil }
        withExtendedLifetime(token) {}
    }

    /// From many threads at once, every line reaches `output` once, one call at a time,
    /// and each thread's lines in the order it sent them.
    @Test func outputGetsEveryLineOnceOneAtATimeInEachThreadsOrder() async throws {
        let router = Router()
        let written = Locked<[String]>([])
        let calls = Locked((running: 0, overlapped: false))
        let recorder = TrafficRecorder { line in
            calls.withLock { state in
                if state.running > 0 { state.overlapped = true }
                state.running += 1
            }
            written.withLock { $0.append(line) }
            calls.withLock { $0.running -= 1 }
        }
        let token = router.use(recorder)
        let threads = 4
        let perThread = 500
        await onDispatchThread {
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                for index in 0..<perThread {
                    _ = router.receive(name: "t\(thread)", body: ["i": index])
                }
            }
        }
        let lines = written.withLock { $0 }
        #expect(lines.count == threads * perThread)
        #expect(calls.withLock { $0.overlapped } == false)
        for thread in 0..<threads {
            let indices = lines.filter { $0.hasPrefix(#"{"name":"t\#(thread)","#) }.compactMap { line in
                line.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) }
            }
            #expect(indices == Array(0..<perThread), "thread \(thread)")
        }
        withExtendedLifetime(token) {}
    }

    @Test func recordsMessagesNoHandlerTakesAndPassesEveryMessageOnUnchanged() {
        let router = Router()
        let total = Locked(0)
        let handler = router.on(CartLine.self) { line in total.withLock { $0 += line.quantity } }
        let recorder = TrafficRecorder()
        let token = router.use(recorder)
        #expect(router.receive(name: "nobody", body: nil).kind == .unhandled)
        #expect(router.receive(name: "addCartLine", body: line(4)).kind == .handled)
        #expect(total.withLock { $0 } == 4)
        #expect(recorder.lines.count == 2)
        withExtendedLifetime((token, handler)) {}
    }
}

private struct CartLine: Event {
    static let channel: Channel = "addCartLine"
    let quantity: Int
}

/// An `addCartLine` body with an address to redact.
private func line(_ quantity: Int, email: String = "a@example.com") -> [String: Any] {
    [
        "merchandiseId": "m1", "productId": "p1", "quantity": quantity,
        "attributes": ["email": email, "source": "web"],
    ]
}

/// A `JSONValue` body built in code may nest any number of levels: the recorder converted it to
/// a Foundation tree as deep as itself first, which Swift then released by recursion.
@Suite struct TrafficRecorderDeepBodyTests {
    @Test func aJSONValueBodyBuiltInALoopIsRecordedUpToTheLimitOnASmallStack() async {
        let lines = await onDispatchThread(stackSize: AddressSanitizer.stackSize(512 << 10)) { () -> [String] in
            var value: JSONValue = ["email": "a@example.com", "n": 1.5]
            for _ in 0..<5_000 { value = ["data": [value]] }
            let shallow: JSONValue = ["email": "a@example.com", "n": [1.5, nil, true]]
            let lines = [
                TrafficRecorder.line(
                    for: Message(channel: "x", body: MessageBody(json: value)), redacting: ["email"]),
                TrafficRecorder.line(
                    for: Message(channel: "x", body: MessageBody(json: shallow)), redacting: ["email"]),
            ]
            // Released one level at a time (Swift would release it by recursion).
            var node = value
            value = nil
            while case .object(let members) = node, case .array(let elements)? = members["data"],
                let first = elements.first
            {
                node = first
            }
            return lines
        }
        #expect(lines.first?.hasPrefix(#"{"name":"x","body":{"data":[{"data":[{"#) == true)
        #expect(lines.first?.contains(#""[too deep]""#) == true)
        #expect(lines.first?.contains("a@example.com") == false)
        #expect(lines.last == #"{"name":"x","body":{"email":"[redacted]","n":[1.5,null,true]}}"#)
    }
}
