import Foundation

/// Encodes `Encodable` values (replies, manifests) to JSON-compatible
/// Foundation trees for WebKit, to JSON bytes, and to ``JSONValue``.
///
/// Two paths, one set of rules; nothing goes through `JSONEncoder` or
/// `JSONSerialization`. JSON bytes are streamed into a ``JSONWriter`` in one pass,
/// with no tree. The two outputs that are trees (a Foundation object, a ``JSONValue``)
/// come from an `Encoder` that builds a small tree in encode order, which also writes
/// the bytes of the few values a one-pass stream cannot (a value that encodes one key
/// twice, or a container after a value): the same bytes, or the error with its path.
/// Object keys are written in the order they were encoded (synthesized `Codable` order).
///
/// Conventions (as `JSONEncoder` with its default strategies, except dates):
/// - `Date` → an ISO 8601 string in UTC, `2024-05-01T12:30:00Z`, with
///   milliseconds when it has a fraction of a second (`…:00.250Z`), as
///   JavaScript's `Date` reads and writes them.
/// - `URL` → its `absoluteString`; `Data` → a base64 string;
///   `Decimal` → a JSON number with its exact digits (an `NSDecimalNumber` in
///   the Foundation tree); ``JSONValue`` → itself.
/// - `nil` through `encodeIfPresent` omits the key; `encodeNil` writes `null`.
/// - A value that encodes nothing at all becomes `{}`.
/// - Top-level fragments (a bare string, number or `null`) are fine.
/// - NaN and infinities, and any error an `encode(to:)` throws, become a
///   ``BodyEncodingError`` naming the coding path:
///   `reply.totals.price: cannot encode non-finite number nan`. Misuse that
///   makes `JSONEncoder` trap (two values in one single-value container, a
///   keyed container after an unkeyed one) is an error too, never a crash.
/// - Values nested more than ``DecodingOptions/defaultMaxDepth`` (512) deep, each
///   inside the one before through its `encode(to:)` (a recursive type, say), are an
///   error naming the path rather than a stack overflow: a value counts when it is
///   encoded through its `encode(to:)` (every struct, enum, class, `Optional`, `Array`
///   and `Dictionary`), not when it is a `String`, `Bool`, `Int`, `Double`, `Float`,
///   `Date`, `URL`, `Decimal`, `Data` or ``JSONValue``; nested containers and super
///   encoders count their keys and indices from the top. The error reads
///   `reply.next.next…: cannot encode a value nested more than 512 levels deep`.
public struct BodyEncoder: Sendable {
    /// The deepest nesting of values encoded (see the type's comment): the package's one
    /// depth limit, ``DecodingOptions/defaultMaxDepth``.
    package static let maxDepth = DecodingOptions.defaultMaxDepth

    /// The reason given for a value nested deeper than ``maxDepth``.
    static let tooDeep = "cannot encode a value nested more than \(maxDepth) levels deep"

    /// The name the coding path starts with in error messages (`reply` by default).
    public var rootName: String

    /// Creates an encoder whose error paths start with `rootName`.
    /// - Parameter rootName: the first component of error paths: `reply` by default, or e.g. `manifest`.
    public init(rootName: String = "reply") {
        self.rootName = rootName
    }

    /// Encodes `value` to a tree of `NSNull`, `Bool`, `Int`, `Double`, `NSNumber`, `String`, `[Any]` and `[String: Any]`.
    /// - Parameter value: the value.
    /// - Returns: the tree (a bare scalar for a fragment).
    /// - Throws: ``BodyEncodingError`` with the coding path of the first problem.
    public func encodeFoundationObject<T: Encodable>(_ value: T) throws(BodyEncodingError) -> Any {
        let node = try encodeNode(value)
        return try node.foundationObject(rootName: rootName)
    }

    /// Encodes `value` to UTF-8 JSON bytes.
    /// - Parameter value: the value.
    /// - Returns: the JSON text.
    /// - Throws: ``BodyEncodingError`` with the coding path of the first problem.
    public func encodeJSON<T: Encodable>(_ value: T) throws(BodyEncodingError) -> [UInt8] {
        var writer = JSONWriter()
        try encodeJSON(value, into: &writer)
        return writer.bytes
    }

    /// Encodes `value` as JSON into `writer`, as one value (after a key, in an array, or at top level).
    /// - Parameters:
    ///   - value: the value.
    ///   - writer: the writer to append to; left unchanged when encoding fails.
    /// - Throws: ``BodyEncodingError`` with the coding path of the first problem.
    public func encodeJSON<T: Encodable>(_ value: T, into writer: inout JSONWriter) throws(BodyEncodingError) {
        // Streamed straight into bytes when the value encodes the usual way (`EncodingStreamSink.swift`);
        // otherwise through the tree, which gives the same bytes or the error with its path.
        // The sink writes into `writer` itself (swapped in for the stream, swapped back
        // after it); a stream that gives up is cut back to where it began. The thread keeps
        // the sink for its next encode when nothing else holds it (`EncodingSinkBox`).
        let box = EncodingSinkBox.current
        var sink: EncodingStreamSink
        if let kept = box.sink {
            box.sink = nil
            sink = kept
            sink.restart()
        } else {
            sink = EncodingStreamSink()
        }
        let mark = writer.mark
        swap(&writer, &sink.writer)
        let streamed = (try? sink.write(value)) != nil && !sink.failed
        swap(&writer, &sink.writer)
        sink.finish()
        if box.sink == nil, isKnownUniquelyReferenced(&sink), sink.isWorthKeeping { box.sink = sink }
        if streamed { return }
        writer.rewind(to: mark)
        let node = try encodeNode(value)
        node.write(to: &writer)
    }

    /// Encodes `value` to a ``JSONValue``.
    /// - Parameter value: the value.
    /// - Returns: the value as JSON (object keys are unordered there).
    /// - Throws: ``BodyEncodingError`` with the coding path of the first problem.
    public func encodeJSONValue<T: Encodable>(_ value: T) throws(BodyEncodingError) -> JSONValue {
        try encodeNode(value).jsonValue()
    }

    private func encodeNode<T: Encodable>(_ value: T) throws(BodyEncodingError) -> EncodingNode {
        let state = EncodingState()
        let node: EncodingNode
        do {
            node = try box(value, state: state, parent: nil, key: nil)
        } catch {
            throw BodyEncodingError(from: error, rootName: rootName)
        }
        if let failure = state.failure {
            throw BodyEncodingError(from: failure, rootName: rootName)
        }
        return node
    }
}

// MARK: - Paths and errors

/// One step of a coding path.
enum EncodingPathSegment: Sendable, Equatable {
    case key(String)
    case index(Int)

    init(_ key: any CodingKey) {
        if let key = key as? EncodingIndexKey {
            self = .index(key.index)
        } else {
            self = .key(key.stringValue)
        }
    }
}

/// `reply.lines[2].price`.
func render(_ path: [EncodingPathSegment], rootName: String) -> String {
    var text = rootName
    for segment in path {
        switch segment {
        case .key(let key): text += text.isEmpty ? key : ".\(key)"
        case .index(let index): text += "[\(index)]"
        }
    }
    return text
}

/// An error thrown inside the encoder, already carrying its path.
struct EncodingPathError: Error {
    let path: [EncodingPathSegment]
    let reason: String
}

/// A coding path as a linked list from the leaf, turned into an array only when needed.
final class EncodingPathNode {
    let parent: EncodingPathNode?
    let key: any CodingKey
    /// The number of keys on the path (this one's included).
    let depth: Int

    init(parent: EncodingPathNode?, key: any CodingKey) {
        self.parent = parent
        self.key = key
        self.depth = (parent?.depth ?? 0) &+ 1
    }

    static func keys(_ node: EncodingPathNode?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = node
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }

    static func segments(_ node: EncodingPathNode?, then key: (any CodingKey)? = nil) -> [EncodingPathSegment] {
        var segments = keys(node).map(EncodingPathSegment.init)
        if let key { segments.append(EncodingPathSegment(key)) }
        return segments
    }
}

/// The key of an element of an unkeyed container (rendered `[n]` in paths).
struct EncodingIndexKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(intValue: Int) { self.index = intValue }
    init?(stringValue: String) { return nil }
    var intValue: Int? { index }
    var stringValue: String { "Index \(index)" }
}

/// The key `super`, for `superEncoder()`.
struct EncodingSuperKey: CodingKey {
    init() {}
    init?(intValue: Int) { return nil }
    init?(stringValue: String) { return nil }
    var intValue: Int? { nil }
    var stringValue: String { "super" }
}

/// Errors recorded where the `Encoder` API cannot throw (asking for a second kind of container).
final class EncodingState {
    var failure: EncodingPathError?
    /// The number of values being boxed one inside another (see ``BodyEncoder/maxDepth``).
    var depth = 0

    func record(_ reason: String, at path: EncodingPathNode?) {
        if failure == nil {
            failure = EncodingPathError(path: EncodingPathNode.segments(path), reason: reason)
        }
    }

    /// The path of a container or super encoder nested at `key` in the one at `path`; `nil`, with
    /// the failure recorded, when it would be more than ``BodyEncoder/maxDepth`` keys deep. The
    /// caller then hands out one writing into a node of its own, outside the tree, on the same
    /// path: a loop of nested containers (no recursion into `encode(to:)`, which `box` counts)
    /// cannot build a tree or a path that overflows the stack when written or destroyed.
    func nestedPath(_ path: EncodingPathNode?, _ key: any CodingKey) -> EncodingPathNode? {
        guard (path?.depth ?? 0) < BodyEncoder.maxDepth else {
            record(BodyEncoder.tooDeep, at: EncodingPathNode(parent: path, key: key))
            return nil
        }
        return EncodingPathNode(parent: path, key: key)
    }
}

// MARK: - The tree

final class EncodingArrayNode {
    var elements: [EncodingNode] = []
}

/// Members in encode order; a key encoded twice keeps its first place and its last value.
final class EncodingObjectNode {
    var keys: [String] = []
    var values: [EncodingNode] = []
    private var index: [String: Int]?

    func set(_ value: EncodingNode, forKey key: String) {
        if let index {
            if let position = index[key] {
                values[position] = value
                return
            }
        } else if let position = keys.firstIndex(of: key) {
            values[position] = value
            return
        }
        keys.append(key)
        values.append(value)
        if index != nil {
            index?[key] = keys.count - 1
        } else if keys.count > 12 {
            var built: [String: Int] = [:]
            for (position, key) in keys.enumerated() { built[key] = position }
            index = built
        }
    }
}

enum EncodingNode {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case float(Float)
    case decimal(Decimal, String)
    case string(String)
    case json(JSONValue)
    case array(EncodingArrayNode)
    case object(EncodingObjectNode)
    /// A `superEncoder`'s value, read when the tree is output.
    case deferred(EncodingTreeEncoder)

    var resolved: EncodingNode {
        if case .deferred(let encoder) = self { return encoder.node?.resolved ?? .object(EncodingObjectNode()) }
        return self
    }

    func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.writeNull()
        case .bool(let value): writer.write(value)
        case .int(let value): writer.write(value)
        case .uint(let value): writer.write(value)
        // Finite by construction: boxing rejected non-finite values.
        case .double(let value): try? writer.write(value)
        case .float(let value): try? writer.write(value)
        case .decimal(_, let text): writer.writeRaw(text.utf8)
        case .string(let value): writer.write(value)
        case .json(let value): writer.write(value)
        case .array(let array):
            writer.beginArray()
            for element in array.elements { element.write(to: &writer) }
            writer.endArray()
        case .object(let object):
            writer.beginObject()
            for (key, value) in zip(object.keys, object.values) {
                writer.key(key)
                value.write(to: &writer)
            }
            writer.endObject()
        case .deferred: resolved.write(to: &writer)
        }
    }

    func jsonValue() -> JSONValue {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .number(JSONNumber(unchecked: String(value)))
        case .uint(let value): return .number(JSONNumber(unchecked: String(value)))
        case .double, .float:
            var writer = JSONWriter(capacity: 32)
            write(to: &writer)
            return .number(JSONNumber(unchecked: String(decoding: writer.bytes, as: UTF8.self)))
        case .decimal(_, let text): return .number(JSONNumber(unchecked: text))
        case .string(let value): return .string(value)
        case .json(let value): return value
        case .array(let array): return .array(array.elements.map { $0.jsonValue() })
        case .object(let object):
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(object.keys.count)
            for (key, value) in zip(object.keys, object.values) { members[key] = value.jsonValue() }
            return .object(members)
        case .deferred: return resolved.jsonValue()
        }
    }

    func foundationObject(rootName: String) throws(BodyEncodingError) -> Any {
        var path: [EncodingPathSegment] = []
        return try foundationObject(path: &path, rootName: rootName)
    }

    private func foundationObject(path: inout [EncodingPathSegment], rootName: String) throws(BodyEncodingError) -> Any
    {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .int(let value): return Int(value)
        case .uint(let value): return value <= UInt64(Int.max) ? Int(value) : NSNumber(value: value)
        case .double(let value): return value
        // The Float's own shortest text, so 0.1 stays 0.1 rather than 0.10000000149011612.
        case .float(let value): return Double(value.description) ?? Double(value)
        case .decimal(let value, _): return NSDecimalNumber(decimal: value)
        case .string(let value): return value
        case .json(let value):
            do throws(EncodingFoundationFailure) {
                return try foundationTree(value, path: &path)
            } catch {
                throw BodyEncodingError(path: render(path, rootName: rootName), reason: error.reason)
            }
        case .array(let array):
            var elements: [Any] = []
            elements.reserveCapacity(array.elements.count)
            for (index, element) in array.elements.enumerated() {
                path.append(.index(index))
                elements.append(try element.foundationObject(path: &path, rootName: rootName))
                path.removeLast()
            }
            return elements
        case .object(let object):
            var members: [String: Any] = [:]
            members.reserveCapacity(object.keys.count)
            for (key, value) in zip(object.keys, object.values) {
                path.append(.key(key))
                members[key] = try value.foundationObject(path: &path, rootName: rootName)
                path.removeLast()
            }
            return members
        case .deferred: return try resolved.foundationObject(path: &path, rootName: rootName)
        }
    }
}

struct EncodingFoundationFailure: Error {
    let reason: String
}

/// A ``JSONValue`` as a Foundation tree: integers that fit `Int` as `Int` (`UInt64` as `NSNumber`), other
/// numbers as `Double` when it has their exact decimal value, else as `NSDecimalNumber` with the digits;
/// out-of-range numbers fail.
func foundationTree(_ value: JSONValue, path: inout [EncodingPathSegment]) throws(EncodingFoundationFailure) -> Any {
    // Walked with a stack of its own (`JSONValue.foundationTree(converting:)`): a value built
    // by hand may nest any number of levels deep. On failure `path` names the number.
    var failedAt: [EncodingPathSegment] = []
    do throws(EncodingFoundationFailure) {
        return try value.foundationTree { number, numberPath throws(EncodingFoundationFailure) -> Any in
            // The same representation as `JSONValue.foundationValue`, so no digit is lost
            // (`Double` only when it has the text's exact decimal value).
            let text = number.text
            switch number.representation {
            case .int(let integer): return integer
            case .uint(let integer): return NSNumber(value: integer)
            case .decimal(let decimal): return NSDecimalNumber(decimal: decimal)
            case .double(let double):
                if double.isFinite, double != 0 || isZeroText(text) { return double }
                failedAt = numberPath()
                throw EncodingFoundationFailure(reason: "number \(text) is out of range for a Foundation number")
            }
        }
    } catch {
        path += failedAt
        throw error
    }
}

/// Whether number text is zero (`0.0`, `-0e5`), so that a `Double` of 0 is no underflow.
private func isZeroText(_ text: String) -> Bool {
    for byte in text.utf8 {
        if byte | 0x20 == UInt8(ascii: "e") { return true }
        if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return false }
    }
    return true
}

// MARK: - Boxing

/// Turns one value into a node: special types by hand, everything else through its `encode(to:)`.
func box<T: Encodable>(
    _ value: T, state: EncodingState, parent: EncodingPathNode?, key: (any CodingKey)?
) throws -> EncodingNode {
    // Metatype comparisons first (cheap), a cast only once the type is known.
    let type = T.self
    if type == String.self, let string = value as? String { return .string(string) }
    if type == Int.self, let integer = value as? Int { return .int(Int64(integer)) }
    if type == Double.self, let double = value as? Double { return try boxDouble(double, parent: parent, key: key) }
    if type == Float.self, let float = value as? Float { return try boxFloat(float, parent: parent, key: key) }
    if type == Bool.self, let flag = value as? Bool { return .bool(flag) }
    if type == JSONValue.self, let json = value as? JSONValue { return .json(json) }
    if type == Date.self, let date = value as? Date { return try boxDate(date, parent: parent, key: key) }
    if type == URL.self, let url = value as? URL { return .string(url.absoluteString) }
    if type == Decimal.self, let decimal = value as? Decimal {
        return try boxDecimal(decimal, parent: parent, key: key)
    }
    if type == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
    let path = key.map { EncodingPathNode(parent: parent, key: $0) } ?? parent
    // Counted as the stream counts (`EncodingStreamSink.write(_:)`), so both stop at the same value.
    guard state.depth < BodyEncoder.maxDepth else {
        throw EncodingPathError(path: EncodingPathNode.segments(path), reason: BodyEncoder.tooDeep)
    }
    state.depth += 1
    defer { state.depth -= 1 }
    let encoder = EncodingTreeEncoder(state: state, path: path)
    do {
        try value.encode(to: encoder)
    } catch let error as EncodingPathError {
        throw error
    } catch let error as EncodingError {
        throw error
    } catch {
        throw EncodingPathError(path: EncodingPathNode.segments(path), reason: "\(error)")
    }
    return encoder.node ?? .object(EncodingObjectNode())
}

func boxDouble(_ value: Double, parent: EncodingPathNode?, key: (any CodingKey)?) throws -> EncodingNode {
    guard value.isFinite else {
        throw EncodingPathError(
            path: EncodingPathNode.segments(parent, then: key), reason: "cannot encode non-finite number \(value)")
    }
    return .double(value)
}

func boxFloat(_ value: Float, parent: EncodingPathNode?, key: (any CodingKey)?) throws -> EncodingNode {
    guard value.isFinite else {
        throw EncodingPathError(
            path: EncodingPathNode.segments(parent, then: key), reason: "cannot encode non-finite number \(value)")
    }
    return .float(value)
}

func boxDecimal(_ value: Decimal, parent: EncodingPathNode?, key: (any CodingKey)?) throws -> EncodingNode {
    let text = value.description
    guard !value.isNaN, JSONNumber.isValid(text.utf8) else {
        throw EncodingPathError(
            path: EncodingPathNode.segments(parent, then: key), reason: "cannot encode decimal \(text) as a JSON number"
        )
    }
    return .decimal(value, text)
}

func boxDate(_ value: Date, parent: EncodingPathNode?, key: (any CodingKey)?) throws -> EncodingNode {
    guard let text = ISO8601.format(value) else {
        throw EncodingPathError(
            path: EncodingPathNode.segments(parent, then: key),
            reason: "cannot encode date \(value.timeIntervalSince1970)s since 1970, out of ISO 8601 range")
    }
    return .string(text)
}
