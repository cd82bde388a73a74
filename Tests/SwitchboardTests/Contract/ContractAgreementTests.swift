import Foundation
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// A body the contract's schema accepts is never `invalid`, and a body that is
/// `invalid` is refused by the schema: checked on valid bodies of a user's own types
/// and on every mutation of them, decoded from a `JSONValue` and from JSON bytes.
@Suite struct ContractAgreementTests {
    static let samples: [(Channel, String)] = [
        (
            "placeOrder",
            #"{"items":[{"sku":"a","quantity":2,"options":{"color":[1,2]}}],"address":{"street":"Main","zip":"12345","floor":3},"notes":{"door":"left"},"size":"small","priority":2,"tags":["x","y"],"metadata":{"any":[1,{"b":null}]},"total":10.5,"weight":1.25,"count":3}"#
        ),
        ("tip", #"{"amount":"12.34","share":15,"note":"thanks"}"#),
        (
            "categoryTree",
            #"{"root":{"name":"a","children":[{"name":"b","children":[],"parent":{"category":{"name":"c","children":[]}}}],"parent":null}}"#
        ),
        (
            "reading",
            #"{"small":-5,"byte":200,"wide":18446744073709551615,"ratio":0.5,"at":"2024-01-02T03:04:05Z","blob":"AQID","id":"00000000-0000-0000-0000-000000000001","flags":[true,null]}"#
        ),
    ]

    /// Whether the body decodes as `E` from a `JSONValue`, and whether it does from its JSON text.
    static func decodes<E: Event>(_ type: E.Type, _ body: JSONValue) -> (value: Bool, bytes: Bool) {
        let fromValue = (try? MessageBody(json: body).decode(E.self)) != nil
        let fromBytes = (try? MessageBody(jsonBytes: Array(body.description.utf8)).decode(E.self)) != nil
        return (fromValue, fromBytes)
    }

    static let decoders: [Channel: @Sendable (JSONValue) -> (value: Bool, bytes: Bool)] = [
        "placeOrder": { decodes(Shop.PlaceOrder.self, $0) },
        "tip": { decodes(Shop.Tip.self, $0) },
        "categoryTree": { decodes(Shop.CategoryTree.self, $0) },
        "reading": { decodes(Shop.Reading.self, $0) },
    ]

    @Test(arguments: samples.map(\.0))
    func theSchemaAcceptsExactlyWhatDecodes(_ channel: Channel) async throws {
        let contract = Contract(types: [Shop.PlaceOrder.self, Shop.Tip.self, Shop.CategoryTree.self, Shop.Reading.self])
        let schema = try #require(contract.channels[channel]?.body?.json)
        #expect(contract.channels[channel]?.isExact == true)
        let validator = SchemaValidator(contract)
        let text = try #require(Self.samples.first { $0.0 == channel }?.1)
        let sample = try JSONReader().read(Array(text.utf8))
        let decodes = try #require(Self.decoders[channel])
        #expect(validator.problem(sample, schema) == nil)
        #expect(decodes(sample) == (true, true))
        // On a thread of its own, off the cooperative pool (on Linux, Dispatch's global threads are
        // the pool's): thousands of decodes must not hold up other suites' async responders.
        let (disagreements, accepted, refused) = await withCheckedContinuation { continuation in
            Thread {
                var disagreements: [String] = []
                var accepted = 0
                var refused = 0
                for body in [sample] + ContractMutations.mutations(of: sample) {
                    let problem = validator.problem(body, schema)
                    let decoded = decodes(body)
                    if (problem == nil) != decoded.value || decoded.value != decoded.bytes {
                        disagreements.append(
                            "\(channel): \(body): schema says \(problem ?? "valid"), decoder "
                                + "\(decoded.value ? "decodes" : "refuses") (from bytes: \(decoded.bytes))")
                    }
                    if decoded.value { accepted += 1 } else { refused += 1 }
                }
                continuation.resume(returning: (disagreements, accepted, refused))
            }.start()
        }
        #expect(disagreements == [])
        #expect(accepted > 5)
        #expect(refused > 20)
    }
}
