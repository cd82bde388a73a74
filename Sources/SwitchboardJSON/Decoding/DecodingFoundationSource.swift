import Foundation

/// Reads the loosely typed trees Foundation and WebKit hand over: what
/// `JSONSerialization` returns (on Linux: Swift `[String: Any]`, `[Any]`,
/// `String`, `NSNumber`, `NSDecimalNumber`, `NSNull`), what `WKScriptMessage.body`
/// holds (`NSDictionary`, `NSArray`, `NSString`, `NSNumber`, `NSDate`, `NSNull`),
/// and native Swift values in hand-built dictionaries (`Int`, `Double`, `Bool`,
/// `Date`, `Decimal`, optionals, typed arrays and dictionaries, ``JSONValue``).
///
/// Booleans are told from numbers by class, never by value: on Linux
/// `NSNumber(1) as? Bool` succeeds and `true as? Int` is `1`, so the
/// accessors look at the dynamic type (`Bool`, or the `CFBoolean` class that
/// `NSNumber(value: true)` and `JSONSerialization` produce) before casting.
struct DecodingFoundationSource: DecodingSource {
    typealias Value = Any
    typealias Object = [String: Any]
    typealias Array = [Any]

    /// `ObjectIdentifier` of the class of Foundation's boolean numbers
    /// (`__NSCFBoolean` on Linux and on Apple platforms).
    static let booleanClass: ObjectIdentifier = ObjectIdentifier(type(of: NSNumber(value: true)))

    @inline(__always)
    static func isBooleanNumber(_ number: NSNumber) -> Bool {
        ObjectIdentifier(type(of: number)) == Self.booleanClass
    }

    static var null: (source: DecodingFoundationSource, value: Any) { (DecodingFoundationSource(), NSNull()) }

    @inline(__always)
    func isNull(_ value: Any) -> Bool {
        let type = type(of: value)
        if type == NSNull.self { return true }
        if type == String.self || type == Int.self || type == NSNumber.self || type == Bool.self
            || type == Double.self || type == [String: Any].self || type == [Any].self
        {
            return false
        }
        if case .null = classify(value) { return true }
        return false
    }

    @inline(__always)
    func string(_ value: Any) -> String? {
        if type(of: value) == String.self { return value as? String }
        if case .string(let string) = classify(value) { return string }
        return nil
    }

    @inline(__always)
    func bool(_ value: Any) -> Bool? {
        let type = type(of: value)
        if type == Bool.self { return value as? Bool }
        if ObjectIdentifier(type) == Self.booleanClass { return (value as? NSNumber)?.boolValue }
        if case .bool(let bool) = classify(value) { return bool }
        return nil
    }

    @inline(__always)
    func number(_ value: Any) -> DecodingNumber? {
        let type = type(of: value)
        if type == Int.self, let int = value as? Int { return .int(Int64(int)) }
        if type == NSNumber.self, let number = value as? NSNumber { return Self.plainNumber(number) }
        if type == Double.self, let double = value as? Double { return .double(double) }
        if case .number(let number) = classify(value) { return number }
        return nil
    }

    @inline(__always)
    func object(_ value: Any) -> [String: Any]? {
        if type(of: value) == [String: Any].self { return value as? [String: Any] }
        if case .object(let object) = classify(value) { return object }
        return nil
    }

    @inline(__always)
    func array(_ value: Any) -> [Any]? {
        if type(of: value) == [Any].self { return value as? [Any] }
        if case .array(let array) = classify(value) { return array }
        return nil
    }

    /// An `NSNumber` known not to be a boolean (its class is exactly `NSNumber`).
    @inline(__always)
    static func plainNumber(_ number: NSNumber) -> DecodingNumber {
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "c"), UInt8(ascii: "s"), UInt8(ascii: "i"), UInt8(ascii: "l"), UInt8(ascii: "q"):
            return .int(number.int64Value)
        case UInt8(ascii: "C"), UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "L"), UInt8(ascii: "Q"):
            return .uint(number.uint64Value)
        case UInt8(ascii: "f"):
            return Self.floatNumber(number.floatValue)
        default:
            return .double(number.doubleValue)
        }
    }

    /// Any `NSNumber`: a boolean, a decimal number or a plain number.
    static func anyNumber(_ number: NSNumber) -> DecodingKind<DecodingFoundationSource> {
        if Self.isBooleanNumber(number) { return .bool(number.boolValue) }
        if let decimal = number as? NSDecimalNumber { return .number(.decimal(decimal.decimalValue)) }
        return .number(Self.plainNumber(number))
    }

    /// A `Float` by its own shortest digits (`0.1`, not `0.10000000149011612`).
    static func floatNumber(_ value: Float) -> DecodingNumber {
        guard value.isFinite, let double = Double(value.description) else { return .double(Double(value)) }
        return .double(double)
    }

    func classify(_ value: Any) -> DecodingKind<DecodingFoundationSource> {
        let type = type(of: value)
        // The common shapes first, by exact type.
        if type == String.self, let string = value as? String { return .string(string) }
        if type == Int.self, let int = value as? Int { return .number(.int(Int64(int))) }
        if type == NSNumber.self, let number = value as? NSNumber { return .number(Self.plainNumber(number)) }
        if type == [String: Any].self, let object = value as? [String: Any] { return .object(object) }
        if type == [Any].self, let array = value as? [Any] { return .array(array) }
        if type == Bool.self, let bool = value as? Bool { return .bool(bool) }
        if type == Double.self, let double = value as? Double { return .number(.double(double)) }
        if type is AnyObject.Type {
            return Self.classifyObject(value, type)
        }
        return Self.classifyValue(value, type)
    }

    /// Class instances: `NSNull`, `NSNumber` (and `CFBoolean`, `NSDecimalNumber`),
    /// `NSString`, `NSDictionary`, `NSArray`, `NSDate`, `NSURL`.
    private static func classifyObject(_ value: Any, _ type: any Any.Type) -> DecodingKind<DecodingFoundationSource> {
        if value is NSNull { return .null }
        if let number = value as? NSNumber { return Self.anyNumber(number) }
        if let string = value as? NSString { return .string(String(string)) }
        if let dictionary = value as? NSDictionary {
            if let object = dictionary as? [String: Any] { return .object(object) }
            return .other(type)
        }
        if let array = value as? NSArray { return .array(array as? [Any] ?? []) }
        if let date = value as? NSDate { return .date(date as Date) }
        if let url = value as? NSURL, let absolute = url.absoluteURL { return .url(absolute) }
        return .other(type)
    }

    /// Swift values: optionals, other number types, `Date`, `URL`, `Decimal`,
    /// typed collections and ``JSONValue``.
    private static func classifyValue(_ value: Any, _ type: any Any.Type) -> DecodingKind<DecodingFoundationSource> {
        if let optional = value as? any OptionalValue {
            guard let wrapped = optional.wrappedAny else { return .null }
            return DecodingFoundationSource().classify(wrapped)
        }
        if type == Int64.self, let int = value as? Int64 { return .number(.int(int)) }
        if type == Int32.self, let int = value as? Int32 { return .number(.int(Int64(int))) }
        if type == Int16.self, let int = value as? Int16 { return .number(.int(Int64(int))) }
        if type == Int8.self, let int = value as? Int8 { return .number(.int(Int64(int))) }
        if type == UInt.self, let int = value as? UInt { return .number(.uint(UInt64(int))) }
        if type == UInt64.self, let int = value as? UInt64 { return .number(.uint(int)) }
        if type == UInt32.self, let int = value as? UInt32 { return .number(.uint(UInt64(int))) }
        if type == UInt16.self, let int = value as? UInt16 { return .number(.uint(UInt64(int))) }
        if type == UInt8.self, let int = value as? UInt8 { return .number(.uint(UInt64(int))) }
        if type == Float.self, let float = value as? Float { return .number(Self.floatNumber(float)) }
        if type == CGFloat.self, let float = value as? CGFloat { return .number(.double(Double(float))) }
        if type == Decimal.self, let decimal = value as? Decimal { return .number(.decimal(decimal)) }
        if type == Date.self, let date = value as? Date { return .date(date) }
        if type == URL.self, let url = value as? URL { return .url(url) }
        if type == Substring.self, let string = value as? Substring { return .string(String(string)) }
        if type == JSONValue.self, let json = value as? JSONValue {
            // One level at a time (the children stay `JSONValue`s, classified when reached), so a
            // value nested past the depth limit is refused there, not first converted whole into a
            // tree as deep as itself, which Swift would release by recursing once per level.
            switch json {
            case .array(let elements): return .array(elements.map { $0 as Any })
            case .object(let members): return .object(members.mapValues { $0 as Any })
            default: return DecodingFoundationSource().classify(json.foundationValue)
            }
        }
        if let object = value as? [String: Any] { return .object(object) }
        if let array = value as? [Any] { return .array(array) }
        return .other(type)
    }

    @inline(__always)
    func value(in object: [String: Any], forKey key: String, hint: inout DecodingMemberHint) -> Any? {
        object[key]
    }

    func keys(of object: [String: Any]) -> [String] {
        Swift.Array(object.keys)
    }

    func count(of object: [String: Any]) -> Int {
        object.count
    }

    /// `mapValues`, which keeps the object's hash table (its keys are not hashed again),
    /// stopping at the first member that is not a string.
    func stringMembers(of object: [String: Any]) -> [String: String]? {
        var allStrings = true
        let strings = object.mapValues { member -> String in
            guard allStrings, let string = string(member) else {
                allStrings = false
                return ""
            }
            return string
        }
        return allStrings ? strings : nil
    }

    func forEachMember(of object: [String: Any], _ body: (String, Any) throws -> Void) rethrows {
        for (key, value) in object {
            try body(key, value)
        }
    }

    @inline(__always)
    func count(of array: [Any]) -> Int {
        array.count
    }

    @inline(__always)
    func element(of array: [Any], at index: Int) -> Any {
        array[index]
    }

    @inline(__always)
    func existingJSONValue(_ value: Any, levels: Int) -> JSONValue? {
        guard type(of: value) == JSONValue.self, let json = value as? JSONValue, json.nests(within: levels) else {
            return nil
        }
        return json
    }
}

/// `Optional` seen through `Any`, to unwrap the optionals a hand-built
/// dictionary holds (`["coupon": nil as String?]`).
protocol OptionalValue {
    /// The wrapped value, or `nil` for `.none`.
    var wrappedAny: Any? { get }
    /// `.none` of this optional type.
    static var noneValue: Self { get }
}

extension Optional: OptionalValue {
    var wrappedAny: Any? {
        switch self {
        case .none: return nil
        case .some(let wrapped): return wrapped
        }
    }

    static var noneValue: Optional { .none }
}
