import Foundation
import Testing

@testable import Switchboard

/// Types whose `init(from:)` checks values that the probe's first placeholders (`1`, `2`, `"x"`, `"y"`) pass.
enum CheckedValues {
    struct Quantity: Decodable, Sendable {
        let value: Int

        init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(Int.self)
            guard value > 0 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not > 0"))
            }
        }
    }

    struct Name: Decodable, Sendable {
        let text: String

        init(from decoder: any Decoder) throws {
            text = try decoder.singleValueContainer().decode(String.self)
            guard !text.isEmpty, text.count <= 100 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "1...100"))
            }
        }
    }

    struct Secure: Decodable, Sendable {
        let link: URL

        private enum CodingKeys: String, CodingKey { case link }

        init(from decoder: any Decoder) throws {
            link = try decoder.container(keyedBy: CodingKeys.self).decode(URL.self, forKey: .link)
            guard link.scheme == "https" else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "https"))
            }
        }
    }

    /// Checks nothing: exact.
    struct Plain: Codable, Sendable {
        let count: Int
        let label: String
        let link: URL
    }

    struct Order: Event {
        static let channel: Channel = "checkedOrder"
        let quantity: Quantity
        let name: Name
        let secure: Secure
        let plain: Plain
    }
}

@Suite struct CheckedValueTests {
    /// `Quantity` took `1` and `2` and refuses `0`: it was `integer`, and `{"quantity":0}` was invalid.
    @Test func aTypeThatChecksValuesThePlaceholdersPassIsMarkedAtTheEdges() throws {
        let contract = Contract(types: [CheckedValues.Order.self])
        let properties = try #require(
            contract.channels["checkedOrder"]?.body?.json.objectValue?["properties"]?.objectValue)
        for key in ["quantity", "name", "secure"] {
            #expect(properties[key]?.objectValue?[ContractKeyword.underivable] != nil, "\(key)")
        }
        #expect(JSONSchema(properties["plain"] ?? .null).isExact)
        #expect(properties["plain"]?.objectValue?["required"] == ["count", "label", "link"])
    }
}
