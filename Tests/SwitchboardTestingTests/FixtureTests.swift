import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardTesting
import SwitchboardWire
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
        // The CLI's own messages: the fixture is read by the same wire reader.
        #expect(
            fixture.malformed.map(\.reason) == [
                "not valid JSON: invalid literal 'not', expected a value at byte 0 (column 1)",
                "a message must be a JSON object, found an array",
                "\"name\" must be a string, found a number",
            ])
    }

    @Test func readsAsStrictlyAsTheCLI() {
        let text = """
            {"name":"sdkReady","name":"other"}
            {"name":"sdkReady","body":[1,],"id":"trailing-comma"}
            {"name":"sdk\\u0000Ready"}
            {"name":"sdkReady","body":"\\udc00"}
            {"name":"sdkReady","body":NaN}
            {"name":"sdkReady","id":"kept","body":{"price":1e400}}
            """
        let invalidUTF8 = Data(#"{"name":"sdk"#.utf8) + Data([0xFF]) + Data(#"Ready"}"#.utf8)
        let fixture = Fixture(ndjson: Data((text + "\n").utf8) + invalidUTF8)
        #expect(fixture.messages.map(\.id) == ["kept"])
        #expect(fixture.malformed.map(\.line) == [1, 2, 3, 4, 5, 7])
        #expect(fixture.malformed[0].reason.contains("duplicate key \"name\""))
        #expect(
            fixture.malformed[2].reason == "invalid \"name\": channel name holds control character U+0000 at offset 3")
        #expect(fixture.malformed[5].reason.hasPrefix("not valid UTF-8"))
    }

    @Test func aLineOverTheLimitIsMalformedAndTheNextStillLoads() {
        let long = #"{"name":"sdkReady","id":"long","body":"\#(String(repeating: "x", count: 100))"}"#
        let text = long + "\n" + #"{"name":"sdkReady","id":"short"}"#
        var limits = WireSession.Options()
        limits.maxLineBytes = 64
        let fixture = Fixture(ndjson: Data(text.utf8), limits: limits)
        #expect(fixture.messages.map(\.id) == ["short"])
        #expect(
            fixture.malformed.map(\.reason) == [
                "line is \(long.utf8.count) bytes long; the limit is 64 (--max-line-bytes)"
            ])
    }

    @Test func jsonHoldsOneMessageOrAnArray() throws {
        let one = try Fixture(json: Data(#"{"name":"sdkReady","id":"a"}"#.utf8))
        #expect(one.messages.map(\.name) == ["sdkReady"])
        #expect(one.messages.map(\.line) == [1])

        let many = try Fixture(
            json: Data(#"[{"name":"sdkReady"}, 3, {"name":"getCount","id":true}, {"name":"x"}]"#.utf8))
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
        let fixture = Fixture(
            ndjson: Data(
                """
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
        #expect(fixture.malformed.map(\.line) == [7], "an empty channel name is malformed, as the CLI says")
        let results = await app.router.replay(fixture, replyTimeout: patientReplyTimeout)
        #expect(
            results.map(\.kind) == [
                .handled, .handled, .replied, .invalid, .failed, .unhandled, .handled, .replied,
            ])
        // The reply to the first getCount came before the next message: state applies in input order.
        #expect(results[2].replyValue?.value(as: Int.self) == 2)
        #expect(results[2].message.id == "c1")
        #expect(results[7].replyValue?.value(as: Int.self) == 5)
        // A message built in code may still carry an invalid name; the router says so.
        let invalid = await app.router.replay([FixtureMessage(name: "")])
        #expect(invalid.map(\.kind) == [.invalidChannel])
        #expect(results[5].failure?.kind == .noResponder)
    }

    @Test func aReplyThatNeverComesIsReportedAsStillAwaited() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let held = Locked<[Reply<Int>]>([])
        let token = try router.respond(to: SlowCount.self) { _, reply in held.withLock { $0.append(reply) } }
        let results = await router.replay([FixtureMessage(name: "slowCount")], replyTimeout: .milliseconds(20))
        #expect(results.map(\.kind) == [.awaitingReply])
        #expect(results[0].reply == nil)
        _ = token
    }

    @Test func keptMessagesAreReportedAsKeptWithoutWaiting() async {
        let router = Router(options: .init(defaultDeadline: .patient))
        router.setBufferPolicy(.keepLast, for: TestReady.channel)
        let results = await router.replay([FixtureMessage(name: "sdkReady")])
        #expect(results.map(\.kind) == [.kept])
    }

    @Test func replaysAFileByURL() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("session.json")
        try #"[{"name":"sdkReady"},{"name":"getCount"}]"#.write(to: url, atomically: true, encoding: .utf8)
        let app = CountingApp()
        let results = try await app.router.replay(contentsOf: url, replyTimeout: patientReplyTimeout)
        #expect(results.map(\.kind) == [.handled, .replied])
        #expect(results.map(\.message.source?.lastPathComponent) == ["session.json", "session.json"])
    }
}

/// A fixture whose file name is not UTF-8 is missing from Foundation's directory listing (no
/// `String` names it): loading a directory refuses it by name rather than skip it without a word.
@Suite struct FixtureFileNameTests {
    /// Creates the entry `directory/<0xFF><suffix>` (see `makeEntryNamed`): false when the file
    /// system refuses such a name (APFS, HFS+), and the test then has nothing to check.
    private func makeEntry(in directory: URL, suffix: String, folder: Bool = false) throws -> Bool {
        let contents = folder ? [] : Array("{\"name\":\"x\"}\n".utf8)
        return try makeEntryNamed([0xFF] + Array(suffix.utf8), in: directory, folder: folder, contents: contents) != nil
    }

    @Test(arguments: [".ndjson", ".json", ".NDJSON"])
    func aFixtureWhoseNameIsNotUTF8IsAnErrorNamingItNotSkipped(_ suffix: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{\"name\":\"a\"}\n".write(
            to: directory.appendingPathComponent("a.ndjson"), atomically: true, encoding: .utf8)
        guard try makeEntry(in: directory, suffix: suffix) else { return }
        for recursively in [false, true] {
            let error = try #require(throws: FixtureError.self) {
                try Fixture.load(directory: directory, recursively: recursively)
            }
            guard case .unreadable(let url, let reason) = error else {
                Issue.record("\(error)")
                continue
            }
            #expect(url.lastPathComponent == "\u{FFFD}" + suffix)
            #expect(reason.contains("not valid UTF-8"))
            #expect(error.description.contains("\u{FFFD}\(suffix): cannot be read: its name is not valid UTF-8"))
            #expect(throws: FixtureError.self) { try Fixture.messageFiles(in: directory, recursively: recursively) }
        }
    }

    @Test func aFolderWhoseNameIsNotUTF8IsAnErrorWhenLoadingRecursively() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{\"name\":\"a\"}\n".write(
            to: directory.appendingPathComponent("a.ndjson"), atomically: true, encoding: .utf8)
        guard try makeEntry(in: directory, suffix: "-sdk", folder: true) else { return }
        #expect(try Fixture.load(directory: directory).count == 1)
        let error = try #require(throws: FixtureError.self) {
            try Fixture.load(directory: directory, recursively: true)
        }
        #expect(error.description.contains("\u{FFFD}-sdk: cannot be read: its name is not valid UTF-8"))
    }

    /// `readdir` tells a symbolic link's type, not its target's: a link to a folder, named like a
    /// fixture but not in UTF-8, is a folder, as its target is: loading one folder skips it rather
    /// than refuse it as a fixture file.
    @Test func aLinkToAFolderWhoseNameIsNotUTF8IsAFolder() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{\"name\":\"a\"}\n".write(
            to: directory.appendingPathComponent("a.ndjson"), atomically: true, encoding: .utf8)
        let target = directory.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        guard try makeEntryNamed([0xFF] + Array("-linked.ndjson".utf8), in: directory, linkTo: target) != nil
        else { return }
        #expect(try Fixture.load(directory: directory).count == 1)
        let error = try #require(throws: FixtureError.self) {
            try Fixture.load(directory: directory, recursively: true)
        }
        #expect(error.description.contains("\u{FFFD}-linked.ndjson: cannot be read: its name is not valid UTF-8"))
    }

    @Test func entriesTheListingSkipsAreStillSkippedThoughTheirNamesAreNotUTF8() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{\"name\":\"a\"}\n".write(
            to: directory.appendingPathComponent("a.ndjson"), atomically: true, encoding: .utf8)
        guard try makeEntry(in: directory, suffix: ".expected.ndjson") else { return }
        #expect(try makeEntry(in: directory, suffix: ".txt"))
        #expect(try makeEntry(in: directory, suffix: "-folder.json", folder: true))
        #expect(try makeEntryNamed(Array(".".utf8) + [0xFF] + Array(".ndjson".utf8), in: directory) != nil)
        let fixtures = try Fixture.load(directory: directory)
        #expect(fixtures.map { $0.source?.lastPathComponent } == ["a.ndjson"])
    }
}
