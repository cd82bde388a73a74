import Foundation

extension JSONValue {
    /// Converts a Foundation tree (what `JSONSerialization` or `WKScriptMessage.body`
    /// gives, or a hand-built `[String: Any]`) to a `JSONValue`.
    ///
    /// Accepted: `NSNull` and `nil`; booleans (`Bool`, `CFBoolean`); numbers
    /// (`NSNumber`, `NSDecimalNumber`, every Swift integer and floating-point type,
    /// `Decimal`) which keep their digits; strings (`String`, `NSString`,
    /// `Substring`); arrays and string-keyed dictionaries (Swift or `NS`, typed or
    /// not); `JSONValue`s. Two non-JSON types are converted to strings: a `Date`
    /// or `NSDate` becomes ISO 8601 text in UTC (`2024-01-02T03:04:05Z`, with
    /// milliseconds when it has a fraction of a second) and a `URL` its absolute
    /// string. Anything else, a non-finite number, or nesting deeper than 512
    /// levels is an error.
    /// - Parameter value: the tree.
    /// - Throws: ``BodyDecodingError`` naming the offending path (`body.when.at`).
    public init(foundation value: Any) throws(BodyDecodingError) {
        try self.init(foundation: value, maxDepth: DecodingOptions().maxDepth)
    }

    /// Converts a Foundation tree to a `JSONValue`, accepting nesting up to `maxDepth` levels.
    /// - Parameters:
    ///   - value: the tree.
    ///   - maxDepth: the deepest nesting of arrays and objects accepted (at most
    ///     ``DecodingOptions/maxDepthCeiling``).
    /// - Throws: ``BodyDecodingError`` naming the offending path.
    public init(foundation value: Any, maxDepth: Int) throws(BodyDecodingError) {
        self = try BodyDecoder(options: DecodingOptions(maxDepth: maxDepth)).decode(JSONValue.self, from: value)
    }

    /// This value as a Foundation tree that `JSONSerialization.data(withJSONObject:)` can write.
    ///
    /// `null` is `NSNull`, booleans are `Bool`, strings `String`, arrays `[Any]`,
    /// objects `[String: Any]`. A number is an `Int` when its text is an integer
    /// that fits, an `NSNumber` holding a `UInt64` when it fits that, a `Double`
    /// when the double has the same decimal value as the text (`2.5`, `0.1`,
    /// `1e30`), and otherwise an `NSDecimalNumber` with the digits
    /// (`12345678901234567890123`, `0.1000000000000000000001`). A number beyond
    /// both `Double` and `Decimal` (`1e400`) becomes `Double.infinity`, which
    /// `JSONSerialization` refuses to write.
    ///
    /// The conversion keeps its own stack instead of recursing, so a value at the
    /// depth limit converts on the smallest thread stack.
    public var foundationValue: Any {
        guard let root = FoundationFrame(self) else { return scalarFoundationValue }
        var stack = [root]
        while let top = stack.last {
            if let (key, child) = top.nextChild() {
                if let frame = FoundationFrame(child) {
                    frame.key = key
                    stack.append(frame)
                } else {
                    top.add(child.scalarFoundationValue, key: key)
                }
                continue
            }
            stack.removeLast()
            guard let parent = stack.last else { return top.built }
            parent.add(top.built, key: top.key)
        }
        return root.built
    }

    /// The Foundation value of a scalar (`null`, a Boolean, a number or a string).
    fileprivate var scalarFoundationValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let bool): return bool
        case .number(let number): return number.foundationNumber
        case .string(let string): return string
        case .array, .object: return NSNull()  // never asked: containers go through FoundationFrame
        }
    }
}

/// One array or object being converted by ``JSONValue/foundationValue``.
private final class FoundationFrame {
    private let elements: [JSONValue]
    private let members: [(key: String, value: JSONValue)]?
    private var next = 0
    private var array: [Any] = []
    private var object: [String: Any] = [:]
    /// The key this container has in its parent object, if its parent is one.
    var key: String?

    /// A frame for `value`, or `nil` when it is a scalar.
    init?(_ value: JSONValue) {
        switch value {
        case .array(let elements):
            self.elements = elements
            members = nil
            array.reserveCapacity(elements.count)
        case .object(let object):
            elements = []
            members = Array(object)
            self.object.reserveCapacity(object.count)
        default:
            return nil
        }
    }

    /// The next child to convert, with its key in an object; `nil` when all are done.
    func nextChild() -> (key: String?, value: JSONValue)? {
        if let members {
            guard next < members.count else { return nil }
            defer { next += 1 }
            return (members[next].key, members[next].value)
        }
        guard next < elements.count else { return nil }
        defer { next += 1 }
        return (nil, elements[next])
    }

    /// Adds a converted child.
    func add(_ value: Any, key: String?) {
        if members != nil, let key {
            object[key] = value
        } else {
            array.append(value)
        }
    }

    /// The converted container.
    var built: Any { members == nil ? array : object }
}

extension JSONNumber {
    /// The Swift or Foundation number that represents this number best.
    enum Representation {
        case int(Int)
        case uint(UInt64)
        case double(Double)
        case decimal(Decimal)
    }

    /// How to hand this number to Foundation or to an `Encoder` (see ``JSONValue/foundationValue``).
    var representation: Representation {
        if let int = Int(text) { return .int(int) }
        if let uint = UInt64(text) { return .uint(uint) }
        let decimal = Decimal(string: text, locale: nil).flatMap { $0.isNaN ? nil : $0 }
        let isInteger = !text.utf8.contains {
            $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
        }
        if !isInteger, let double = Double(text), double.isFinite {
            if let decimal, Decimal(string: double.description, locale: nil) == decimal { return .double(double) }
            if decimal == nil { return .double(double) }
        }
        if let decimal { return .decimal(decimal) }
        return .double(Double(text) ?? .nan)
    }

    /// This number as `Int`, `NSNumber`, `Double` or `NSDecimalNumber`.
    var foundationNumber: Any {
        switch representation {
        case .int(let int): return int
        case .uint(let uint): return NSNumber(value: uint)
        case .double(let double): return double
        case .decimal(let decimal): return NSDecimalNumber(decimal: decimal)
        }
    }
}
