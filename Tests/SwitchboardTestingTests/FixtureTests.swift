import Foundation
import Switchboard
import SwitchboardTesting
import Testing

@Suite struct FixtureTests {
    @Test func ndjsonHasOneMessagePerLineAndSkipsBlankLines() throws {
        let text = """
            {"name":"sdkReady"}

            {"name":"addCartLine","body":{"quantity":1},"id":"r1"}\r
            {"name":"getCount","body":null,"id":7}
            not json
            ["an array"]
            {"name":42}
            """
        let fixture = Fixture(ndjson: Data(text.utf8))
        #expect(fixture.messages.map(\.name) == ["sdkReady", "addCartLine", "getCount"])
        #expect(fixture.messages.map(\.line) == [1, 3, 4])
        #expect(fixture.messages.map(\.id) == [nil, "r1", "7"])
        #expect(fixture.messages[0].body.isAbsent)
        #expect(!fixture.messages[2].body.isAbsent)  // `null` is a body, not an absent one
        #expect(fixture.malformed.map(\.line) == [5, 6, 7])
        #expect(fixture.malformed.map(\.reason) == ["not JSON", "not a JSON object", "no string \"name\""])
    }

    @Test func jsonHoldsOneMessageOrAnArray() throws {
        let one = try Fixture(json: Data(#"{"name":"sdkReady","id":"a"}"#.utf8))
        #expect(one.messages.map(\.name) == ["sdkReady"])
        #expect(one.messages.map(\.line) == [1])

        let many = try Fixture(json: Data(#"[{"name":"sdkReady"}, 3, {"name":"getCount","id":true}, {"name":"x"}]"#.utf8))
        #expect(many.messages.map(\.name) == ["sdkReady", "x"])
        #expect(many.messages.map(\.line) == [1, 4])
        #expect(many.malformed.map(\.line) == [2, 3])

        #expect(throws: FixtureError.self) { try Fixture(json: Data("42".utf8)) }
        #expect(throws: FixtureError.self) { try Fixture(json: Data("{".utf8)) }
    }

    @Test func aDirectoryLoadsItsFixturesInSortedOrderWithoutExpectedOutputs() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try #"{"name":"b"}"#.write(to: directory.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        try "{\"name\":\"a\"}\n".write(
            to: directory.appendingPathComponent("a.ndjson"), atomically: true, encoding: .utf8)
        try "{\"line\":1}\n".write(
            to: directory.appendingPathComponent("a.expected.ndjson"), atomically: true, encoding: .utf8)
        try "notes".write(to: directory.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)

        let fixtures = try Fixture.load(directory: directory)
        #expect(fixtures.map { $0.source?.lastPathComponent } == ["a.ndjson", "b.json"])
        #expect(fixtures.flatMap(\.messages).map(\.name) == ["a", "b"])
        #expect(fixtures[0].messages[0].source?.lastPathComponent == "a.ndjson")
    }

    @Test func otherFilesAreRefusedWithTheirPath() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("notes.txt")
        try "x".write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: FixtureError.self) { try Fixture(contentsOf: url) }
        #expect(throws: FixtureError.self) { try Fixture(contentsOf: directory.appendingPathComponent("missing.json")) }
    }
}

@Suite struct ReplayTests {
    @Test func replaysThroughTheUsersOwnRouterInOrder() async throws {
        let app = CountingApp()
        let fixture = Fixture(ndjson: Data("""
            {"name":"sdkReady"}
            {"name":"addCartLine","body":{"merchandiseId":"m1","productId":"p1","quantity":2,"attributes":{}}}
            {"name":"getCount","id":"c1"}
            {"name":"addCartLine","body":{"merchandiseId":"m1","productId":"p1","quantity":"2","attributes":{}}}
            {"name":"addCartLine","body":{"merchandiseId":"m1","productId":"p1","quantity":-1,"attributes":{}}}
            {"name":"removeCartLine","body":{}}
            {"name":""}
            {"name":"addCartLine","body":{"merchandiseId":"m1","productId":"p1","quantity":3,"attributes":{}}}
            {"name":"getCount"}
            """.utf8))
        let results = await app.router.replay(fixture)
        #expect(results.map(\.kind) == [
            "handled", "handled", "replied", "invalid", "failed", "unhandled", "invalidChannel", "handled", "replied",
        ])
        // The reply to the first getCount came before the next message: state applies in input order.
        #expect(results[2].replyValue?.value(as: Int.self) == 2)
        #expect(results[2].message.id == "c1")
        #expect(results[8].replyValue?.value(as: Int.self) == 5)
        #expect(results[5].failure?.kind == "noResponder")
    }

    @Test func aReplyThatNeverComesIsReportedAsStillAwaited() async throws {
        let router = Router()
        let held = Locked<[Reply<Int>]>([])
        let token = try router.respond(to: SlowCount.self) { _, reply in held.withLock { $0.append(reply) } }
        let results = await router.replay([FixtureMessage(name: "slowCount")], replyTimeout: .milliseconds(20))
        #expect(results.map(\.kind) == ["awaitingReply"])
        #expect(results[0].reply == nil)
        _ = token
    }

    @Test func keptMessagesAreReportedAsKeptWithoutWaiting() async {
        let router = Router()
        router.setBufferPolicy(.keepLast, for: TestReady.channel)
        let results = await router.replay([FixtureMessage(name: "sdkReady")])
        #expect(results.map(\.kind) == ["kept"])
    }

    @Test func replaysAFileByURL() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("session.json")
        try #"[{"name":"sdkReady"},{"name":"getCount"}]"#.write(to: url, atomically: true, encoding: .utf8)
        let app = CountingApp()
        let results = try await app.router.replay(contentsOf: url)
        #expect(results.map(\.kind) == ["handled", "replied"])
        #expect(results.map(\.message.source?.lastPathComponent) == ["session.json", "session.json"])
    }
}
