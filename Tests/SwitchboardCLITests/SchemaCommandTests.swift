import Foundation
import Testing

extension CLIEndToEnd {
    /// `switchboard schema [--only …] [--typescript]` and the manifest's digest.
    @Suite struct SchemaCommandTests {
        func document(_ arguments: [String]) async throws -> [String: Any] {
            let run = try await CLI.run(["schema"] + arguments)
            #expect(run.status == 0)
            #expect(run.output.hasSuffix("}\n") && run.output.filter { $0 == "\n" }.count == 1)
            return try #require(JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        }

        @Test func schemaPrintsOneDocumentForTheInstalledChannels() async throws {
            let all = try await document([])
            #expect(all["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
            let channels = try #require(all["channels"] as? [String: [String: Any]])
            #expect(channels.count == 9)
            #expect(channels["cartChanged"]?["kind"] as? String == "push")
            #expect((channels["cartChanged"]?["body"] as? [String: Any])?["required"] != nil)
            #expect(channels["sdkReady"]?["kind"] as? String == "event")
            #expect(channels["sdkReady"]?["body"] == nil)
            #expect(channels["productCartGetState"]?["kind"] as? String == "request")
            #expect(channels["productCartGetState"]?["body"] == nil)
            #expect((channels["productCartGetState"]?["reply"] as? [String: Any])?["title"] as? String == "ProductCart")
            let add = try #require(channels["addCartLine"]?["body"] as? [String: Any])
            #expect(add["required"] as? [String] == ["merchandiseId", "productId", "quantity", "attributes"])
            #expect(channels["addCartLine"]?["reply"] == nil)
            let quantity = (add["properties"] as? [String: Any])?["quantity"] as? [String: Any]
            #expect(quantity?["type"] as? String == "integer")

            let only = try await document(["--only", "addCartLine,productCartUpdate"])
            // The cart changes through these channels, so their push is declared with them.
            #expect(
                (only["channels"] as? [String: Any]).map { Set($0.keys) } == [
                    "addCartLine", "productCartUpdate", "cartChanged",
                ])
        }

        @Test func theManifestsContractChangesWithTheChannels() async throws {
            func contract(_ arguments: [String]) async throws -> String? {
                let run = try await CLI.run(["manifest"] + arguments)
                let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
                return object?["contract"] as? String
            }
            let all = try #require(try await contract([]))
            #expect(all.hasPrefix("sha256:") && all.count == 71)
            #expect(try await contract([]) == all)
            let some = try await contract(["--only", "sdkReady"])
            #expect(some != nil && some != all)
            let script = try await CLI.run(["schema", "--typescript"])
            #expect(script.output.contains("export const contract = \"\(all)\";"))
        }

        @Test func typeScriptDeclaresEveryChannel() async throws {
            let run = try await CLI.run([
                "schema", "--typescript", "--only", "addCartLine,sdkReady,productCartGetState",
            ])
            #expect(run.status == 0)
            #expect(run.output.contains("export interface AddCartLine {\n  attributes: { [key: string]: string };"))
            #expect(run.output.contains("  addCartLine: { body: AddCartLineBody; reply: void };"))
            #expect(run.output.contains("  sdkReady: { body: void; reply: void };"))
            #expect(run.output.contains("  productCartGetState: { body: void; reply: ProductCartGetStateReply };"))
            #expect(!run.output.contains("productCartUpdate"))
        }

        @Test func misusedSchemaOptionsAreUsageErrors() async throws {
            for arguments in [["schema", "Fixtures"], ["--typescript"], ["manifest", "--typescript"]] {
                let run = try await CLI.run(arguments)
                #expect(run.status == 2, "\(arguments)")
            }
        }
    }
}
