import Foundation
import Switchboard

/// Why the reference ``Cart`` refused a change. Each message names what it
/// refused (the line, the offer, the price), so a failed reply explains itself.
public enum CartError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// `removeCartLine` named a line the cart does not hold.
    case unknownLine(lineId: String)
    /// A cart line's quantity is below 1 (`addCartLine` adds at least one).
    case invalidLineQuantity(merchandiseId: String, quantity: Int)
    /// Adding to a line would make its quantity larger than `Int.max`.
    case lineQuantityOverflow(lineId: String)
    /// `productCartUpdate` sent a negative quantity (0 removes the offer).
    case negativeQuantity(offerId: String, quantity: Int)
    /// An offer in the cart has no `price`, so no total can be computed.
    case missingPrice(offerId: String)
    /// An offer's `price` or `oldPrice` is not non-negative decimal text like `"10.50"`.
    case unparsablePrice(offerId: String, field: String, value: String)
    /// The offers are priced in more than one currency (sorted).
    case mixedCurrencies([String])
    /// A total has more digits than can be computed exactly.
    case totalTooLarge(field: String)

    /// A sentence naming what was refused.
    public var description: String {
        switch self {
        case .unknownLine(let lineId):
            return "no cart line with lineId \(quoted(lineId))"
        case .invalidLineQuantity(let merchandiseId, let quantity):
            return "cannot add \(quantity) of \(quoted(merchandiseId)): quantity must be at least 1"
        case .lineQuantityOverflow(let lineId):
            return "cart line \(quoted(lineId)): quantity would exceed \(Int.max)"
        case .negativeQuantity(let offerId, let quantity):
            return "offer \(quoted(offerId)): quantity \(quantity) is negative (send 0 to remove the offer)"
        case .missingPrice(let offerId):
            return "offer \(quoted(offerId)) has no price; the cart total cannot be computed"
        case .unparsablePrice(let offerId, let field, let value):
            return "offer \(quoted(offerId)): \(field) \(quoted(value)) is not a decimal number like \"10.50\""
        case .mixedCurrencies(let currencies):
            return "the cart cannot mix currencies (\(currencies.joined(separator: ", ")))"
        case .totalTooLarge(let field):
            return "the cart's \(field) total has too many digits to compute exactly"
        }
    }

    /// Same as ``description`` (what a failed reply's message shows).
    public var errorDescription: String? { description }
}

/// `text` in double quotes, with quotes, backslashes and control characters escaped, cut at 100 characters.
func quoted(_ text: String) -> String {
    var result = "\""
    for (index, scalar) in text.unicodeScalars.enumerated() {
        if index == 100 {
            result += "…"
            break
        }
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        default:
            if scalar.properties.generalCategory == .control {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}
