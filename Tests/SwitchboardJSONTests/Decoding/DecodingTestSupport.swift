import Foundation
import Testing

@testable import SwitchboardJSON

/// Parses JSON text with `JSONSerialization`, fragments allowed: the Linux shapes the decoder must read.
func foundationTree(_ json: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
}

/// A one-member object, to see paths below the root.
struct Box<Value: Decodable>: Decodable {
    let v: Value
}

/// A one-member object whose member is optional.
struct OptionalBox<Value: Decodable>: Decodable {
    let v: Value?
}

/// The case of a `DecodingError`, as a word.
func caseName(_ error: DecodingError) -> String {
    switch error {
    case .typeMismatch: return "typeMismatch"
    case .valueNotFound: return "valueNotFound"
    case .keyNotFound: return "keyNotFound"
    case .dataCorrupted: return "dataCorrupted"
    @unknown default: return "unknown"
    }
}

/// The coding path of a `DecodingError` as key strings (for a missing key, without the key).
func pathStrings(_ error: DecodingError) -> [String] {
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
        .dataCorrupted(let context):
        return context.codingPath.map(\.stringValue)
    @unknown default:
        return []
    }
}

/// Decodes and returns the error, or `nil` if decoding succeeded.
func decodingError<T: Decodable>(
    _ type: T.Type,
    from body: Any?,
    options: DecodingOptions = DecodingOptions()
) -> BodyDecodingError? {
    do {
        _ = try BodyDecoder(options: options).decode(T.self, from: body)
        return nil
    } catch {
        return error
    }
}

/// Decodes from a `JSONValue` and returns the error, or `nil` if decoding succeeded.
func decodingError<T: Decodable>(
    _ type: T.Type,
    fromJSON value: JSONValue,
    options: DecodingOptions = DecodingOptions()
) -> BodyDecodingError? {
    do {
        _ = try BodyDecoder(options: options).decode(T.self, from: value)
        return nil
    } catch {
        return error
    }
}

/// `depth` arrays nested in one another around `0`, built without recursion.
func deeplyNestedArray(depth: Int) -> Any {
    var value: Any = 0
    for _ in 0..<depth {
        value = [value]
    }
    return value
}

/// Releases a deeply nested array one level at a time, so that freeing it does not recurse.
func dismantle(_ value: inout Any) {
    var node: Any = value
    value = 0
    while let array = node as? [Any], let first = array.first {
        node = first
    }
}

/// `depth` `JSONValue` arrays nested in one another around `0`, built without recursion.
func deeplyNestedJSON(depth: Int) -> JSONValue {
    var value: JSONValue = 0
    for _ in 0..<depth {
        value = .array([value])
    }
    return value
}

/// Releases a deeply nested `JSONValue` one level at a time.
func dismantle(_ value: inout JSONValue) {
    var node = value
    value = .null
    while case .array(let array) = node, let first = array.first {
        node = first
    }
}

/// A tree of arrays, decoded through the `Decodable` machinery (not the `JSONValue` shortcut).
struct Nest: Decodable {
    let children: [Nest]

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var children: [Nest] = []
        while !container.isAtEnd {
            if try container.decodeNil() { continue }
            if let leaf = try? container.decode(Int.self) {
                _ = leaf
                continue
            }
            children.append(try container.decode(Nest.self))
        }
        self.children = children
    }

    /// How many levels deep the tree goes, counted without recursion.
    var depth: Int {
        var depth = 1
        var node = self
        while let first = node.children.first {
            depth += 1
            node = first
        }
        return depth
    }
}
