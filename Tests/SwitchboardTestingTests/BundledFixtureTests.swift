import Foundation
import Switchboard
import SwitchboardTesting
import SwitchboardWire
import Testing

/// The repository's `Fixtures/` directory, found from this file's path.
let bundledFixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures", isDirectory: true)

/// One bundled fixture input: a file, or an input generated from a small spec
/// (`X.spec` stands for `X.ndjson`; see ``expandFixtureSpec(_:)``).
struct BundledFixture: Sendable, CustomStringConvertible {
    /// The input's path (for a generated input, where make_fixtures.py writes it).
    let url: URL
    /// The spec, for a generated input.
    let spec: URL?

    var description: String { url.path.replacingOccurrences(of: bundledFixtures.path + "/", with: "") }

    /// `X.expected.ndjson`: the CLI's output for the input.
    var expectedURL: URL { url.deletingPathExtension().appendingPathExtension("expected.ndjson") }

    /// The limits the CLI runs the fixture with: `X.args` may set `--max-line-bytes`.
    var limits: WireSession.Options {
        var limits = WireSession.Options()
        let argumentsURL = url.deletingPathExtension().appendingPathExtension("args")
        if let text = try? String(contentsOf: argumentsURL, encoding: .utf8) {
            let arguments = text.split(separator: "\n").map(String.init)
            if let flag = arguments.firstIndex(of: "--max-line-bytes"), flag + 1 < arguments.count,
                let limit = Int(arguments[flag + 1])
            {
                limits.maxLineBytes = limit
            }
        }
        return limits
    }

    /// Loads it as a user of SwitchboardTesting would, with the CLI's limits.
    func load() throws(FixtureError) -> Fixture {
        guard let spec else { return try Fixture(contentsOf: url, limits: limits) }
        guard let data = try? expandFixtureSpec(Data(contentsOf: spec)) else {
            throw .unreadable(spec, "not a fixture spec")
        }
        return Fixture(ndjson: data, source: url, limits: limits)
    }
}

/// Expands a fixture spec: each line is a JSON array of `[text, count]` pairs,
/// and stands for one input line, each text repeated count times
/// (`Fixtures/make_fixtures.py` and the CLI tests expand it the same way).
func expandFixtureSpec(_ spec: Data) throws -> Data {
    struct BadSpec: Error {}
    var output = Data()
    for line in spec.split(separator: 0x0A) where !line.isEmpty {
        guard let parts = try JSONSerialization.jsonObject(with: Data(line)) as? [[Any]] else { throw BadSpec() }
        for part in parts {
            guard part.count == 2, let text = part[0] as? String, let count = part[1] as? Int else { throw BadSpec() }
            output.append(contentsOf: String(repeating: text, count: count).utf8)
        }
        output.append(0x0A)
    }
    return output
}

/// Every bundled fixture input, sorted; a spec replaces a generated copy of its input.
let bundledFixtureInputs: [BundledFixture] = {
    var inputs: [URL: BundledFixture] = [:]
    for url in (try? Fixture.messageFiles(in: bundledFixtures, recursively: true)) ?? [] {
        inputs[url] = BundledFixture(url: url, spec: nil)
    }
    let walker = FileManager.default.enumerator(at: bundledFixtures, includingPropertiesForKeys: nil)
    while let url = walker?.nextObject() as? URL {
        guard url.pathExtension == "spec" else { continue }
        let input = url.deletingPathExtension().appendingPathExtension("ndjson")
        inputs[input] = BundledFixture(url: input, spec: url)
    }
    return inputs.values.sorted { $0.url.path < $1.url.path }
}()

/// Each fixture's load, kept: both tests below read every fixture, and the
/// generated ones (10 MB lines) are slow to read in a debug build.
private let loadedFixtures = Locked<[URL: Result<Fixture, FixtureError>]>([:])

/// Loads a fixture once, on a thread of its own and one fixture at a time (the
/// lock is held while loading), so that the slow generated inputs take at most
/// one core from the tests that wait for replies on the cooperative pool.
func loadOffThePool(_ fixture: BundledFixture) async throws(FixtureError) -> Fixture {
    let result = await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<Fixture, FixtureError>, Never>) in
        Thread {
            let loaded = loadedFixtures.withLock { cache -> Result<Fixture, FixtureError> in
                if let known = cache[fixture.url] { return known }
                let loaded = Result { () throws(FixtureError) -> Fixture in try fixture.load() }
                cache[fixture.url] = loaded
                return loaded
            }
            continuation.resume(returning: loaded)
        }.start()
    }
    return try result.get()
}

@Suite struct BundledFixtureTests {
    @Test func theHostileFixturesAreAmongThem() {
        let hostile = bundledFixtureInputs.filter { $0.url.pathComponents.contains("hostile") }
        #expect(hostile.count >= 8)
        #expect(hostile.contains { $0.spec != nil }, "the generated inputs (10 MB line, deep nesting) are included")
    }

    /// Each fixture loads as the CLI reads it: its messages and malformed entries
    /// sit on exactly the lines the CLI's expected output (`*.expected.ndjson`)
    /// has, and each malformed entry carries the CLI's own message. A `.json`
    /// document the CLI rejects whole is refused with the CLI's message.
    @Test(arguments: bundledFixtureInputs)
    func loadsLikeTheCLIReadsIt(fixture: BundledFixture) async throws {
        let expected = try Data(contentsOf: fixture.expectedURL)
        var outcomes: [Int: (kind: String, message: String?)] = [:]
        for line in expected.split(separator: 0x0A) where !line.isEmpty {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
            let number = try #require(object["line"] as? Int)
            let kind = try #require(object["outcome"] as? String)
            outcomes[number] = (kind, (object["error"] as? [String: Any])?["message"] as? String)
        }
        let loaded: Fixture
        do {
            loaded = try await loadOffThePool(fixture)
        } catch {
            guard case .notAMessageDocument(_, let reason) = error else { throw error }
            #expect(outcomes.count == 1, "\(fixture): the CLI rejects the whole document")
            #expect(outcomes.values.first?.kind == "malformed")
            #expect(outcomes.values.first?.message == reason, "\(fixture)")
            return
        }
        let malformed = outcomes.filter { $0.value.kind == "malformed" }
        #expect(Set(loaded.messages.map(\.line)) == Set(outcomes.keys).subtracting(malformed.keys), "\(fixture)")
        #expect(Set(loaded.malformed.map(\.line)) == Set(malformed.keys), "\(fixture)")
        for entry in loaded.malformed {
            #expect(entry.reason == malformed[entry.line]?.message, "\(fixture) line \(entry.line)")
        }
    }

    /// Each fixture replays through a router with no handlers without a crash,
    /// one result per message, every message accounted for.
    @Test(arguments: bundledFixtureInputs)
    func replaysThroughARouter(fixture: BundledFixture) async throws {
        let messages: [FixtureMessage]
        do {
            messages = try await loadOffThePool(fixture).messages
        } catch {
            guard case .notAMessageDocument = error, fixture.url.pathComponents.contains("hostile") else { throw error }
            return  // a hostile document that is deliberately not a message document
        }
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(100)))
        let results = await router.replay(messages, replyTimeout: .milliseconds(200))
        #expect(results.count == messages.count)
        #expect(results.allSatisfy { $0.kind == .unhandled })
    }
}
