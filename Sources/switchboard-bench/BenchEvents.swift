import Foundation
import Switchboard
import SwitchboardCommerce

// The decode section decodes SwitchboardCommerce's own events (synthesized
// `Codable`, the general decoder) three ways, and builds the same values by
// hand-written casts for the baseline.

// MARK: - Hand-written casts

/// What a careful hand-written WebKit handler does: `as?` casts on the
/// `[String: Any]` body, with the exact-type checks a correct handler needs
/// (a JSON `true` is not the integer 1, `2.5` is not an `Int`).
enum HandWritten {
    static let booleanType = type(of: NSNumber(value: true))

    @inline(__always)
    static func int(_ value: Any?) -> Int? {
        guard let number = value as? NSNumber, type(of: number) != booleanType else { return nil }
        let int = number.intValue
        return Double(int) == number.doubleValue ? int : nil
    }

    @inline(__always)
    static func bool(_ value: Any?) -> Bool? {
        guard let number = value as? NSNumber, type(of: number) == booleanType else { return nil }
        return number.boolValue
    }

    static func addCartLine(_ body: Any) -> AddCartLine? {
        guard let body = body as? [String: Any],
            let merchandiseId = body["merchandiseId"] as? String,
            let productId = body["productId"] as? String,
            let quantity = int(body["quantity"]),
            let attributes = body["attributes"] as? [String: String]
        else { return nil }
        return AddCartLine(
            merchandiseId: merchandiseId, productId: productId, quantity: quantity, attributes: attributes)
    }

    static func removeCartLine(_ body: Any) -> RemoveCartLine? {
        guard let body = body as? [String: Any],
            let lineId = body["lineId"] as? String,
            let merchandiseId = body["merchandiseId"] as? String,
            let productId = body["productId"] as? String,
            let quantity = int(body["quantity"]),
            let attributes = body["attributes"] as? [String: String]
        else { return nil }
        return RemoveCartLine(
            lineId: lineId, merchandiseId: merchandiseId, productId: productId, quantity: quantity,
            attributes: attributes)
    }

    static func productCartUpdate(_ body: Any) -> ProductCartUpdate? {
        guard let body = body as? [String: Any], let offer = body["offer"] as? [String: Any],
            let offerId = offer["offerId"] as? String,
            let imageUrls = offer["imageUrls"] as? [String],
            let availability = int(offer["availability"]),
            let quantity = int(offer["quantity"])
        else { return nil }
        return ProductCartUpdate(
            offer: ProductCartOffer(
                offerId: offerId,
                groupId: offer["groupId"] as? String,
                name: offer["name"] as? String,
                description: offer["description"] as? String,
                url: offer["url"] as? String,
                coverUrl: offer["coverUrl"] as? String,
                imageUrls: imageUrls,
                currency: offer["currency"] as? String,
                price: offer["price"] as? String,
                oldPrice: offer["oldPrice"] as? String,
                adult: bool(offer["adult"]),
                availability: availability,
                size: offer["size"] as? String,
                color: offer["color"] as? String,
                quantity: quantity))
    }

    static func wishlistEntryUpdate(_ body: Any) -> WishlistEntryUpdate? {
        guard let body = body as? [String: Any], let id = body["id"] as? [String: Any],
            let productId = id["productId"] as? String,
            let isWishlisted = bool(body["isWishlisted"])
        else { return nil }
        var customData: JSONValue?
        if let data = body["customData"] {
            guard let value = jsonValue(data) else { return nil }
            customData = value
        }
        return WishlistEntryUpdate(
            id: WishlistEntryID(
                productId: productId, listingId: id["listingId"] as? String, variantId: id["variantId"] as? String),
            isWishlisted: isWishlisted,
            title: body["title"] as? String,
            price: body["price"] as? String,
            customData: customData)
    }

    /// A free-form Foundation value as a ``JSONValue`` (what a hand-written handler keeping `customData` does).
    static func jsonValue(_ value: Any) -> JSONValue? {
        switch value {
        case let string as String:
            return .string(string)
        case let number as NSNumber:
            if type(of: number) == booleanType { return .bool(number.boolValue) }
            return JSONNumber(number.stringValue).map(JSONValue.number)
        case let object as [String: Any]:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(object.count)
            for (key, member) in object {
                guard let converted = jsonValue(member) else { return nil }
                members[key] = converted
            }
            return .object(members)
        case let array as [Any]:
            var elements: [JSONValue] = []
            elements.reserveCapacity(array.count)
            for element in array {
                guard let converted = jsonValue(element) else { return nil }
                elements.append(converted)
            }
            return .array(elements)
        case is NSNull:
            return .null
        default:
            return nil
        }
    }
}
