import Foundation
import SwitchboardTestSupport
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// A `JSONValue` built by hand may nest any number of levels deep (the parsers stop at
/// ``DecodingOptions/maxDepthCeiling``, a loop does not). Every public operation on one gives
/// its result or an error on a 512 KiB thread stack: writing, describing, comparing, hashing,
/// converting and encoding such a value never recurse once per level without a bound.
@Suite struct UserBuiltDepthTests {
    /// Deep enough that a walk recursing once per level overflows a 512 KiB stack several times over.
    static let depth = 5_000

    /// 512 KiB (Apple platforms' secondary threads); 2 MiB under AddressSanitizer.
    static let stackSize = AddressSanitizer.stackSize(512 << 10)

    /// Runs `work` on a thread with a ``stackSize`` stack and returns what it noted.
    private func onSmallStack(_ work: @escaping @Sendable () -> [String]) async -> [String] {
        await onDispatchThread(stackSize: Self.stackSize, work)
    }

    /// The kinds of nesting: arrays, objects, and the two alternating.
    enum Shape: String, CaseIterable, Sendable {
        case arrays, objects, alternating

        /// `depth` levels around `inner`, built in a loop.
        func value(depth: Int, inner: JSONValue = 0) -> JSONValue {
            var value = inner
            for level in 0..<depth {
                let object = self == .objects || (self == .alternating && level % 2 == 1)
                value = object ? .object(["a": value]) : .array([value])
            }
            return value
        }

        /// The JSON text of ``value(depth:inner:)``.
        func text(depth: Int, inner: String = "0") -> String {
            var opening = ""
            var closing = ""
            opening.reserveCapacity(depth * 5)
            closing.reserveCapacity(depth)
            for level in (0..<depth).reversed() {
                let object = self == .objects || (self == .alternating && level % 2 == 1)
                opening += object ? #"{"a":"# : "["
                closing += object ? "}" : "]"
            }
            return opening + inner + String(closing.reversed())
        }
    }

    @Test(arguments: Shape.allCases)
    func everyOperationOnAValueBuiltInALoopGivesItsResultOrAnErrorOnASmallStack(_ shape: Shape) async {
        let noted = await onSmallStack {
            var noted: [String] = []
            let depth = UserBuiltDepthTests.depth
            let text = shape.text(depth: depth)
            var value = shape.value(depth: depth)
            var same = shape.value(depth: depth)
            var other = shape.value(depth: depth, inner: 1)
            defer {
                dismantleNested(&value)
                dismantleNested(&same)
                dismantleNested(&other)
            }
            var writer = JSONWriter()
            writer.write(value)
            noted.append("written \(writer.bytes == Array(text.utf8))")
            noted.append("described \(value.description == text)")
            noted.append("equal \(value == same) \(value == other) \(other == value)")
            noted.append("hashed \(value.hashValue == same.hashValue)")
            var tree = value.foundationValue
            noted.append("foundationValue \(isNested(tree, depth: depth))")
            dismantleNested(&tree)
            do {
                noted.append("encodeJSON \(try BodyEncoder().encodeJSON(value) == Array(text.utf8))")
                var encoded = try BodyEncoder().encodeJSONValue(value)
                noted.append("encodeJSONValue \(encoded == value)")
                dismantleNested(&encoded)
                var object = try BodyEncoder().encodeFoundationObject(value)
                noted.append("encodeFoundationObject \(isNested(object, depth: depth))")
                dismantleNested(&object)
                let reply = ReplyValue(value)
                noted.append("reply \(try reply.jsonBytes() == Array(text.utf8))")
                var replyObject = try reply.foundationObject()
                noted.append("reply foundationObject \(isNested(replyObject, depth: depth))")
                dismantleNested(&replyObject)
            } catch {
                noted.append("error \(error)")
            }
            let tooDeep = "The value is nested more than 512 levels deep (DecodingOptions.maxDepth)."
            let body = MessageBody(json: value)
            noted.append("body described \(body.description == text)")
            do {
                _ = try body.decode(JSONValue.self)
                noted.append("decoded")
            } catch let error as BodyDecodingError {
                noted.append("decode \(error.message == tooDeep)")
            } catch {
                noted.append("decode \(error)")
            }
            do {
                _ = try JSONEncoder().encode(value)
                noted.append("JSONEncoder encoded")
            } catch EncodingError.invalidValue(_, let context) {
                noted.append("JSONEncoder \(context.debugDescription == JSONValue.tooDeepForStack)")
            } catch {
                noted.append("JSONEncoder \(error)")
            }
            noted.append("schema equal \(SchemaValidator.equal(value, same)) \(SchemaValidator.equal(value, other))")
            noted.append("contains key \(value.containsKey("a")) \(value.containsKey("b"))")
            let router = Router()
            let token = router.on(DeepBody.self) { _ in }
            let outcome = router.receive(name: "deepBody", body: ["data": value])
            noted.append("routed \(outcome.kind) \(String(describing: outcome).contains("512 levels"))")
            let whole = router.receive(name: "deepBody", body: MessageBody(json: ["data": value]))
            noted.append("routed body \(whole.kind) \(String(describing: whole).contains("512 levels"))")
            withExtendedLifetime(token) {}
            return noted
        }
        let hasKey = shape != .arrays
        #expect(
            noted == [
                "written true", "described true", "equal true false false", "hashed true", "foundationValue true",
                "encodeJSON true", "encodeJSONValue true", "encodeFoundationObject true", "reply true",
                "reply foundationObject true", "body described true",
                "decode true", "JSONEncoder true", "schema equal true false", "contains key \(hasKey) false",
                "routed invalid true", "routed body invalid true",
            ])
    }

    @Test func aBadNumberDeepInAValueBuiltInALoopIsReportedAtItsPathWhenEncodedForFoundation() async {
        let noted = await onSmallStack {
            var value = Shape.alternating.value(depth: 10_000, inner: .number(JSONNumber(unchecked: "1e400")))
            defer { dismantleNested(&value) }
            do {
                var tree = try BodyEncoder().encodeFoundationObject(value)
                dismantleNested(&tree)
                return ["converted"]
            } catch let error as BodyEncodingError {
                return [error.path, error.reason]
            } catch {
                return ["\(error)"]
            }
        }
        #expect(
            noted == [
                "reply" + String(repeating: ".a[0]", count: 5_000),
                "number 1e400 is out of range for a Foundation number",
            ])
    }

    @Test func valuesThatDifferOnlyDeepDownAreUnequalAndEqualOnesHashTheSame() {
        let left: JSONValue = ["b": [1, ["c": "x"]], "a": nil]
        let right: JSONValue = ["a": nil, "b": [1, ["c": "x"]]]
        #expect(left == right)
        #expect(left.hashValue == right.hashValue)
        #expect(Set([left, right]).count == 1)
        #expect(left != ["a": nil, "b": [1, ["c": "y"]]])
        #expect(left != ["a": nil, "b": [1, ["d": "x"]]])
        #expect(left != ["a": nil, "b": [1, ["c": "x"], 2]])
        #expect(JSONValue.array([]) != .object([:]))
        #expect(JSONValue.number(JSONNumber(unchecked: "1")) != .number(JSONNumber(unchecked: "1.0")))
        #expect(Set<JSONValue>([[], [:], nil, false, 0, ""]).count == 6)
    }

    /// Equal objects whose dictionaries were filled in another order, one with room for many
    /// more keys (so their storage orders differ), nested deep: equal, and hashed the same.
    @Test func equalObjectsBuiltInAnotherOrderAndCapacityHashTheSame() {
        let keys = (0..<40).map { "key\($0)" }
        var forward: [String: JSONValue] = [:]
        for (index, key) in keys.enumerated() { forward[key] = .number(JSONNumber(unchecked: "\(index)")) }
        var backward: [String: JSONValue] = [:]
        backward.reserveCapacity(4_096)
        for (index, key) in keys.enumerated().reversed() { backward[key] = .number(JSONNumber(unchecked: "\(index)")) }
        #expect(Array(forward.keys) != Array(backward.keys))
        var left = JSONValue.object(forward)
        var right = JSONValue.object(backward)
        // 1,000 levels: released on the test's own thread, by Swift's recursion.
        for level in 0..<1_000 {
            var leftLevel: [String: JSONValue] = ["next": left, "level": .number(JSONNumber(unchecked: "\(level)"))]
            leftLevel["extra"] = nil
            var rightLevel: [String: JSONValue] = [:]
            rightLevel.reserveCapacity(64)
            rightLevel["level"] = .number(JSONNumber(unchecked: "\(level)"))
            rightLevel["next"] = right
            left = .object(leftLevel)
            right = .object(rightLevel)
        }
        #expect(left == right)
        #expect(left.hashValue == right.hashValue)
        #expect(Set([left, right]).count == 1)
    }
}

extension UserBuiltDepthTests {
    @Test func aContractWithASchemaNestedDeepBuiltInCodeRendersOnASmallStack() async {
        let noted = await onSmallStack {
            let contract = Contract(types: [DeepSchemaEvent.self])
            let json = contract.json
            let script = contract.typeScript
            var value = Shape.arrays.value(depth: 5_000)
            defer { dismantleNested(&value) }
            let problem = SchemaValidator().problem(value, DeepSchemaEvent.deep.json) ?? "valid"
            return [
                "validated \(problem.hasSuffix(": schema too deep"))",
                "json \(json.contains(String(repeating: #"{"items":"#, count: 100)))",
                "typeScript \(script.contains("unknown /* nested too deep */"))",
            ]
        }
        #expect(noted == ["validated true", "json true", "typeScript true"])
    }
}

extension UserBuiltDepthTests {
    @Test func decodingThroughADecoderWithNoDepthLimitStopsWhileTheStackHasRoom() async {
        let noted = await onSmallStack {
            do {
                _ = try JSONValue(from: EndlessDecoder())
                return ["decoded"]
            } catch DecodingError.dataCorrupted(let context) {
                return [context.debugDescription]
            } catch {
                return ["\(error)"]
            }
        }
        #expect(noted == [JSONValue.tooDeepForStack])
    }
}

/// A decoder of arrays nested in one another without end (a hand-written one with no depth
/// limit): `JSONValue`'s `init(from:)` calls through it once per level.
private struct EndlessDecoder: Decoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    struct Refused: Error {}

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw Refused() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw Refused() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Level() }

    /// One array, holding the next.
    struct Level: UnkeyedDecodingContainer {
        var codingPath: [any CodingKey] { [] }
        var count: Int? { 1 }
        var isAtEnd: Bool { currentIndex > 0 }
        var currentIndex = 0

        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex += 1
            return try T(from: EndlessDecoder())
        }
        mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> {
            throw Refused()
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Refused() }
        mutating func superDecoder() throws -> any Decoder { throw Refused() }
    }
}

/// An event that supplies a schema of arrays of arrays, 5,000 levels deep.
private struct DeepSchemaEvent: Event, ContractDescribable {
    static let channel: Channel = "deepSchema"
    let data: Int

    /// Built once and kept (released, a value this deep would overflow the stack in Swift's runtime).
    static let deep: JSONSchema = {
        var schema: JSONValue = ["type": "integer"]
        for _ in 0..<5_000 { schema = ["type": "array", "items": schema] }
        return JSONSchema(schema)
    }()

    static var contractSchema: JSONSchema? { deep }
}

/// An event whose `data` is free-form JSON.
private struct DeepBody: Event {
    static let channel: Channel = "deepBody"
    let data: JSONValue
}

/// Whether `tree` (a Foundation tree) nests `depth` arrays and one-member objects.
private func isNested(_ tree: Any, depth: Int) -> Bool {
    var node = tree
    for _ in 0..<depth {
        if let array = node as? [Any], array.count == 1 {
            node = array[0]
        } else if let object = node as? [String: Any], object.count == 1, let member = object["a"] {
            node = member
        } else {
            return false
        }
    }
    return !(node is [Any]) && !(node is [String: Any])
}

/// Releases a value of one-element arrays and one-member objects one level at a time.
private func dismantleNested(_ value: inout JSONValue) {
    var node = value
    value = .null
    while true {
        switch node {
        case .array(let elements) where elements.count == 1: node = elements[0]
        case .object(let members) where members.count == 1: node = members.values[members.startIndex]
        default: return
        }
    }
}

/// Releases a Foundation tree of one-element arrays and one-member objects one level at a time.
private func dismantleNested(_ tree: inout Any) {
    var node = tree
    tree = 0
    while true {
        if let array = node as? [Any], array.count == 1 {
            node = array[0]
        } else if let object = node as? [String: Any], object.count == 1 {
            node = object.values[object.startIndex]
        } else {
            return
        }
    }
}
