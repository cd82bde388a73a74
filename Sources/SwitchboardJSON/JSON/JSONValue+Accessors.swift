import Foundation

extension JSONValue {
    /// The member named `key` of an object; `nil` for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The element at `index` of an array; `nil` out of bounds or for a value that is not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, if this is one (never for a number).
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The string, if this is one (never for a number).
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number, if this is one.
    public var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The number as `Int` when it is integral and fits (see ``JSONNumber/intValue``).
    public var intValue: Int? { numberValue?.intValue }

    /// The number as `Int64` when it is integral and fits.
    public var int64Value: Int64? { numberValue?.int64Value }

    /// The number as `UInt64` when it is integral and fits.
    public var uint64Value: UInt64? { numberValue?.uint64Value }

    /// The number as a finite `Double`.
    public var doubleValue: Double? { numberValue?.doubleValue }

    /// The number as a `Decimal`, keeping its digits.
    public var decimalValue: Decimal? { numberValue?.decimalValue }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }
}

extension JSONNumber {
    /// A number with the digits of `value`.
    public init(_ value: Int) {
        self.init(unchecked: String(value))
    }

    /// A number with the digits of `value`.
    public init(_ value: Int64) {
        self.init(unchecked: String(value))
    }

    /// A number with the digits of `value`.
    public init(_ value: UInt64) {
        self.init(unchecked: String(value))
    }

    /// A number with the shortest digits that read back as `value` (`2.5`, `1e+30`,
    /// `2.0`), or `nil` for infinity and NaN.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        self.init(value.description)
    }

    /// A number with the digits of `value` (`10.5`), or `nil` for NaN.
    public init?(_ value: Decimal) {
        guard !value.isNaN else { return nil }
        self.init(value.description)
    }

    /// The number as `Int` when it is integral and fits (`2`, `2.0`, `2e3`); `nil`
    /// for `2.5`, `1e30` and the like. Never truncated.
    public var intValue: Int? { DecodingNumber.text(text).integer(Int.self) }

    /// The number as `Int64` when it is integral and fits.
    public var int64Value: Int64? { DecodingNumber.text(text).integer(Int64.self) }

    /// The number as `UInt64` when it is integral and fits (`12345678901234567890`; not `-1`).
    public var uint64Value: UInt64? { DecodingNumber.text(text).integer(UInt64.self) }

    /// The nearest `Double`, or `nil` when the number is beyond `Double`'s range (`1e400`).
    public var doubleValue: Double? { DecodingNumber.text(text).double }

    /// The number as a `Decimal`, keeping its digits (up to 38 significant digits);
    /// `nil` beyond `Decimal`'s range.
    public var decimalValue: Decimal? { DecodingNumber.text(text).decimal }
}
