import Foundation
import SwitchboardTestSupport
import Testing

@testable import SwitchboardJSON

/// A key that is not from an enum: any text, escaped or not.

/// Members of every concrete type, through `encode`, `encodeIfPresent` and an unkeyed container.
private struct EveryScalar: Encodable {
    var flag: Bool? = true
    var text: String? = "t\u{1}"
    var double: Double? = 0.1
    var float: Float? = 0.1
    var int: Int? = -1
    var int8: Int8? = .min
    var int16: Int16? = .min
    var int32: Int32? = .min
    var int64: Int64? = .min
    var uint: UInt? = .max
    var uint8: UInt8? = .max
    var uint16: UInt16? = .max
    var uint32: UInt32? = .max
    var uint64: UInt64? = .max

    func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: AnyKey.self)
        try keyed.encodeIfPresent(flag, forKey: AnyKey("flag"))
        try keyed.encodeIfPresent(text, forKey: AnyKey("text"))
        try keyed.encodeIfPresent(double, forKey: AnyKey("double"))
        try keyed.encodeIfPresent(float, forKey: AnyKey("float"))
        try keyed.encodeIfPresent(int, forKey: AnyKey("int"))
        try keyed.encodeIfPresent(int8, forKey: AnyKey("int8"))
        try keyed.encodeIfPresent(int16, forKey: AnyKey("int16"))
        try keyed.encodeIfPresent(int32, forKey: AnyKey("int32"))
        try keyed.encodeIfPresent(int64, forKey: AnyKey("int64"))
        try keyed.encodeIfPresent(uint, forKey: AnyKey("uint"))
        try keyed.encodeIfPresent(uint8, forKey: AnyKey("uint8"))
        try keyed.encodeIfPresent(uint16, forKey: AnyKey("uint16"))
        try keyed.encodeIfPresent(uint32, forKey: AnyKey("uint32"))
        try keyed.encodeIfPresent(uint64, forKey: AnyKey("uint64"))
        try keyed.encode(Elements(source: self), forKey: AnyKey("elements"))
    }

    /// The present members again, as the elements of an array.
    struct Elements: Encodable {
        let source: EveryScalar
        func encode(to encoder: any Encoder) throws {
            var unkeyed = encoder.unkeyedContainer()
            if let value = source.flag { try unkeyed.encode(value) }
            if let value = source.text { try unkeyed.encode(value) }
            if let value = source.double { try unkeyed.encode(value) }
            if let value = source.float { try unkeyed.encode(value) }
            if let value = source.int { try unkeyed.encode(value) }
            if let value = source.int8 { try unkeyed.encode(value) }
            if let value = source.int16 { try unkeyed.encode(value) }
            if let value = source.int32 { try unkeyed.encode(value) }
            if let value = source.int64 { try unkeyed.encode(value) }
            if let value = source.uint { try unkeyed.encode(value) }
            if let value = source.uint8 { try unkeyed.encode(value) }
            if let value = source.uint16 { try unkeyed.encode(value) }
            if let value = source.uint32 { try unkeyed.encode(value) }
            if let value = source.uint64 { try unkeyed.encode(value) }
            try unkeyed.encodeNil()
        }
    }
}

/// Writes `keys[i]: values[i]` through a container keyed by ``AnyKey``.
private struct Members: Encodable {
    let pairs: [(String, String)]
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        for (key, value) in pairs { try container.encode(value, forKey: AnyKey(key)) }
    }
}

/// Keeps its keyed container past `encode(to:)`.
private final class ContainerKeeper: Encodable, @unchecked Sendable {
    var kept: KeyedEncodingContainer<AnyKey>?
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        try container.encode(1, forKey: AnyKey("a"))
        kept = container
    }
}

/// The fast paths (strings scanned and copied a word at a time, keys and values of every
/// concrete type written by methods of their own, one sink reused by a writer) write what the
/// slow paths write: a byte-by-byte escaper, and the tree encoder.
@Suite struct StreamFastPathTests {
    /// JSON string text for `text`, a byte at a time (the rules ``JSONWriter`` documents).
    private func reference(_ text: String, separators: Bool = true) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}" where separators: out += "\\u2028"
            case "\u{2029}" where separators: out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private func written(_ text: String, separators: Bool = true) -> String {
        var writer = JSONWriter(capacity: 1, escapesLineSeparators: separators)
        writer.write(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func stringsOfEveryLengthWithASpecialByteAtEveryPlaceMatchTheByteByByteEscaper() {
        let specials = ["\"", "\\", "\n", "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}", "€", "—", "é", "🙂"]
        for length in 0..<34 {
            let plain = String(repeating: "a", count: length)
            #expect(written(plain) == reference(plain))
            for special in specials {
                for place in 0...length {
                    var text = plain
                    text.insert(contentsOf: special, at: text.index(text.startIndex, offsetBy: place))
                    #expect(written(text) == reference(text), "\(length) \(place) \(special.unicodeScalars.first!)")
                    #expect(written(text, separators: false) == reference(text, separators: false))
                }
            }
        }
    }

    @Test func veryLongStringsAndKeysAreWrittenWhole() throws {
        let long = String(repeating: "0123456789abcdef€\u{2028}\"", count: 10_000)
        #expect(written(long) == reference(long))
        let bytes = try BodyEncoder().encodeJSON(Members(pairs: [(long, long), ("k", String(long.dropFirst(3)))]))
        let expected =
            "{" + reference(long) + ":" + reference(long) + "," + #""k":"# + reference(String(long.dropFirst(3)))
        #expect(String(decoding: bytes, as: UTF8.self) == expected + "}")
    }

    @Test func keysThatNeedEscapingAndKeysNotFromAnEnumMatchTheTree() throws {
        let keys = ["plain", "with \"quote\"", "back\\slash", "new\nline", "\u{2028}", "é€🙂", "", "tab\there", "x"]
        let members = Members(pairs: keys.map { ($0, $0) })
        #expect(try String(decoding: BodyEncoder().encodeJSON(members), as: UTF8.self) == treeText(members))
        let repeated = Members(pairs: [("a\"", "1"), ("b", "2"), ("a\"", "3")])
        #expect(try String(decoding: BodyEncoder().encodeJSON(repeated), as: UTF8.self) == #"{"a\"":"3","b":"2"}"#)
    }

    @Test func everyConcreteTypeInKeyedAndUnkeyedContainersMatchesTheTreeAndJSONEncoder() throws {
        let full = EveryScalar()
        let streamed = try String(decoding: BodyEncoder().encodeJSON(full), as: UTF8.self)
        #expect(try streamed == treeText(full))
        let foundation = try JSONSerialization.jsonObject(with: JSONEncoder().encode(full)) as? NSDictionary
        let ours = try JSONSerialization.jsonObject(with: Data(streamed.utf8)) as? NSDictionary
        #expect(foundation == ours)
        let empty = EveryScalar(
            flag: nil, text: nil, double: nil, float: nil, int: nil, int8: nil, int16: nil, int32: nil, int64: nil,
            uint: nil, uint8: nil, uint16: nil, uint32: nil, uint64: nil)
        #expect(try String(decoding: BodyEncoder().encodeJSON(empty), as: UTF8.self) == #"{"elements":[null]}"#)
        var bad = EveryScalar()
        bad.float = .infinity
        let error = #expect(throws: BodyEncodingError.self) { try BodyEncoder().encodeJSON(bad) }
        #expect(error?.message == "reply.float: cannot encode non-finite number inf")
    }

    @Test func arraysOfEveryKindOfElementMatchTheTreeAndJSONEncoder() throws {
        struct Item: Encodable {
            var name: String
            var tags: [String]
            var children: [Item] = []
            var scores: [Double?] = [1.5, nil]
        }
        let item = Item(name: "a", tags: ["x"], children: [Item(name: "b", tags: [], children: [])])
        let values: [any Encodable] = [
            [Item](), [item, item], [[item], []], [[1, 2], [3]], [Int?.none, 4], [["k": 1]], [JSONValue.null, true],
            [EveryScalar()], [String](), [[String]](), ["\u{2028}", "\""],
        ]
        for value in values {
            let streamed = try String(decoding: BodyEncoder().encodeJSON(value), as: UTF8.self)
            #expect(try streamed == treeText(value))
            let foundation = try JSONSerialization.jsonObject(
                with: JSONEncoder().encode(value), options: .fragmentsAllowed)
            let ours = try JSONSerialization.jsonObject(with: Data(streamed.utf8), options: .fragmentsAllowed)
            #expect((foundation as? NSArray) == (ours as? NSArray))
        }
        var bad = EveryScalar()
        bad.double = .nan
        let error = #expect(throws: BodyEncodingError.self) { try BodyEncoder().encodeJSON([[EveryScalar()], [bad]]) }
        #expect(error?.message == "reply[1][0].double: cannot encode non-finite number nan")
    }

    @Test func moreKeyTypesThanTheSinkKeepsAndOneKeyTypeNestedInItselfMatchTheTree() throws {
        struct Wrapper<Value: Encodable>: Encodable {
            var value: Value
            var tag = "t"
        }
        func wrap<Value: Encodable>(_ value: Value) -> Wrapper<Value> { Wrapper(value: value) }
        // Each `Wrapper<…>` has key type of its own: 20 nested, more than `EncodingStreamShapes.limit`.
        let deep = wrap(
            wrap(
                wrap(
                    wrap(
                        wrap(
                            wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(wrap(1))))))))))))))))
                    ))))
        var writer = JSONWriter()
        for _ in 0..<3 {
            try BodyEncoder().encodeJSON(deep, into: &writer)
            writer.writeNewline()
            try BodyEncoder().encodeJSON([wrap(["a"]), wrap(["b"])], into: &writer)
            writer.writeNewline()
        }
        let once = try treeText(deep) + "\n" + treeText([wrap(["a"]), wrap(["b"])]) + "\n"
        #expect(String(decoding: writer.bytes, as: UTF8.self) == once + once + once)
    }

    @Test func objectsOfOneKeyTypeAtChangingDepthsAndInLongArraysMatchTheTree() throws {
        // One key type at levels 0, 2, 4, … and back, elements of arrays of every length, and
        // siblings whose own members are objects of another key type: containers the sink hands
        // out again, and ones it must make anew when the depth changes.
        struct Node: Encodable {
            var name: String
            var children: [Node]
            var leaf: Members?
        }
        func tree(_ depth: Int, _ width: Int) -> Node {
            let leaf = depth % 2 == 0 ? Members(pairs: [("d", "\(depth)")]) : nil
            guard depth > 0 else { return Node(name: "leaf", children: [], leaf: leaf) }
            return Node(name: "n\(depth)", children: (0..<width).map { tree(depth - 1 - $0 % 2, width) }, leaf: leaf)
        }
        // One sink for every value, as a writer keeps it: each streamed whole, never handed to the tree
        // (which would write the same bytes, so the bytes alone could not tell).
        let sink = EncodingStreamSink()
        for (depth, width) in [(0, 0), (1, 3), (4, 2), (3, 4), (6, 1)] {
            let value = [tree(depth, width), Node(name: "after", children: [], leaf: nil)]
            sink.restart()
            sink.writer.reset()
            try sink.write(value)
            #expect(!sink.failed, "depth \(depth), width \(width)")
            sink.finish()
            #expect(try String(decoding: sink.writer.bytes, as: UTF8.self) == treeText(value))
        }
    }

    @Test func anEncoderKeptPastItsEncodeMakesContainersThatHoldNothingOnceItIsDropped() throws {
        final class EncoderKeeper: Encodable, @unchecked Sendable {
            var kept: (any Encoder)?
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: AnyKey.self)
                try container.encode(1, forKey: AnyKey("a"))
                kept = encoder
            }
        }
        let keeper = EncoderKeeper()
        let bytes = try BodyEncoder().encodeJSON([keeper, keeper])
        #expect(String(decoding: bytes, as: UTF8.self) == #"[{"a":1},{"a":1}]"#)
        weak let sink = (keeper.kept as? EncodingStream)?.sink
        #expect(sink != nil)
        for _ in 0..<2 {
            var late = try #require(keeper.kept).container(keyedBy: AnyKey.self)
            try? late.encode(2, forKey: AnyKey("late"))
        }
        keeper.kept = nil
        #expect(sink == nil, "the sink went with the last encoder that held it")
    }

    /// An element that keeps its encoder without using it (the stream writes `{}` for it), and a
    /// later element that writes through that kept encoder: the bytes are the tree's, valid JSON.
    @Test func anEncoderKeptUnusedAndUsedWhileASiblingIsWrittenGivesTheTreesJSON() throws {
        final class Shared: @unchecked Sendable { var kept: (any Encoder)? }
        struct Keeps: Encodable {
            let shared: Shared
            func encode(to encoder: any Encoder) throws { shared.kept = encoder }
        }
        struct WritesThroughKept: Encodable {
            let shared: Shared
            func encode(to encoder: any Encoder) throws {
                guard let kept = shared.kept else { return }
                var container = kept.container(keyedBy: AnyKey.self)
                try container.encode(1, forKey: AnyKey("k"))
            }
        }
        struct Pair: Encodable {
            let shared = Shared()
            func encode(to encoder: any Encoder) throws {
                var array = encoder.unkeyedContainer()
                try array.encode(Keeps(shared: shared))
                try array.encode(WritesThroughKept(shared: shared))
            }
        }
        let bytes = try BodyEncoder().encodeJSON(Pair())
        let tree = try BodyEncoder().encodeFoundationObject(Pair())
        #expect(throws: Never.self) { try JSONReader().read(bytes) }
        #expect(try JSONReader().read(bytes) == JSONValue(foundation: tree))
    }

    @Test func aReusedSinkAndAContainerKeptFromAnEarlyEncodeChangeNothingLater() throws {
        var writer = JSONWriter(capacity: 8)
        let keeper = ContainerKeeper()
        try BodyEncoder().encodeJSON(keeper, into: &writer)
        writer.writeNewline()
        for round in 0..<3 {
            try BodyEncoder().encodeJSON(Members(pairs: [("r", "\(round)"), ("s", "€")]), into: &writer)
            writer.writeNewline()
            var kept = try #require(keeper.kept)
            try? kept.encode(2, forKey: AnyKey("late"))
        }
        let copy = writer
        try BodyEncoder().encodeJSON(["x"], into: &writer)
        let lines = [#"{"a":1}"#, #"{"r":"0","s":"€"}"#, #"{"r":"1","s":"€"}"#, #"{"r":"2","s":"€"}"#]
        #expect(String(decoding: writer.bytes, as: UTF8.self) == lines.joined(separator: "\n") + "\n[\"x\"]")
        #expect(String(decoding: copy.bytes, as: UTF8.self) == lines.joined(separator: "\n") + "\n")
    }
}

/// Objects of a ``JSONValue`` are written in ascending key order, whatever their size.
@Suite struct JSONValueOrderTests {
    @Test func membersComeInAscendingKeyOrderForSmallAndLargeObjects() {
        for count in [0, 1, 2, 5, 16, 17, 40] {
            var members: [String: JSONValue] = [:]
            for index in 0..<count {
                let key = ["é\(index)", "Z\(index)", "a\(index)", "\(index)", "\u{2028}\(index)"][index % 5]
                members[key] = JSONValue(integerLiteral: index)
            }
            var writer = JSONWriter()
            writer.write(JSONValue.object(members))
            var expected = JSONWriter()
            expected.beginObject()
            for key in members.keys.sorted() {
                expected.key(key)
                expected.write(members[key] ?? .null)
            }
            expected.endObject()
            #expect(writer.bytes == expected.bytes, "\(count) members")
        }
    }
}
