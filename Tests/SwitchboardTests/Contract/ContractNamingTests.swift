import Foundation
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// A type private to this file that refers to itself: its reflected name holds the
/// address of its context, which changes from run to run.
private struct PrivateTree: Codable, Sendable {
    var label: String
    var children: [PrivateTree]
}

private struct PrivateTreeEvent: Event {
    static let channel: Channel = "privateTree"
    var root: PrivateTree
}

/// A body type named like the global type the declarations use for replies.
struct Promise: Codable, Sendable {
    var settled: Bool
}

struct PromiseEvent: Event {
    static let channel: Channel = "promised"
    var promise: Promise
}

@Suite struct ContractNamingTests {
    @Test func aPrivateTypesDefinitionNameHoldsNoAddressSoTheDigestIsTheSameInEveryRun() throws {
        let contract = Contract(types: [PrivateTreeEvent.self])
        let name = try #require(contract.definitions.keys.first { $0.hasSuffix("PrivateTree") })
        #expect(!name.contains("unknown"))
        #expect(!name.contains("0x") && !name.contains("$"))
        #expect(name == "SwitchboardTests.PrivateTree")
        #expect(!contract.json.contains("unknown context"))
    }

    @Test func reflectedNamesLoseOnlyTheirUnknownContextSegments() {
        func local() -> String {
            struct Inner {}
            return SchemaDeriver.stableReflectedName(of: Inner.self)
        }
        #expect(local() == "SwitchboardTests.ContractNamingTests.Inner")
        #expect(SchemaDeriver.stableReflectedName(of: PrivateTree.self) == "SwitchboardTests.PrivateTree")
        #expect(
            SchemaDeriver.stableReflectedName(of: [Int: String].self) == "Swift.Dictionary<Swift.Int, Swift.String>")
    }

    @Test func aUserTypeNamedPromiseDoesNotHideTheGlobalPromiseTheDeclarationsUse() {
        let script = Contract(types: [PromiseEvent.self]).typeScript
        #expect(!script.contains("export interface Promise "))
        #expect(script.contains("export interface Promise2 {"))
        #expect(script.contains("): Promise<"))
    }
}
