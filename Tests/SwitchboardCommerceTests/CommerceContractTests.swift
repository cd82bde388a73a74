import Foundation
import SwitchboardCommerce
import SwitchboardTestSupport
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// The commerce channels' contract, and its agreement with the decoder on every
/// bundled fixture body and on mutations of each.
@Suite struct CommerceContractTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures", isDirectory: true)

    static let types: [any Event.Type] = [
        SDKReady.self, AddCartLine.self, RemoveCartLine.self, ProductCartUpdate.self, ProductCartGetState.self,
        ProductCartClicked.self, WishlistEntryUpdate.self, WishlistGetState.self,
    ]

    static func decodes<E: Event>(_ type: E.Type, _ body: JSONValue) -> Bool {
        (try? MessageBody(jsonBytes: Array(body.description.utf8)).decode(E.self)) != nil
    }

    static let decoders: [Channel: @Sendable (JSONValue) -> Bool] = [
        AddCartLine.channel: { decodes(AddCartLine.self, $0) },
        RemoveCartLine.channel: { decodes(RemoveCartLine.self, $0) },
        ProductCartUpdate.channel: { decodes(ProductCartUpdate.self, $0) },
        WishlistEntryUpdate.channel: { decodes(WishlistEntryUpdate.self, $0) },
    ]

    /// Every message body in the bundled fixtures, by channel (lines that are not JSON message objects left out).
    static func fixtureBodies() throws -> [(Channel, JSONValue)] {
        var bodies: [(Channel, JSONValue)] = []
        var seen: Set<String> = []
        let directories = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted()
        for directory in directories {
            let folder = fixtures.appendingPathComponent(directory)
            guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { continue }
            for file in files.sorted() where !file.hasSuffix(".expected.ndjson") {
                guard file.hasSuffix(".ndjson") || file.hasSuffix(".json"),
                    let text = try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                else { continue }
                let documents = file.hasSuffix(".json") ? [text] : text.split(separator: "\n").map(String.init)
                for document in documents {
                    guard let value = try? JSONReader().read(document) else { continue }
                    for message in value.arrayValue ?? [value] {
                        guard let name = message["name"]?.stringValue, let channel = try? Channel(validating: name)
                        else { continue }
                        let body = message["body"] ?? .null
                        // Sessions repeat bodies: each distinct one once.
                        if seen.insert(channel.name + "\u{0}" + body.description).inserted {
                            bodies.append((channel, body))
                        }
                    }
                }
            }
        }
        return bodies
    }

    @Test func theRoutersContractIsTheCommerceTypesContract() throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        let contract = Contract(router: router)
        #expect(contract.restricted(to: Set(ReferenceCommerce.channels)) == Contract(types: Self.types))
        #expect(Set(contract.channels.keys) == Set(ReferenceCommerce.channels + [CartChanged.channel]))
        #expect(contract.channels["cartChanged"]?.kind == .push)
        #expect(
            contract.channels["cartChanged"]?.body?.json["required"] == ["offers", "price", "priceCurrency", "lines"])
        #expect(contract.channels["sdkReady"] == Contract.Entry(kind: .event, body: nil, reply: nil))
        #expect(contract.channels["productCartGetState"]?.kind == .request)
        #expect(contract.channels["productCartGetState"]?.body == nil)
        #expect(contract.channels["productCartUpdate"]?.reply?.json["title"] == "ProductCart")
        #expect(
            contract.channels["addCartLine"]?.body?.json["required"] == [
                "merchandiseId", "productId", "quantity", "attributes",
            ])
        #expect(contract.isExact)
        #expect(router.manifest.contract == contract.digest)
        withExtendedLifetime(commerce) {}
    }

    @Test func theSchemaAcceptsExactlyWhatDecodesOnEveryFixtureAndItsMutations() async throws {
        let bodies = try Self.fixtureBodies()
        // Thousands of decodes: off the cooperative pool, so async responders of other suites keep running.
        let (disagreements, fixtureBodies, checked, refused) = await onDispatchThread {
            let contract = Contract(types: Self.types)
            let validator = SchemaValidator(contract)
            var disagreements: [String] = []
            var fixtureBodies = 0
            var checked = 0
            var refused = 0
            for (channel, body) in bodies {
                guard let schema = contract.channels[channel]?.body?.json, let decodes = Self.decoders[channel] else {
                    continue
                }
                fixtureBodies += 1
                // The fixtures' own bodies first (some are invalid on purpose), then their mutations.
                for candidate in [body] + ContractMutations.mutations(of: body, levels: 2) {
                    let problem = validator.problem(candidate, schema)
                    let decoded = decodes(candidate)
                    if (problem == nil) != decoded {
                        disagreements.append(
                            "\(channel): \(candidate): schema says \(problem ?? "valid"), decoder "
                                + (decoded ? "decodes" : "refuses"))
                    }
                    checked += 1
                    if !decoded { refused += 1 }
                }
            }
            return (disagreements, fixtureBodies, checked, refused)
        }
        #expect(disagreements == [])
        #expect(fixtureBodies >= 10)
        #expect(checked > 1000)
        #expect(refused > 500 && refused < checked)
    }
}
