import Foundation
import Switchboard
import SwitchboardCommerce

// The decode section decodes SwitchboardCommerce's own events (synthesized
// `Codable`, the general decoder) three ways, and builds the same values by
// hand-written casts for the baseline.

// MARK: - Hand-written casts

/// What a careful hand-written WebKit handler does: `as?` casts on the
/// `[String: Any]` body, exactly as strict as the decoder, so the ratio compares
/// equal work: a JSON `true` is not the integer 1 nor `1` a Boolean, `2.5` is not an
/// `Int`, and an optional member present with the wrong type (`"name": 5`) rejects
/// the body rather than reading as absent; only a missing member or `null` is `nil`.
enum HandWritten {
    static let booleanType = type(of: NSNumber(value: true))

    /// An optional member: `nil` when missing or `null`, the value when it is a `T`;
    /// any other value clears `valid` (the body is rejected, as the decoder rejects it).
    @inline(__always)
    static func optional<T>(_ value: Any?, _ type: T.Type, _ valid: inout Bool) -> T? {
        guard let value, !(value is NSNull) else { return nil }
        if let typed = value as? T { return typed }
        valid = false
        return nil
    }

    /// An optional Boolean member, told from numbers as ``bool(_:)`` does.
    @inline(__always)
    static func optionalBool(_ value: Any?, _ valid: inout Bool) -> Bool? {
        guard let value, !(value is NSNull) else { return nil }
        if let bool = bool(value) { return bool }
        valid = false
        return nil
    }

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
        var valid = true
        let update = ProductCartUpdate(
            offer: ProductCartOffer(
                offerId: offerId,
                groupId: optional(offer["groupId"], String.self, &valid),
                name: optional(offer["name"], String.self, &valid),
                description: optional(offer["description"], String.self, &valid),
                url: optional(offer["url"], String.self, &valid),
                coverUrl: optional(offer["coverUrl"], String.self, &valid),
                imageUrls: imageUrls,
                currency: optional(offer["currency"], String.self, &valid),
                price: optional(offer["price"], String.self, &valid),
                oldPrice: optional(offer["oldPrice"], String.self, &valid),
                adult: optionalBool(offer["adult"], &valid),
                availability: availability,
                size: optional(offer["size"], String.self, &valid),
                color: optional(offer["color"], String.self, &valid),
                quantity: quantity))
        return valid ? update : nil
    }

    static func wishlistEntryUpdate(_ body: Any) -> WishlistEntryUpdate? {
        guard let body = body as? [String: Any], let id = body["id"] as? [String: Any],
            let productId = id["productId"] as? String,
            let isWishlisted = bool(body["isWishlisted"])
        else { return nil }
        var customData: JSONValue?
        if let data = body["customData"], !(data is NSNull) {
            // The library's own conversion, as a handler keeping a free-form payload calls it.
            guard let value = try? JSONValue(foundation: data) else { return nil }
            customData = value
        }
        var valid = true
        let update = WishlistEntryUpdate(
            id: WishlistEntryID(
                productId: productId, listingId: optional(id["listingId"], String.self, &valid),
                variantId: optional(id["variantId"], String.self, &valid)),
            isWishlisted: isWishlisted,
            title: optional(body["title"], String.self, &valid),
            price: optional(body["price"], String.self, &valid),
            customData: customData)
        return valid ? update : nil
    }
}
