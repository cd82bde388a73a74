import Foundation
import SwitchboardTestSupport
import Testing

/// Parses an output line as a JSON object.
func object(_ line: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
}

func outcomes(_ run: CLIRun) -> [String] {
    run.outputLines.filter { !$0.isEmpty }.map { object($0)["outcome"] as? String ?? "?" }
}

let mixed = "Fixtures/mixed/session.ndjson"

extension CLIEndToEnd {
    @Suite struct CLIInputTests {
        @Test func stdinGivesTheSameOutcomesAsTheFileWithoutSource() async throws {
            let file = try await CLI.run(["--quiet", mixed])
            let input = try Data(contentsOf: CLI.packageRoot.appendingPathComponent(mixed))
            let piped = try await CLI.run(["--quiet"], stdin: input)
            let dash = try await CLI.run(["--quiet", "-"], stdin: input)
            let withoutSource = file.output.replacingOccurrences(of: #","source":"\#(mixed)""#, with: "")
            #expect(piped.output == withoutSource)
            #expect(dash.output == withoutSource)
            #expect(!piped.output.contains("source"))
            #expect(piped.status == 0)
        }

        @Test func readingAheadOrNotGivesTheSameOutput() async throws {
            let fixtures = ["Fixtures/mixed/", "Fixtures/hostile/", "Fixtures/inappstory/"]
            for path in fixtures {
                let ahead = try await CLI.run(["--quiet", path])
                let inline = try await CLI.run(["--quiet", "--no-read-ahead", path])
                #expect(ahead.output == inline.output, "\(path)")
                #expect(ahead.status == inline.status)
                #expect(ahead.output.count > 1000)
            }
            let input = try Data(contentsOf: CLI.packageRoot.appendingPathComponent(mixed))
            let piped = try await CLI.run(["--quiet"], stdin: input)
            let pipedInline = try await CLI.run(["--quiet", "--no-read-ahead"], stdin: input)
            #expect(piped.output == pipedInline.output)
        }

        @Test func outputKeysComeInTheDocumentedOrder() async throws {
            let run = try await CLI.run(["--quiet", mixed])
            let line = try #require(run.outputLines.first { $0.contains(#""id":"m-1""#) })
            #expect(
                line.hasPrefix(
                    #"{"line":2,"source":"Fixtures/mixed/session.ndjson","id":"m-1","name":"productCartGetState","outcome":"replied","reply":"#
                ))
        }

        @Test func aDirectoryMeansItsJSONAndNDJSONFilesInSortedOrder() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-dir-\(UUID())")
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("nested.ndjson"), withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try Data(#"{"name":"sdkReady","id":"b"}"#.utf8).write(to: directory.appendingPathComponent("b.ndjson"))
            try Data(#"[{"name":"sdkReady","id":"a1"},{"name":"sdkReady","id":"a2"}]"#.utf8)
                .write(to: directory.appendingPathComponent("a.json"))
            try Data(#"{"name":"sdkReady","id":"expected"}"#.utf8).write(
                to: directory.appendingPathComponent("a.expected.ndjson"))
            try Data("not a message".utf8).write(to: directory.appendingPathComponent("notes.txt"))
            try Data(#"{"name":"sdkReady","id":"inside"}"#.utf8)
                .write(to: directory.appendingPathComponent("nested.ndjson/c.ndjson"))

            let inside = try await CLI.run(["--quiet", "."], in: directory)
            #expect(
                inside.outputLines == [
                    #"{"line":1,"source":"./a.json","id":"a1","name":"sdkReady","outcome":"handled"}"#,
                    #"{"line":2,"source":"./a.json","id":"a2","name":"sdkReady","outcome":"handled"}"#,
                    #"{"line":1,"source":"./b.ndjson","id":"b","name":"sdkReady","outcome":"handled"}"#,
                    "",
                ])
            #expect(inside.status == 0)
        }

        @Test func stateCarriesAcrossFiles() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-files-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let add =
                #"{"name":"addCartLine","body":{"merchandiseId":"gid://shopify/ProductVariant/1001","productId":"gid://shopify/Product/100","quantity":1,"attributes":{}}}"#
            let remove =
                #"{"name":"removeCartLine","body":{"lineId":"gid://shopify/CartLine/1","merchandiseId":"gid://shopify/ProductVariant/1001","productId":"gid://shopify/Product/100","quantity":1,"attributes":{}}}"#
            try Data((add + "\n").utf8).write(to: directory.appendingPathComponent("first.ndjson"))
            try Data((remove + "\n").utf8).write(to: directory.appendingPathComponent("second.ndjson"))
            let run = try await CLI.run(["--quiet", "first.ndjson", "second.ndjson", "second.ndjson"], in: directory)
            #expect(outcomes(run) == ["handled", "handled", "failed"])
            #expect(run.status == 1)
        }

        @Test func blankLinesGiveNoOutputButCountForLineNumbers() async throws {
            let run = try await CLI.run(
                ["--quiet"], stdin: Data("\n  \n{\"name\":\"sdkReady\"}\n\t\r\n\n{\"name\":\"sdkReady\"}\n".utf8))
            #expect(
                run.outputLines == [
                    #"{"line":3,"name":"sdkReady","outcome":"handled"}"#,
                    #"{"line":6,"name":"sdkReady","outcome":"handled"}"#,
                    "",
                ])
        }

        @Test func invalidUTF8IsMalformedAndNeverReplaced() async throws {
            var bytes = Data(#"{"name":"sdkReady","id":"caf"#.utf8)
            bytes.append(contentsOf: [0xC3, 0x28])
            bytes.append(contentsOf: Data("\"}\n{\"name\":\"sdkReady\",\"id\":\"next\"}\n".utf8))
            let run = try await CLI.run(["--quiet"], stdin: bytes)
            #expect(outcomes(run) == ["malformed", "handled"])
            let error = object(run.outputLines[0])["error"] as? [String: Any]
            #expect((error?["message"] as? String)?.hasPrefix("not valid UTF-8") == true)
            #expect(!run.output.contains("\u{FFFD}"))
            #expect(run.status == 1)
        }

        @Test func aLineOverTheDefaultLimitIsMalformedAndTheNextLineStillWorks() async throws {
            let body = String(repeating: "x", count: 1 << 20)
            let input = #"{"name":"sdkReady","body":""# + body + "\"}\n" + #"{"name":"sdkReady","id":"next"}"# + "\n"
            let run = try await CLI.run(["--quiet"], stdin: Data(input.utf8))
            #expect(outcomes(run) == ["malformed", "handled"])
            let message = (object(run.outputLines[0])["error"] as? [String: Any])?["message"] as? String
            #expect(message == "line is \(body.utf8.count + 29) bytes long; the limit is 1048576 (--max-line-bytes)")
            #expect(object(run.outputLines[1])["line"] as? Int == 2)
        }

        @Test func theLargestMaxDepthIsSafeForEveryPathAValueTakes() async throws {
            // At the ceiling (5000), values nested to the limit are built, decoded, written and
            // released: a line that fails the fast reader (a number as the name) is read again by
            // the general reader, and a wishlist entry carries its custom data into the reply path.
            func nested(_ depth: Int) -> String {
                String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            }
            let lines = [
                #"{"name":1,"body":\#(nested(4998))}"#,
                #"{"name":"wishlistEntryUpdate","body":{"id":{"productId":"p"},"isWishlisted":true,"customData":\#(nested(4997))}}"#,
                #"{"name":"wishlistGetState","id":"deep-reply"}"#,
                #"{"name":"sdkReady","body":\#(nested(4999))}"#,
                #"{"name":"sdkReady","body":\#(nested(5000))}"#,
                #"{"name":"sdkReady","id":"after"}"#,
            ]
            let run = try await CLI.run(
                ["--quiet", "--max-depth", "5000"], stdin: Data(lines.joined(separator: "\n").utf8))
            #expect(run.status == 1)
            // The reply line nests deeper than Foundation reads, so its outcome is checked as text.
            let output = run.outputLines.filter { !$0.isEmpty }
            #expect(output.count == 6)
            #expect(
                output.count == 6
                    && output[2].contains(
                        #""id":"deep-reply","name":"wishlistGetState","outcome":"replied","reply":{"entries":[{"id":{"productId":"p"},"customData":[[[["#
                    ))
            #expect(output.count == 6 && output[2].hasSuffix(String(repeating: "]", count: 4997) + #"}]}}"#))
            #expect(
                outcomes(run).enumerated().filter { $0.offset != 2 }.map(\.element) == [
                    "malformed", "handled", "handled", "malformed", "handled",
                ])
        }

        @Test func maxLineBytesSetsTheLimit() async throws {
            let line = #"{"name":"sdkReady","id":"twenty-eight"}"#
            let atLimit = try await CLI.run(
                ["--quiet", "--max-line-bytes", "\(line.utf8.count)"], stdin: Data(line.utf8))
            let below = try await CLI.run(
                ["--quiet", "--max-line-bytes=\(line.utf8.count - 1)"], stdin: Data(line.utf8))
            #expect(outcomes(atLimit) == ["handled"])
            #expect(outcomes(below) == ["malformed"])
        }

        @Test func maxDepthSetsTheNestingLimitOfTheReaderAndTheDecoder() async throws {
            // The message object is level 1: a body of two arrays reaches level 3.
            let lines = [
                #"{"name":"sdkReady","id":"three","body":[[0]]}"#,
                #"{"name":"sdkReady","id":"four","body":[[[0]]]}"#,
                #"{"name":"wishlistEntryUpdate","id":"decoded","body":{"id":{"productId":"p"},"isWishlisted":true,"customData":{"a":[0]}}}"#,
                #"{"name":"sdkReady","id":"after"}"#,
            ]
            let run = try await CLI.run(
                ["--quiet", "--max-depth", "3"], stdin: Data(lines.joined(separator: "\n").utf8))
            #expect(outcomes(run) == ["handled", "malformed", "malformed", "handled"])
            #expect(run.output.contains("nested deeper than the limit of 3"))
            let defaults = try await CLI.run(["--quiet"], stdin: Data(lines.joined(separator: "\n").utf8))
            #expect(outcomes(defaults) == ["handled", "handled", "handled", "handled"])
        }

        @Test func replyDeadlineIsAccepted() async throws {
            let run = try await CLI.run(
                ["--quiet", "--reply-deadline=0.25"], stdin: Data(#"{"name":"productCartGetState","id":1}"#.utf8))
            #expect(outcomes(run) == ["replied"])
        }

        @Test func memoryStaysFlatOnALongStream() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "switchboard-memory-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let small = directory.appendingPathComponent("small.ndjson")
            let large = directory.appendingPathComponent("large.ndjson")
            let output = directory.appendingPathComponent("out.ndjson")
            // Few, long lines: the bytes are what a reader could keep; few messages keep the run short.
            let padding = String(repeating: "x", count: 3_000)
            let line =
                #"{"name":"addCartLine","id":"r","body":{"merchandiseId":"gid://shopify/ProductVariant/1001","productId":"gid://shopify/Product/100","quantity":1,"attributes":{"__lion_sfp_id":"\#(padding)"}}}"#
                + "\n"
            try Data(line.utf8).write(to: small)
            let count = 10_000
            var input = Data(capacity: line.utf8.count * count)
            for _ in 0..<count { input.append(contentsOf: line.utf8) }
            try input.write(to: large)  // ~31 MB

            let baseline = try await onDispatchThread {
                try runMeasuringPeakMemory(["--quiet"], input: small, output: output)
            }
            let long = try await onDispatchThread {
                try runMeasuringPeakMemory(["--quiet"], input: large, output: output)
            }
            #expect(baseline.status == 0)
            #expect(long.status == 0)
            let lines = try Data(contentsOf: output).reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
            #expect(lines == count)
            // A reader that kept the input (31 MB) would show here.
            #expect(
                long.maxRSSKiB < baseline.maxRSSKiB + 8 * 1024,
                "peak RSS \(long.maxRSSKiB) KiB on \(input.count) bytes vs \(baseline.maxRSSKiB) KiB on one line")
        }
    }
}

extension CLIEndToEnd {
    @Suite struct CLIOptionTests {
        @Test func onlyInstallsTheNamedHandlers() async throws {
            let run = try await CLI.run(["--quiet", "--only", "sdkReady,productCartGetState", mixed])
            #expect(
                outcomes(run) == [
                    "handled", "replied", "unhandled", "unhandled", "unhandled", "unhandled", "unhandled", "unhandled",
                    "replied",
                ])
            #expect(run.status == 1)
        }

        @Test func manifestListsChannelsAndFeatures() async throws {
            let run = try await CLI.run(["manifest"])
            #expect(
                run.output
                    == #"{"channels":["addCartLine","productCartClicked","productCartGetState","productCartUpdate","removeCartLine","sdkReady","wishlistEntryUpdate","wishlistGetState"],"features":{"cartButton":true,"freeProductRewards":true,"productCart":true,"wishlist":true},"contract":"sha256:c8d1ae3d6c709dcee854ab1f9f332e8da2bbe095d226c452da19af949e21c9f2","pushes":["cartChanged"],"contracts":{"addCartLine":"sha256:d42125aeb353fd1ba98100ac31aa186e98be779b7e81c11761241cca1d43011f","cartChanged":"sha256:4d447cdd13f05127579029a24d228187187f7ad81646f58433ec815252e0ce77","productCartClicked":"sha256:17d2591fa9f3d04996378281fc1df0edee7c6acc6adf0da1772790f0bbaa3b81","productCartGetState":"sha256:826eed0277cea7b0267cabd37d0624cad3de83933f02337f98caded7c84ff62d","productCartUpdate":"sha256:8ae7f26e5976f8c3a2251e230ed7da7f82b1f737f58ce06f57b34297e1778b7a","removeCartLine":"sha256:fce6c1eff0e6a886eb4f7e7e30deb99bcf28c6afe20ff2983157961f219466ac","sdkReady":"sha256:d90da9d378b694b72dc8c39c039fd48d51b8c5c4f5a6768dbdcf347192b11c0a","wishlistEntryUpdate":"sha256:20b1b84d09f9c3a6b89fde490dafb0010f1d97e16a07e1319724c1711e6278ac","wishlistGetState":"sha256:7c95df30b6517ba9df9497cb3fafa3f86eba0c2f9e50e69b0a89e3efee4f94e3"}}"#
                    + "\n")
            #expect(run.status == 0)
        }

        @Test func manifestWithOnlyShowsWhichFeaturesAreGated() async throws {
            let run = try await CLI.run([
                "manifest", "--only", "addCartLine,removeCartLine", "--only", "productCartUpdate",
            ])
            #expect(
                run.output
                    == #"{"channels":["addCartLine","productCartUpdate","removeCartLine"],"features":{"cartButton":false,"freeProductRewards":true,"productCart":false,"wishlist":false},"contract":"sha256:4d697534ca95f72403262975a51b690ecc0db61375df05888e90bc7b93599974","pushes":["cartChanged"],"contracts":{"addCartLine":"sha256:d42125aeb353fd1ba98100ac31aa186e98be779b7e81c11761241cca1d43011f","cartChanged":"sha256:4d447cdd13f05127579029a24d228187187f7ad81646f58433ec815252e0ce77","productCartUpdate":"sha256:8ae7f26e5976f8c3a2251e230ed7da7f82b1f737f58ce06f57b34297e1778b7a","removeCartLine":"sha256:fce6c1eff0e6a886eb4f7e7e30deb99bcf28c6afe20ff2983157961f219466ac"}}"#
                    + "\n")
        }

        @Test func theSummaryGoesToStderrUnlessQuiet() async throws {
            let run = try await CLI.run(["Fixtures/loyaltylion/session.ndjson"])
            let summary = run.errors
            #expect(
                summary.hasPrefix(
                    "\(CLI.name): 11 messages: 6 handled, 0 replied, 2 failed, 3 invalid, 0 unhandled, 0 malformed ("))
            #expect(summary.hasSuffix(" s)\n"))
            #expect(!run.output.isEmpty)
        }

        @Test func helpAndVersionExitZero() async throws {
            let help = try await CLI.run(["--help"])
            #expect(help.status == 0)
            #expect(help.output.hasPrefix("USAGE: \(CLI.name) [OPTIONS] [PATH ...]"))
            let version = try await CLI.run(["--version"])
            #expect(version.status == 0)
            #expect(version.output.hasPrefix("\(CLI.name) "))
        }

        /// The README installs the binary as `switchboard`: it then calls itself that.
        @Test func installedAsSwitchboardItCallsItselfSwitchboard() async throws {
            let binary = try #require(CLI.binary)
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "switchboard-install-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let installed = directory.appendingPathComponent("switchboard")
            try FileManager.default.copyItem(at: binary, to: installed)

            let help = try await CLI.run(["--help"], executable: installed)
            #expect(help.output.hasPrefix("USAGE: switchboard [OPTIONS] [PATH ...]\n       switchboard manifest"))
            let version = try await CLI.run(["--version"], executable: installed)
            #expect(version.output.hasPrefix("switchboard 0."))
            let wrong = try await CLI.run(["--frobnicate"], executable: installed)
            #expect(wrong.status == 2)
            #expect(wrong.errors.hasPrefix("switchboard: unknown option --frobnicate"))
            let run = try await CLI.run([mixed], executable: installed)
            #expect(run.errors.hasPrefix("switchboard: "))
            #expect(run.output == (try await CLI.run([mixed])).output)
        }

        /// `--version` prints the newest version in CHANGELOG.md (the first `## x.y.z` heading),
        /// the one a release is tagged with and a package depends on with `from:`.
        @Test func theVersionIsTheNewestOneInTheChangelog() async throws {
            let changelog = try String(
                contentsOf: CLI.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
            let heading = try #require(
                changelog.split(separator: "\n").first { line in
                    line.hasPrefix("## ") && line.dropFirst(3).first?.isNumber == true
                })
            let changelogVersion = String(heading.dropFirst(3).prefix { $0.isNumber || $0 == "." })
            #expect(changelogVersion.split(separator: ".").count == 3)
            let version = try await CLI.run(["--version"])
            #expect(version.output == "\(CLI.name) \(changelogVersion)\n")
        }

        @Test(arguments: [
            ["--only", "addToBasket"], ["--only", ""], ["--only"], ["--max-line-bytes", "0"],
            ["--max-line-bytes", "lots"],
            ["--max-depth", "0"], ["--max-depth", "deep"], ["--max-depth", "5001"], ["--reply-deadline", "0"],
            ["--reply-deadline", "-1"],
            ["--reply-deadline", "nan"], ["--reply-deadline", "1e10"], ["--frobnicate"],
            ["Fixtures/does-not-exist.ndjson"], ["Package.swift"], ["manifest", mixed],
        ])
        func usageErrorsExitTwoWithTheUsageOnStderr(_ arguments: [String]) async throws {
            let run = try await CLI.run(arguments, stdin: Data())
            #expect(run.status == 2)
            #expect(run.errors.hasPrefix("\(CLI.name): "))
            #expect(run.errors.contains("USAGE: \(CLI.name)"))
            #expect(run.output.isEmpty)
        }
    }
}
