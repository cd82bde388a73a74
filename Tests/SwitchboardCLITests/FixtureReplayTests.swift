import Foundation
import Testing

extension CLIEndToEnd {
    @Suite struct FixtureReplayTests {
        @Test func everySDKHasFixtures() {
            let folders = Set(Fixture.all.map { $0.path.split(separator: "/")[1] })
            #expect(folders.isSuperset(of: ["loyaltylion", "inappstory", "wishlist", "mixed", "hostile"]))
        }

        /// Replays one fixture through the built binary and compares every byte of
        /// stdout with the expected file; the exit status follows from the outcomes.
        @Test(arguments: Fixture.all)
        func replayingAFixtureGivesItsExpectedOutput(_ fixture: Fixture) async throws {
            let expected = try fixture.contents(of: fixture.expectedPath)
            let (directory, temporary) = try fixture.workingDirectory()
            defer { if temporary { try? FileManager.default.removeItem(at: directory) } }
            let run = try await CLI.run(["--quiet"] + fixture.extraArguments + [fixture.path], in: directory)
            let actualLines = run.outputLines
            let expectedLines = String(decoding: expected, as: UTF8.self)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for (index, (actual, wanted)) in zip(actualLines, expectedLines).enumerated() where actual != wanted {
                Issue.record(
                    "\(fixture.path): output line \(index + 1) differs\n  got:      \(actual)\n  expected: \(wanted)")
            }
            #expect(actualLines.count == expectedLines.count, "\(fixture.path): line count")
            #expect(run.stdout == expected)
            #expect(run.errors == "", "--quiet prints nothing on stderr")
            let allSucceeded = expectedLines.filter { !$0.isEmpty }.allSatisfy {
                $0.contains(#""outcome":"handled""#) || $0.contains(#""outcome":"replied""#)
            }
            #expect(run.status == (allSucceeded ? 0 : 1))
        }
    }
}
