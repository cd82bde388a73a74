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
    /// string. Anything else, a non-finite number, or nesting deeper than `maxDepth`
    /// levels is an error.
    /// - Parameters:
    ///   - value: the tree.
    ///   - maxDepth: the deepest nesting of arrays and objects accepted
    ///     (``DecodingOptions/defaultMaxDepth`` by default, at most ``DecodingOptions/maxDepthCeiling``).
    /// - Throws: ``BodyDecodingError`` naming the offending path (`body.when.at`).
    public init(foundation value: Any, maxDepth: Int = DecodingOptions.defaultMaxDepth) throws(BodyDecodingError) {
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
    /// The conversion walks the value with a stack of its own instead of recursing, so a
    /// value nested any number of levels deep converts on the smallest thread stack.
    public var foundationValue: Any {
        foundationTree { number, _ in number.foundationNumber }
    }

    /// This value as a Foundation tree (`NSNull`, `Bool`, `String`, `[Any]`, `[String: Any]`),
    /// each number converted by `convert`, which is also given the path to the number (for
    /// its error). Built with ``JSONValueWalk``, not by recursion.
    func foundationTree<Failure: Error>(
        converting convert: (JSONNumber, _ path: () -> [EncodingPathSegment]) throws(Failure) -> Any
    ) throws(Failure) -> Any {
        var walk = JSONValueWalk(self, sortsKeys: false)
        var open: [FoundationContainer] = []
        var root: Any = NSNull()
        func add(_ value: Any) {
            guard let last = open.indices.last else {
                root = value
                return
            }
            open[last].add(value)
        }
        while let event = walk.next() {
            switch event {
            case .scalar(.number(let number)): add(try convert(number, { walk.path }))
            case .scalar(.bool(let flag)): add(flag)
            case .scalar(.string(let string)): add(string)
            case .scalar: add(NSNull())
            case .beginArray(let count): open.append(FoundationContainer(isObject: false, capacity: count))
            case .beginObject(let count): open.append(FoundationContainer(isObject: true, capacity: count))
            case .key(let key): open[open.count - 1].key = key
            case .endArray, .endObject: add(open.removeLast().built)
            }
        }
        return root
    }
}

/// An array or object being built by ``JSONValue/foundationTree(converting:)``.
private struct FoundationContainer {
    let isObject: Bool
    private var array: [Any] = []
    private var object: [String: Any] = [:]
    /// The key of the member whose value comes next, in an object.
    var key = ""

    init(isObject: Bool, capacity: Int) {
        self.isObject = isObject
        if isObject { object.reserveCapacity(capacity) } else { array.reserveCapacity(capacity) }
    }

    /// Adds the next element, or the value of the member under ``key``.
    mutating func add(_ value: Any) {
        if isObject { object[key] = value } else { array.append(value) }
    }

    /// The container built.
    var built: Any { isObject ? object : array }
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
