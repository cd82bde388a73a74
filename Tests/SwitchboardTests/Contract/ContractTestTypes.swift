import Foundation
import Switchboard

// A user's own channel types, as an app would write them: nested, optional, enums,
// dictionaries, sets, a custom decoding that branches on values, a type that supplies
// its own schema, one that refines it, one that refers to itself, a body-less event,
// and a reply that is only Encodable.
/// Namespaced, so the names (and the titles the contract gives them) stay plain.
enum Shop {
    struct Address: Codable, Sendable, Hashable {
        let street: String
        let zip: String?
        let floor: Int8?
    }

    enum Size: String, Codable, CaseIterable, Sendable {
        case small, medium, large
    }

    enum Priority: Int, Codable, CaseIterable, Sendable {
        case low = 1
        case high = 2
    }

    struct OrderItem: Codable, Sendable, Hashable {
        let sku: String
        let quantity: Int
        let options: [String: [Int]]
    }

    struct OrderReceipt: Codable, Sendable {
        let orderId: String
        let accepted: Bool
        let eta: Double?
    }

    struct PlaceOrder: Request {
        static let channel: Channel = "placeOrder"
        typealias Reply = OrderReceipt
        let items: [OrderItem]
        let address: Address
        let notes: [String: String]?
        let size: Size
        let priority: Priority?
        let tags: Set<String>
        let metadata: [String: JSONValue]
        let total: Decimal
        let weight: Double
        let count: UInt8
    }

    /// Decodes by the value of `kind`: its shape cannot be derived.
    struct Payment: Decodable, Sendable {
        let amount: Double

        private enum CodingKeys: String, CodingKey { case kind, card, cash }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch try container.decode(String.self, forKey: .kind) {
            case "card": amount = try container.decode(Double.self, forKey: .card)
            case "cash": amount = Double(try container.decode(Int.self, forKey: .cash))
            default:
                throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown kind")
            }
        }
    }

    struct PaymentMade: Event {
        static let channel: Channel = "paymentMade"
        let payment: Payment
        let reference: String
    }

    /// Decodes "12.34" into cents, checking the text: it supplies its schema and an example.
    struct Money: Decodable, Sendable, ContractDescribable {
        let cents: Int

        init(cents: Int) {
            self.cents = cents
        }

        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            let parts = text.split(separator: ".")
            guard parts.count == 2, parts[1].count == 2, let whole = Int(parts[0]), let fraction = Int(parts[1]),
                parts[0].allSatisfy(\.isNumber), parts[1].allSatisfy(\.isNumber)
            else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not money"))
            }
            cents = whole * 100 + fraction
        }

        static var contractSchema: JSONSchema? { JSONSchema(["type": "string", "pattern": "^[0-9]+\\.[0-9]{2}$"]) }
        static var contractExample: Money? { Money(cents: 0) }
    }

    /// A percentage its decoding checks (0...100): it refines the derived `integer`.
    struct Percent: Decodable, Sendable, ContractDescribable {
        let value: Int

        init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(Int.self)
            guard (0...100).contains(value) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "0...100"))
            }
        }

        static func refineContractSchema(_ derived: JSONSchema) -> JSONSchema {
            guard case .object(var members) = derived.json else { return derived }
            members["minimum"] = 0
            members["maximum"] = 100
            return JSONSchema(.object(members))
        }
    }

    struct Tip: Event {
        static let channel: Channel = "tip"
        let amount: Money
        let share: Percent?
        let note: String?
    }

    /// Refers to itself, through an array and an optional.
    struct Category: Codable, Sendable {
        let name: String
        let children: [Category]
        let parent: Box?

        final class Box: Codable, Sendable {
            let category: Category?
        }
    }

    struct CategoryTree: Event {
        static let channel: Channel = "categoryTree"
        let root: Category
    }

    struct Ping: BodylessEvent {
        static let channel: Channel = "ping"
    }

    /// A reply that can be encoded but not decoded.
    struct Snapshot: Encodable, Sendable {
        let count: Int
    }

    struct TakeSnapshot: Request, BodylessEvent {
        static let channel: Channel = "takeSnapshot"
        typealias Reply = Snapshot
    }

    /// Scalars with bounds and string formats the decoder checks.
    struct Reading: Event {
        static let channel: Channel = "reading"
        let small: Int8
        let byte: UInt8
        let wide: UInt64
        let ratio: Float
        let at: Date
        let blob: Data
        let id: UUID
        let flags: [Bool?]
    }
}
