import Foundation
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// The pieces around ``ContractDiff``: documents, versions, recordings, the value generator.
@Suite struct ContractEvolutionSupportTests {
    @Test func semanticVersionsOrderByPrecedence() throws {
        let texts = [
            "0.9.0", "0.10.0", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta.2", "1.0.0-beta.11",
            "1.0.0-rc.1", "1.0.0", "2.0.0",
        ]
        let versions = try texts.map { try #require(SemanticVersion($0)) }
        #expect(versions.shuffled(using: &SeededRandomBox.random).sorted() == versions)
        for bad in ["1.0", "01.0.0", "1.0.0-", "1.0.0+", "v1.0.0", "1.0.0-a..b", "1.x.0", ""] {
            #expect(SemanticVersion(bad) == nil, "\(bad)")
        }
        #expect(SemanticVersion("1.0.0+build.5") == SemanticVersion("1.0.0"))
    }

    @Test func recordedContractsAreListedByVersionAndWrittenOncePerVersion() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contracts-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recorded = RecordedContracts(directory: directory)
        #expect(throws: ContractDocumentError.self) { try recorded.recordings() }
        let version = try #require(SemanticVersion("0.10.0"))
        #expect(try recorded.write(json: "{\"channels\":{}}", version: version).changed)
        #expect(try !recorded.write(json: "{\"channels\":{}}", version: version).changed)
        _ = try recorded.write(json: "{\"channels\":{}}", version: try #require(SemanticVersion("0.9.0")))
        try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/README.md"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: directory + "/latest.json"))
        #expect(try recorded.recordings().map(\.version.description) == ["0.9.0", "0.10.0"])
        #expect(try RecordedContracts.document(at: directory + "/0.9.0.json").channels.isEmpty)
        #expect(throws: ContractDocumentError.self) { try RecordedContracts.document(at: directory + "/latest.json") }
        #expect(throws: ContractDocumentError.self) { try RecordedContracts.document(at: directory) }
    }

    @Test func aDocumentThatIsNotAContractIsRefusedWithTheReason() {
        let cases: [(String, String)] = [
            ("[]", "expected a JSON object"), ("{}", "no \"channels\""), ("{\"channels\":{\"a\":1}}", "channel \"a\""),
            ("{\"channels\":{\"a\":{\"kind\":\"stream\"}}}", "unknown kind \"stream\""),
            ("{\"channels\":{\"a\":{\"kind\":\"event\",\"body\":3}}}", "body is not a schema"), ("{", "not JSON"),
        ]
        for (text, reason) in cases {
            do {
                _ = try ContractDocument(data: Data(text.utf8))
                Issue.record("\(text) was read")
            } catch {
                #expect(error.message.contains(reason), "\(error.message)")
            }
        }
        let push = try? ContractDocument(
            data: Data("{\"channels\":{\"cartChanged\":{\"kind\":\"push\",\"body\":{}}}}".utf8))
        #expect(push?.channels["cartChanged"]?.bodyDirection == .appToPage)
    }

    @Test func theRegexSamplerMakesMatchingStrings() throws {
        let patterns = [
            "^[A-Z]{2}-[0-9]{3}$", LeafType.datePattern, "^(0|-?[1-9][0-9]{0,14})" + LeafType.end,
            "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}" + LeafType.end,
            "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?" + LeafType.end, "a|b+c?",
            "^\\d+(\\.\\d{2})?$",
            "[^a-z]", "^(?:x|y){2,}$",
        ]
        var random = SeededRandom(seed: 3)
        for pattern in patterns {
            let sampler = try #require(RegexSampler(pattern), "\(pattern)")
            for _ in 0..<20 {
                let text = sampler.sample(&random)
                #expect(
                    SchemaValidator().problem(.string(text), ["type": "string", "pattern": .string(pattern)]) == nil,
                    "\(pattern): \(text)")
            }
        }
        #expect(RegexSampler("(a") == nil)
    }

    @Test func theGeneratorIsDeterministic() {
        let schema: JSONValue = ["type": "object", "properties": ["a": ["type": "integer"], "b": ["type": "string"]]]
        var first = SchemaValueGenerator(definitions: [:], seed: 42)
        var second = SchemaValueGenerator(definitions: [:], seed: 42)
        #expect(first.value(for: schema) == second.value(for: schema))
        var never = SchemaValueGenerator(definitions: [:], seed: 1)
        #expect(never.value(for: false) == nil)
    }
}

/// A shared seeded generator for shuffles.
enum SeededRandomBox {
    nonisolated(unsafe) static var random = SeededRandom(seed: 11)
}
