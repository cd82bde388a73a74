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
    if quotesAsIs(text) { return "\"" + text + "\"" }
    var result = "\""
    for (index, scalar) in text.unicodeScalars.enumerated() {
        if index == 100 {
            result += "…"
            break
        }
        switch scalar.value {
        case 0x22: result += "\\\""
        case 0x5C: result += "\\\\"
        // The control characters (general category Cc, which Unicode never changes):
        // a range test, where asking for the scalar's properties is a table look-up.
        case 0x00...0x1F, 0x7F...0x9F: result += "\\u{\(String(scalar.value, radix: 16))}"
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// Whether ``quoted(_:)`` leaves `text` as it is: at most 100 scalars, none of them a quote,
/// a backslash or a control character (read off the UTF-8 bytes: U+0080…U+009F are C2 80…C2 9F).
private func quotesAsIs(_ text: String) -> Bool {
    var scalars = 0
    var afterC2 = false
    for byte in text.utf8 {
        if byte & 0xC0 != 0x80 { scalars += 1 }
        if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || (afterC2 && byte < 0xA0) { return false }
        afterC2 = byte == 0xC2
    }
    return scalars <= 100
}
