import Foundation
import Switchboard
import SwitchboardTesting
import Testing

/// The repository's `Fixtures/` directory, found from this file's path.
let bundledFixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures", isDirectory: true)

/// Every bundled fixture file (none while `Fixtures/` does not exist yet).
let bundledFixtureFiles: [URL] = (try? Fixture.messageFiles(in: bundledFixtures, recursively: true)) ?? []

@Suite struct BundledFixtureTests {
    /// Each fixture loads, and its messages and malformed entries sit on exactly
    /// the lines the CLI's expected output (`*.expected.ndjson`) has lines for.
    // Fixtures/hostile/ exercises the CLI's strict wire parsing (duplicate keys, trailing
    // content, invalid channel names, BOMs, line limits, non-message documents), which
    // `Fixture`'s loader does not apply yet: compared once it reads through Switchboard/Wire.
    @Test(arguments: bundledFixtureFiles.filter { !$0.pathComponents.contains("hostile") })
    func loadsLikeTheCLIReadsIt(url: URL) throws {
        let fixture = try Fixture(contentsOf: url)
        let expectedURL = url.deletingPathExtension().appendingPathExtension("expected.ndjson")
        guard let expected = try? Data(contentsOf: expectedURL) else { return }
        var expectedLines: [Int: String] = [:]
        for line in expected.split(separator: 0x0A) where !line.isEmpty {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            if let number = object["line"] as? Int {
                expectedLines[number] = object["outcome"] as? String
            }
        }
        let messageLines = Set(fixture.messages.map(\.line))
        let malformedLines = Set(fixture.malformed.map(\.line))
        #expect(messageLines.union(malformedLines) == Set(expectedLines.keys), "\(url.lastPathComponent)")
        #expect(
            Set(expectedLines.filter { $0.value == "malformed" }.keys) == malformedLines,
            "\(url.lastPathComponent)")
    }

    /// Each fixture replays through a router with no handlers without a crash,
    /// one result per message, every message accounted for.
    @Test(arguments: bundledFixtureFiles)
    func replaysThroughARouter(url: URL) async throws {
        let loaded = Result { () throws(FixtureError) -> Fixture in try Fixture(contentsOf: url) }
        if case .failure(.notAMessageDocument) = loaded, url.pathComponents.contains("hostile") {
            return  // a hostile document that is deliberately not a message document
        }
        let fixture = try loaded.get()
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(100)))
        let results = await router.replay(fixture, replyTimeout: .milliseconds(200))
        #expect(results.count == fixture.messages.count)
        #expect(results.allSatisfy { ["unhandled", "invalidChannel"].contains($0.kind) })
    }
}
