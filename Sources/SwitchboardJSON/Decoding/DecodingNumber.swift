import Foundation

/// A number as the source holds it, before it meets the type it decodes as.
///
/// The conversions are exact: an integer type accepts only an integral value in
/// its range (`2.0` → `2`; `2.5`, `1e30`, `-1` as `UInt` → `nil`), `Double` and
/// `Float` accept any finite value of their magnitude (integers included), and
/// `Decimal` keeps the digits.
enum DecodingNumber {
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case decimal(Decimal)
    /// JSON number text (already checked against the grammar).
    case text(String)

    /// The number as text, for messages (`Number 2.5 is not representable in Swift.`).
    var text: String {
        switch self {
        case .int(let value): return String(value)
        case .uint(let value): return String(value)
        case .double(let value): return value.description
        case .decimal(let value): return value.description
        case .text(let text): return text
        }
    }

    /// The number as JSON number text, or `nil` when it has none (infinity, NaN).
    var jsonText: String? {
        switch self {
        case .int(let value): return String(value)
        case .uint(let value): return String(value)
        case .double(let value):
            // Swift spells finite doubles as JSON numbers: `2.0`, `1e+30`, `5e-324`.
            guard value.isFinite else { return nil }
            let text = value.description
            return JSONNumber.isValid(text.utf8) ? text : nil
        case .decimal(let value):
            guard !value.isNaN else { return nil }
            let text = value.description
            return JSONNumber.isValid(text.utf8) ? text : nil
        case .text(let text): return text
        }
    }

    /// The number as `T` when it is integral and in range.
    @inline(__always)
    func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        switch self {
        case .int(let value): return T(exactly: value)
        case .uint(let value): return T(exactly: value)
        case .double(let value): return value.isFinite ? T(exactly: value) : nil
        case .decimal(let value): return DecodingNumber.integer(T.self, fromDecimal: value)
        case .text(let text):
            if let value = T(text) { return value }
            // Read digit by digit, exactly (`2.0`, `1e3`, `0e200`, `100e-130`): `Decimal(string:)`
            // keeps only 38 digits, so `1.000…0001` would pass as 1, and refuses large exponents.
            return DecodingNumber.Digits(text)?.integer(T.self)
        }
    }

    private static func integer<T: FixedWidthInteger>(_ type: T.Type, fromDecimal value: Decimal) -> T? {
        guard !value.isNaN else { return nil }
        var source = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &source, 0, .plain)
        guard rounded == value else { return nil }
        return T(rounded.description)
    }

    /// The number as a finite `Double` (integers round to the nearest double).
    var double: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .uint(let value): return Double(value)
        case .double(let value): return value.isFinite ? value : nil
        case .decimal(let value): return value.isNaN ? nil : Double(value.description)
        case .text(let text):
            guard let value = Double(text), value.isFinite else { return nil }
            if value == 0, DecodingNumber.hasNonZeroDigit(text) { return nil }
            return value
        }
    }

    /// The number as a finite `Float`; a finite value beyond `Float`'s range
    /// (or one that would flush to zero) is `nil`.
    var float: Float? {
        let result: Float?
        let source: Double?
        switch self {
        case .text(let text):
            result = Float(text)
            source = Double(text)
        default:
            source = double
            result = source.map { Float($0) }
        }
        guard let result, let source, result.isFinite, source.isFinite else { return nil }
        if result == 0, source != 0 { return nil }
        if case .text(let text) = self, result == 0, DecodingNumber.hasNonZeroDigit(text) { return nil }
        return result
    }

    /// The number as a `Decimal`, keeping its digits (up to `Decimal`'s 38).
    var decimal: Decimal? {
        switch self {
        case .int(let value): return Decimal(value)
        case .uint(let value): return Decimal(value)
        case .double(let value):
            guard value.isFinite else { return nil }
            return Decimal(string: value.description, locale: nil)
        case .decimal(let value): return value.isNaN ? nil : value
        case .text(let text):
            if let value = Decimal(string: text, locale: nil), !value.isNaN { return value }
            // `0e200` is zero and `1e128` is `10e127`, which `Decimal(string:)` refuses as written.
            return DecodingNumber.Digits(text)?.decimal
        }
    }

    /// JSON number text as its significant digits (no leading or trailing zeros; none for
    /// zero) and the power of ten they are multiplied by: `-0.0120e3` is `-`, `12`, `0`.
    /// Used when Foundation's parsers refuse text for its spelling rather than its value.
    struct Digits {
        let negative: Bool
        let digits: [UInt8]
        let exponent: Int

        /// The parts of `text`; `nil` when it is not a number: digits with at most one `.` between
        /// digits, an optional `-` before and an optional exponent after (leading zeros pass).
        init?(_ text: String) {
            var digits: [UInt8] = []
            var exponent = 0
            var negative = false
            var bytes = text.utf8[...]
            if bytes.first == UInt8(ascii: "-") {
                negative = true
                bytes = bytes.dropFirst()
            }
            var inFraction = false
            // Digits before the `.` and after it (zeros included).
            var integerDigits = 0
            var fractionDigits = 0
            while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
                bytes = bytes.dropFirst()
                if byte == UInt8(ascii: ".") {
                    guard !inFraction, integerDigits > 0 else { return nil }
                    inFraction = true
                    continue
                }
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                if inFraction {
                    exponent -= 1
                    fractionDigits += 1
                } else {
                    integerDigits += 1
                }
                if digits.isEmpty && byte == UInt8(ascii: "0") { continue }
                digits.append(byte)
            }
            guard integerDigits > 0, !inFraction || fractionDigits > 0 else { return nil }
            if !bytes.isEmpty {
                bytes = bytes.dropFirst()
                var exponentNegative = false
                if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") {
                    exponentNegative = bytes.first == UInt8(ascii: "-")
                    bytes = bytes.dropFirst()
                }
                guard !bytes.isEmpty else { return nil }
                var value = 0
                for byte in bytes {
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                    // Saturates (before it multiplies, so a 32-bit `Int` does not overflow): any
                    // exponent this large is out of every type's range (or scales zero).
                    if value < 100_000_000 {
                        value = value * 10 + Int(byte - UInt8(ascii: "0"))
                    } else {
                        value = 1_000_000_000
                    }
                }
                exponent += exponentNegative ? -value : value
            }
            while digits.last == UInt8(ascii: "0") {
                digits.removeLast()
                exponent += 1
            }
            self.negative = negative
            self.digits = digits
            self.exponent = digits.isEmpty ? 0 : exponent
        }

        /// The number as `T` when it is integral and in `T`'s range.
        func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            if digits.isEmpty { return 0 }
            guard exponent >= 0, digits.count + exponent <= 40 else { return nil }
            let text = (negative ? "-" : "") + String(decoding: digits, as: UTF8.self)
            return T(text + String(repeating: "0", count: exponent))
        }

        /// The number as a `Decimal`, its digits scaled to bring the exponent within `Decimal`'s
        /// range when they can be (up to 38 digits); `nil` when it is out of range.
        var decimal: Decimal? {
            if digits.isEmpty { return Decimal(0) }
            var digits = self.digits
            var exponent = self.exponent
            while exponent > 127, digits.count < 38 {
                digits.append(UInt8(ascii: "0"))
                exponent -= 1
            }
            let text = (negative ? "-" : "") + String(decoding: digits, as: UTF8.self) + "e\(exponent)"
            guard let value = Decimal(string: text, locale: nil), !value.isNaN else { return nil }
            return value
        }
    }

    /// Whether the mantissa of JSON number text has a digit other than zero.
    static func hasNonZeroDigit(_ text: String) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return false
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return true
            default: continue
            }
        }
        return false
    }
}
