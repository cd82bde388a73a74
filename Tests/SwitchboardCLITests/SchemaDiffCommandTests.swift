import Foundation
import Testing

extension CLIEndToEnd {
    /// `switchboard schema diff OLD NEW | DIR` and `switchboard schema --write DIR`, run as a user would.
    @Suite struct SchemaDiffCommandTests {
        /// A temporary directory holding `files`, removed by the caller.
        func directory(_ files: [String: String]) throws -> URL {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("switchboard-diff-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, text) in files {
                try Data(text.utf8).write(to: directory.appendingPathComponent(name))
            }
            return directory
        }

        static let old = """
            {"$schema":"https://json-schema.org/draft/2020-12/schema","channels":{
             "addLine":{"kind":"event","body":{"type":"object","properties":{"sku":{"type":"string"},
               "quantity":{"type":"integer","minimum":1,"maximum":99},"note":{"type":"string"}},"required":["sku","quantity"]}},
             "getCart":{"kind":"request","reply":{"type":"object","properties":{"total":{"type":"string"},
               "state":{"enum":["open","closed"]}},"required":["total","state"]}},
             "cartChanged":{"kind":"push","body":{"$ref":"#/$defs/Cart"}},
             "legacy":{"kind":"event","body":{"type":"object"}}},
             "$defs":{"Cart":{"type":"object","properties":{"lines":{"type":"array","items":{"$ref":"#/$defs/Cart"}},
               "count":{"type":"integer"}},"required":["count"]}}}
            """

        static let new = """
            {"$schema":"https://json-schema.org/draft/2020-12/schema","channels":{
             "addLine":{"kind":"event","body":{"type":"object","properties":{"sku":{"type":"string"},
               "quantity":{"type":"integer","minimum":1,"maximum":10},"note":{"type":"string"},"gift":{"type":"boolean"}},
               "required":["sku","quantity"]}},
             "getCart":{"kind":"request","reply":{"type":"object","properties":{"total":{"type":"string"},
               "state":{"enum":["open","closed","held"]}},"required":["total","state"]}},
             "cartChanged":{"kind":"push","body":{"$ref":"#/$defs/Basket"}},
             "pay":{"kind":"request","body":{"x-switchboard-underivable":"Payment: decodes by value"},"reply":{}}},
             "$defs":{"Basket":{"type":"object","properties":{"lines":{"type":"array","items":{"$ref":"#/$defs/Basket"}},
               "count":{"type":"integer"},"currency":{"type":"string"}},"required":["count"]}}}
            """

        @Test func aBreakingChangeExitsOneWithOneLinePerChangeBreakingFirst() async throws {
            let folder = try directory(["old.json": Self.old, "new.json": Self.new])
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try await CLI.run(["schema", "diff", "old.json", "new.json"], in: folder)
            #expect(run.status == 1, "\(run.errors)")
            let lines = run.outputLines.filter { !$0.isEmpty }
            #expect(
                lines == [
                    "breaking addLine page-to-app /quantity: maximum narrowed from 99 to 10; example: {\"quantity\":11,\"sku\":\"x\"}",
                    "breaking getCart app-to-page /state: enum widened: [\"held\"] added",
                    "breaking legacy page-to-app (root): channel removed (was event); example: {}",
                    "compatible addLine page-to-app /gift: new optional key",
                    "compatible cartChanged app-to-page /currency: new optional key",
                    "compatible pay page-to-app (root): new channel (request)",
                ])
            #expect(run.errors.contains("3 breaking, 3 compatible, 0 unknown"))
        }

        @Test func jsonOutputHasTheThreeListsAndTheExampleIsValidUnderOldOnly() async throws {
            let folder = try directory(["old.json": Self.old, "new.json": Self.new])
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try await CLI.run(["schema", "diff", "--format", "json", "old.json", "new.json"], in: folder)
            #expect(run.status == 1)
            #expect(run.output.hasSuffix("}\n") && run.output.filter { $0 == "\n" }.count == 1)
            let result = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: [[String: Any]]])
            #expect(Set(result.keys) == ["breaking", "compatible", "unknown"])
            let first = try #require(result["breaking"]?.first)
            #expect(first["channel"] as? String == "addLine")
            #expect(first["direction"] as? String == "page-to-app")
            #expect(first["path"] as? String == "/quantity")
            #expect((first["example"] as? [String: Any])?["quantity"] as? Int == 11)
            #expect(result["unknown"]?.isEmpty == true)
            for item in result.values.joined() {
                #expect(Set(item.keys).isSubset(of: ["channel", "direction", "path", "change", "example"]))
            }
        }

        @Test func unknownExitsZeroUnlessAskedToFail() async throws {
            let marked = """
                {"channels":{"pay":{"kind":"event","body":{"x-switchboard-underivable":"Payment: decodes by value"}}}}
                """
            let folder = try directory(["a.json": marked, "b.json": marked])
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try await CLI.run(["schema", "diff", "a.json", "b.json", "--format=json"], in: folder)
            #expect(run.status == 0)
            #expect(run.output.hasPrefix("{\"breaking\":[],\"compatible\":[],\"unknown\":[{\"channel\":\"pay\""))
            let strict = try await CLI.run(["schema", "diff", "--fail-on-unknown", "a.json", "b.json"], in: folder)
            #expect(strict.status == 1)
            #expect(strict.output.hasPrefix("unknown pay page-to-app (root): underivable in both contracts"))
        }

        @Test func theSameContractIsNoChange() async throws {
            let folder = try directory(["a.json": Self.old])
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try await CLI.run(["schema", "diff", "a.json", "a.json"], in: folder)
            #expect(run.status == 0)
            #expect(run.output.isEmpty)
        }

        @Test func unreadableInputExitsTwoWithTheReason() async throws {
            let folder = try directory([
                "good.json": Self.old, "text.json": "not json",
                "kind.json": "{\"channels\":{\"a\":{\"kind\":\"stream\"}}}",
            ])
            defer { try? FileManager.default.removeItem(at: folder) }
            let cases: [([String], String)] = [
                (["missing.json", "good.json"], "missing.json: cannot read the file"),
                (["good.json", "text.json"], "text.json: not JSON"),
                (["kind.json", "good.json"], "kind.json: channel \"a\": unknown kind \"stream\""),
                (["empty"], "no recorded contract"),
            ]
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("empty"), withIntermediateDirectories: true)
            for (paths, reason) in cases {
                let run = try await CLI.run(["schema", "diff"] + paths, in: folder)
                #expect(run.status == 2, "\(paths)")
                #expect(run.errors.contains(reason), "\(run.errors)")
                #expect(run.output.isEmpty)
            }
        }

        @Test func misusedDiffOptionsAreUsageErrors() async throws {
            let cases: [[String]] = [
                ["schema", "diff"], ["schema", "diff", "a", "b", "c"], ["schema", "diff", "--format", "xml", "a", "b"],
                ["schema", "--format", "json"], ["schema", "diff", "--typescript", "a", "b"],
                ["schema", "diff", "--only", "sdkReady", "a", "b"], ["schema", "--write", "x", "--typescript"],
                ["manifest", "--write", "x"], ["--fail-on-unknown"], ["schema", "diff", "--write", "x", "a"],
            ]
            for arguments in cases {
                let run = try await CLI.run(arguments)
                #expect(run.status == 2, "\(arguments)")
                #expect(run.errors.contains("USAGE:"), "\(arguments)")
            }
        }

        @Test func writeRecordsTheReleaseAndDiffComparesTheNewestTwoByVersion() async throws {
            let folder = try directory([:])
            defer { try? FileManager.default.removeItem(at: folder) }
            let write = try await CLI.run(["schema", "--write", "contracts"], in: folder)
            #expect(write.status == 0, "\(write.errors)")
            let version = try #require(
                try await CLI.run(["--version"]).output.split(separator: " ").last?.trimmingCharacters(
                    in: .whitespacesAndNewlines))
            let recorded = folder.appendingPathComponent("contracts/\(version).json")
            let schema = try await CLI.run(["schema"])
            #expect(try Data(contentsOf: recorded) == schema.stdout)
            #expect(write.errors.contains("wrote contracts/\(version).json"))
            let again = try await CLI.run(["schema", "--write", "contracts"], in: folder)
            #expect(again.errors.contains("unchanged"))

            // One recording: nothing to compare.
            let alone = try await CLI.run(["schema", "diff", "contracts", "--format", "json"], in: folder)
            #expect(alone.status == 0)
            #expect(alone.output == "{\"breaking\":[],\"compatible\":[],\"unknown\":[]}\n")
            #expect(alone.errors.contains("nothing to compare"))

            // 0.0.10 is newer than 0.0.9 (numbers, not text), older than this release. Only the
            // newest two are compared: 0.0.9's extra channel is not reported.
            var document = try #require(try JSONSerialization.jsonObject(with: schema.stdout) as? [String: Any])
            var channels = try #require(document["channels"] as? [String: Any])
            channels["retired"] = ["kind": "event", "body": ["type": "object"]]
            document["channels"] = channels
            try JSONSerialization.data(withJSONObject: document).write(
                to: folder.appendingPathComponent("contracts/0.0.10.json"))
            channels["ancient"] = ["kind": "event"]
            document["channels"] = channels
            try JSONSerialization.data(withJSONObject: document).write(
                to: folder.appendingPathComponent("contracts/0.0.9.json"))
            let run = try await CLI.run(["schema", "diff", "contracts"], in: folder)
            #expect(run.status == 1)
            #expect(run.output == "breaking retired page-to-app (root): channel removed (was event); example: {}\n")
            #expect(run.errors.contains("0.0.10 → \(version)"))
        }
    }
}
