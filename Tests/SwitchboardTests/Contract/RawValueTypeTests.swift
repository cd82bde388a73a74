import Foundation
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// Raw-value types that are not `CaseIterable`, whose cases happen to include the probe's placeholders.
enum RawValueTypes {
    enum Axis: String, Codable, Sendable {
        case x, y, z
    }

    enum Priority: Int, Codable, Sendable {
        case low = 1
        case medium = 2
        case high = 3
    }

    /// A raw-value wrapper that takes every value: its shape is its raw value's.
    struct Token: RawRepresentable, Codable, Sendable {
        let rawValue: String
    }

    struct Plot: Event {
        static let channel: Channel = "plot"
        let axis: Axis
        let priority: Priority
        let token: Token
    }
}

@Suite struct RawValueTypeTests {
    /// `Axis` takes "x" and "y", the probe's placeholders, and nothing but its cases: as a plain `string` it would
    /// admit "w", which does not decode.
    @Test func aRawValueEnumThatIsNotCaseIterableIsMarkedEvenWhenThePlaceholdersAreItsCases() throws {
        let contract = Contract(types: [RawValueTypes.Plot.self])
        let properties = try #require(contract.channels["plot"]?.body?.json.objectValue?["properties"]?.objectValue)
        for key in ["axis", "priority"] {
            let reason = properties[key]?.objectValue?[ContractKeyword.underivable]?.stringValue
            #expect(reason?.contains("CaseIterable") == true, "\(key): \(properties[key] ?? .null)")
        }
        #expect(properties["token"] == ["type": "string", "title": "Token"])
        #expect(contract.isExact == false)
    }
}
