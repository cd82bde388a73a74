import Foundation

/// Exact cart totals in `Decimal`.
///
/// Each price is parsed from strict decimal text (`digits`, optionally `.digits`);
/// totals are written with as many fraction digits as the most precise price
/// that went into them. Every intermediate value is an integer number of
/// `10^-fractionDigits` units below `10^37`, which `Decimal`'s 38-digit
/// mantissa holds exactly; a cart that would need more is refused, never rounded.
struct CartTotals {
    /// A parsed price: its value and how many fraction digits it was written with.
    struct Price {
        /// The exact value: as an integer of 10^-fractionDigits units when that fits 18 digits, else a `Decimal`.
        enum Exact {
            case scaled(Int64)
            case decimal(Decimal)
        }

        let exact: Exact
        let fractionDigits: Int
        /// Digits before the point, leading zeros dropped.
        let integerDigits: Int

        /// The price × 10^fractionDigits, when that fits 18 digits (for the exact integer fast path).
        var scaled: Int64? {
            if case .scaled(let scaled) = exact { return scaled }
            return nil
        }

        /// The price as a `Decimal` (made when asked: the integer path does not need it).
        var value: Decimal {
            switch exact {
            case .scaled(let scaled):
                return Decimal(sign: .plus, exponent: -fractionDigits, significand: Decimal(scaled))
            case .decimal(let value): return value
            }
        }
    }

    /// The most digits a scaled total may have to stay exact.
    static let maxDigits = 37

    /// Parses `text` as a non-negative decimal number, or returns `nil`.
    static func parse(_ text: String) -> Price? {
        let original = text
        var text = text
        return text.withUTF8 { bytes -> Price? in
            guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
            var index = 0
            var integer = 0
            var significant = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                if significant > 0 || bytes[index] != 0x30 { significant += 1 }
                integer += 1
                index += 1
            }
            guard integer > 0 else { return nil }
            var fraction = 0
            if index < bytes.count {
                guard bytes[index] == 0x2E else { return nil }
                index += 1
                while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                    fraction += 1
                    index += 1
                }
                guard fraction > 0, index == bytes.count else { return nil }
            }
            // The digits as an integer when they fit: the exact value the text spells,
            // without parsing the text again (a `Decimal` is made from it only if asked).
            if significant + fraction <= 18 {
                var scaled: Int64 = 0
                for byte in bytes where byte != 0x2E { scaled = scaled * 10 + Int64(byte - 0x30) }
                return Price(exact: .scaled(scaled), fractionDigits: fraction, integerDigits: significant)
            }
            guard let value = Decimal(string: original, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
            return Price(exact: .decimal(value), fractionDigits: fraction, integerDigits: significant)
        }
    }

    struct Term {
        let price: Price
        let quantity: Int
    }

    /// The exact sum of price × quantity, as text with the largest fraction digits of the terms.
    /// - Returns: `nil` when the sum would not be exact.
    static func total<Terms: Collection<Term>>(of terms: Terms) -> String? {
        if let fast = integerTotal(of: terms) { return fast }
        return decimalTotal(of: terms)
    }

    /// The same sum in exact 64-bit fixed point (units of 10^-scale), or `nil`
    /// when some term or the sum does not fit (then `Decimal` does it). It gives
    /// the text ``decimalTotal(of:)`` gives; CartTotalsTests compares the two.
    static func integerTotal<Terms: Collection<Term>>(of terms: Terms) -> String? {
        var scale = 0
        for term in terms { scale = max(scale, term.price.fractionDigits) }
        guard scale <= 18 else { return nil }
        var sum: Int64 = 0
        for term in terms {
            guard let scaled = term.price.scaled, term.quantity >= 0 else { return nil }
            var units = scaled
            for _ in 0..<(scale - term.price.fractionDigits) {
                let (next, overflow) = units.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                units = next
            }
            let (product, overflow) = units.multipliedReportingOverflow(by: Int64(term.quantity))
            guard !overflow else { return nil }
            let (next, sumOverflow) = sum.addingReportingOverflow(product)
            guard !sumOverflow else { return nil }
            sum = next
        }
        guard scale > 0 else { return String(sum) }
        return fixedPoint(sum, scale: scale)
    }

    /// `units` (≥ 0) × 10^-scale as text with exactly `scale` fraction digits (`5`, 2 → `0.05`), in one allocation.
    static func fixedPoint(_ units: Int64, scale: Int) -> String {
        // At most 19 digits, up to 18 leading zeros, a point.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer -> String in
            var rest = units.magnitude
            var start = 40
            var written = 0
            while rest > 0 || written <= scale {
                if written == scale {
                    start -= 1
                    buffer[start] = UInt8(ascii: ".")
                }
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                written += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<40]), as: UTF8.self)
        }
    }

    /// The sum in `Decimal`.
    static func decimalTotal<Terms: Collection<Term>>(of terms: Terms) -> String? {
        let scale = terms.map(\.price.fractionDigits).max() ?? 0
        var sum = Decimal(0)
        let limit = Decimal(sign: .plus, exponent: maxDigits - 1 - scale, significand: 1)
        for term in terms {
            let quantityDigits = String(term.quantity).count
            // price × 10^scale has at most integerDigits + scale digits.
            guard term.price.integerDigits + scale + quantityDigits <= maxDigits - 1 else { return nil }
            var price = term.price.value
            var quantity = Decimal(term.quantity)
            var product = Decimal()
            guard NSDecimalMultiply(&product, &price, &quantity, .plain) == .noError else { return nil }
            var partial = Decimal()
            guard NSDecimalAdd(&partial, &sum, &product, .plain) == .noError else { return nil }
            sum = partial
            guard sum < limit else { return nil }
        }
        return format(sum, fractionDigits: scale)
    }

    /// `value` as plain decimal text with exactly `fractionDigits` digits after the point.
    static func format(_ value: Decimal, fractionDigits: Int) -> String {
        var rounded = Decimal()
        var source = value
        NSDecimalRound(&rounded, &source, fractionDigits, .plain)
        var text = rounded.description
        guard fractionDigits > 0 else { return text }
        if let point = text.firstIndex(of: ".") {
            let have = text.distance(from: text.index(after: point), to: text.endIndex)
            if have < fractionDigits { text += String(repeating: "0", count: fractionDigits - have) }
        } else {
            text += "." + String(repeating: "0", count: fractionDigits)
        }
        return text
    }
}
