import Foundation
import Switchboard

// Commerce-like shapes (as the seeds give them) and types that use every part
// of the `Decoder` API, decoded from the fuzzed trees.

struct FuzzAddCartLine: Codable, Equatable {
    let merchandiseId: String
    let productId: String
    let quantity: Int
    let attributes: [String: JSONValue]
}

struct FuzzRemoveCartLine: Codable, Equatable {
    let lineId: String
    let merchandiseId: String
    let productId: String
    let quantity: Int
    let attributes: [String: JSONValue]
}

struct FuzzOffer: Codable, Equatable {
    let offerId: String
    let groupId: String?
    let name: String?
    let description: String?
    let url: String?
    let coverUrl: String?
    let imageUrls: [String]
    let currency: String?
    let price: String?
    let oldPrice: String?
    let adult: Bool?
    let availability: Int
    let size: String?
    let color: String?
    let quantity: Int
}

struct FuzzProductCartUpdate: Codable, Equatable {
    let offer: FuzzOffer
}

struct FuzzCart: Codable, Equatable {
    let offers: [FuzzOffer]
    let price: String
    let oldPrice: String?
    let priceCurrency: String
}

struct FuzzWishlistID: Codable, Equatable {
    let productId: String
    let listingId: String?
    let variantId: String?
}

struct FuzzWishlistUpdate: Codable, Equatable {
    let id: FuzzWishlistID
    let isWishlisted: Bool
    let title: String?
    let price: Double?
    let customData: JSONValue?
}

/// Every fixed-width number type, `Float`, `Double`, `Decimal` and `Bool`, all optional.
struct FuzzNumbers: Codable, Equatable {
    let i8: Int8?
    let u8: UInt8?
    let i16: Int16?
    let u16: UInt16?
    let i32: Int32?
    let u32: UInt32?
    let i64: Int64?
    let u64: UInt64?
    let int: Int?
    let uint: UInt?
    let float: Float?
    let double: Double?
    let decimal: Decimal?
    let flag: Bool?
}

enum FuzzKind: String, Codable, Equatable {
    case circle, square, empty
}

enum FuzzLevel: Int, Codable, Equatable {
    case low = 0
    case mid = 1
    case high = 2
}

/// An enum with associated values (synthesized: `{"circle": {"radius": 1}}`, `{"square": {"_0": 2}}`).
enum FuzzShape: Codable, Equatable {
    case circle(radius: Int)
    case square(Int)
    case empty
}

/// Strings, URLs, enums, nested collections and dictionaries keyed by non-strings.
struct FuzzMisc: Codable, Equatable {
    let text: String?
    let link: URL?
    let amount: Decimal?
    let kind: FuzzKind?
    let count: FuzzLevel?
    let values: [Int?]?
    let nested: [[String]]?
    let list: [FuzzShape]?
    let map: [String: [String: Bool]]?
    let shape: FuzzShape?
}

/// Dates: their round trip through the encoder keeps milliseconds only, so
/// they are decoded and re-encoded, but not compared.
struct FuzzDated: Codable {
    let date: Date
    let link: URL?
    let amount: Decimal?
}

/// A key for any string.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) {
        self.stringValue = "\(intValue)"
        self.intValue = intValue
    }
}

/// Walks any tree through the `Decoder` API alone (keyed, unkeyed and single-value
/// containers, `allKeys`, `contains`, `decodeNil`, `superDecoder`, `count`,
/// `isAtEnd`) and records its shape, so it can be compared with the tree's
/// ``JSONValue``. It decodes every tree that is JSON; anything else throws.
struct FuzzWalker: Decodable {
    let shape: String

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            var parts: [String] = []
            for key in keyed.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                guard keyed.contains(key) else {
                    throw FuzzWalkerError.inconsistent("allKeys lists \(key.stringValue) but contains says no")
                }
                if try keyed.decodeNil(forKey: key) {
                    parts.append("\(key.stringValue):z")
                    continue
                }
                // Alternate between the plain path and `superDecoder(forKey:)`.
                let child: FuzzWalker
                if key.stringValue.utf8.count % 2 == 0 {
                    child = try keyed.decode(FuzzWalker.self, forKey: key)
                } else {
                    child = try FuzzWalker(from: keyed.superDecoder(forKey: key))
                }
                parts.append("\(key.stringValue):\(child.shape)")
            }
            shape = "{" + parts.joined(separator: ",") + "}"
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var parts: [String] = []
            let count = unkeyed.count
            while !unkeyed.isAtEnd {
                let before = unkeyed.currentIndex
                if try unkeyed.decodeNil() {
                    parts.append("z")
                } else {
                    parts.append(try unkeyed.decode(FuzzWalker.self).shape)
                }
                guard unkeyed.currentIndex == before + 1 else {
                    throw FuzzWalkerError.inconsistent("unkeyed index moved from \(before) to \(unkeyed.currentIndex)")
                }
            }
            if let count, count != parts.count {
                throw FuzzWalkerError.inconsistent("unkeyed count \(count) but \(parts.count) elements")
            }
            shape = "[" + parts.joined(separator: ",") + "]"
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            shape = "z"
        } else if (try? single.decode(Bool.self)) != nil {
            shape = "b"
        } else if (try? single.decode(String.self)) != nil {
            shape = "s"
        } else if (try? single.decode(Int64.self)) != nil || (try? single.decode(UInt64.self)) != nil
            || (try? single.decode(Double.self)) != nil || (try? single.decode(Decimal.self)) != nil
        {
            shape = "n"
        } else if (try? single.decode(Date.self)) != nil || (try? single.decode(URL.self)) != nil {
            shape = "s"  // a date (NSDate) or URL travels in JSON as its string
        } else {
            // Not JSON (an NSObject, Data, a tuple …): let the decoder say why.
            _ = try single.decode(JSONValue.self)
            shape = "?"
        }
    }

    /// The same rendering for a ``JSONValue``.
    static func shape(of value: JSONValue) -> String {
        switch value {
        case .null: return "z"
        case .bool: return "b"
        case .number: return "n"
        case .string: return "s"
        case .array(let elements): return "[" + elements.map(shape(of:)).joined(separator: ",") + "]"
        case .object(let members):
            let parts = members.sorted { $0.key < $1.key }.map { key, value -> String in
                "\(key):\(shape(of: value))"
            }
            return "{" + parts.joined(separator: ",") + "}"
        }
    }
}

enum FuzzWalkerError: Error {
    case inconsistent(String)
}
