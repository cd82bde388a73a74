import Foundation

/// Reads a ``JSONValue`` tree (what the JSON byte reader produces).
struct JSONValueSource: BodySource {
    typealias Value = JSONValue
    typealias Object = [String: JSONValue]
    typealias Array = [JSONValue]

    static var null: (source: JSONValueSource, value: JSONValue) { (JSONValueSource(), .null) }

    @inline(__always)
    func isNull(_ value: JSONValue) -> Bool {
        if case .null = value { return true }
        return false
    }

    @inline(__always)
    func string(_ value: JSONValue) -> String? {
        if case .string(let string) = value { return string }
        return nil
    }

    @inline(__always)
    func bool(_ value: JSONValue) -> Bool? {
        if case .bool(let bool) = value { return bool }
        return nil
    }

    @inline(__always)
    func number(_ value: JSONValue) -> BodyNumber? {
        if case .number(let number) = value { return .text(number.text) }
        return nil
    }

    @inline(__always)
    func object(_ value: JSONValue) -> [String: JSONValue]? {
        if case .object(let object) = value { return object }
        return nil
    }

    @inline(__always)
    func array(_ value: JSONValue) -> [JSONValue]? {
        if case .array(let array) = value { return array }
        return nil
    }

    func classify(_ value: JSONValue) -> SourceKind<JSONValueSource> {
        switch value {
        case .null: return .null
        case .bool(let bool): return .bool(bool)
        case .number(let number): return .number(.text(number.text))
        case .string(let string): return .string(string)
        case .array(let array): return .array(array)
        case .object(let object): return .object(object)
        }
    }

    @inline(__always)
    func value(in object: [String: JSONValue], forKey key: String, hint: inout MemberHint) -> JSONValue? {
        object[key]
    }

    func keys(of object: [String: JSONValue]) -> [String] {
        Swift.Array(object.keys)
    }

    func count(of object: [String: JSONValue]) -> Int {
        object.count
    }

    func forEachMember(of object: [String: JSONValue], _ body: (String, JSONValue) throws -> Void) rethrows {
        for (key, value) in object {
            try body(key, value)
        }
    }

    @inline(__always)
    func count(of array: [JSONValue]) -> Int {
        array.count
    }

    @inline(__always)
    func element(of array: [JSONValue], at index: Int) -> JSONValue {
        array[index]
    }

    @inline(__always)
    func existingJSONValue(_ value: JSONValue, levels: Int) -> JSONValue? {
        // Not `cond ? value : nil`: `JSONValue` is `ExpressibleByNilLiteral`, so that `nil` is `.null`.
        guard value.nests(within: levels) else { return nil }
        return value
    }
}
