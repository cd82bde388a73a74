import Foundation
import SwitchboardTestSupport
import Testing

@testable import SwitchboardJSON

/// A key made from any string.

/// Where a value keeps a container past its use.
private final class Shelf: @unchecked Sendable {
    var keyed: KeyedEncodingContainer<AnyKey>?
    var unkeyed: (any UnkeyedEncodingContainer)?
}

/// A child that writes through its parent's keyed container before it opens its own: the
/// parent has just written the child's key, so a member there would sit between key and value.
private struct ParentBeforeChild: Encodable {
    struct Child: Encodable {
        let shelf: Shelf
        func encode(to encoder: any Encoder) throws {
            var parent = try #require(shelf.keyed)
            try parent.encode(2, forKey: AnyKey("b"))
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode(1, forKey: AnyKey("x"))
        }
    }
    let shelf = Shelf()
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        shelf.keyed = container
        try container.encode(Child(shelf: shelf), forKey: AnyKey("a"))
    }
}

/// The same through a single-value wrapper, and with the parent an array.
private struct ParentBeforeWrappedChild: Encodable {
    struct Wrapper: Encodable {
        let shelf: Shelf
        func encode(to encoder: any Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(ParentBeforeChild.Child(shelf: shelf))
        }
    }
    struct ArrayChild: Encodable {
        let shelf: Shelf
        func encode(to encoder: any Encoder) throws {
            var parent = try #require(shelf.unkeyed)
            try parent.encode("early")
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode(1, forKey: AnyKey("x"))
        }
    }
    let shelf = Shelf()
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        shelf.keyed = container
        try container.encode(Wrapper(shelf: shelf), forKey: AnyKey("a"))
        var array = container.nestedUnkeyedContainer(forKey: AnyKey("list"))
        shelf.unkeyed = array
        try array.encode(ArrayChild(shelf: shelf))
    }
}

/// An array of two values: the first keeps its container, the second opens a container of the
/// other kind (or of the same kind) and writes through the kept one.
private struct KeptAcrossSiblings: Encodable {
    enum Kind { case keyedIntoArray, unkeyedIntoObject, keyedIntoObject, unkeyedIntoArray }
    struct Element: Encodable {
        let first: Bool
        let kind: Kind
        let shelf: Shelf
        func encode(to encoder: any Encoder) throws {
            let keptIsKeyed = kind == .keyedIntoArray || kind == .keyedIntoObject
            let opensKeyed = first ? keptIsKeyed : (kind == .unkeyedIntoObject || kind == .keyedIntoObject)
            if opensKeyed {
                var container = encoder.container(keyedBy: AnyKey.self)
                try container.encode(first ? 0 : 1, forKey: AnyKey("own"))
                if first { shelf.keyed = container }
            } else {
                var array = encoder.unkeyedContainer()
                try array.encode(first ? 0 : 1)
                if first { shelf.unkeyed = array }
            }
            guard !first else { return }
            if keptIsKeyed {
                var kept = try #require(shelf.keyed)
                try kept.encode(5, forKey: AnyKey("late"))
            } else {
                var kept = try #require(shelf.unkeyed)
                try kept.encode(5)
            }
        }
    }
    let kind: Kind
    let shelf = Shelf()
    func encode(to encoder: any Encoder) throws {
        var array = encoder.unkeyedContainer()
        try array.encode(Element(first: true, kind: kind, shelf: shelf))
        try array.encode(Element(first: false, kind: kind, shelf: shelf))
    }
}

/// `remaining` values, each inside the one before (made as they are encoded, so no deep value is kept).
private struct Deep: Encodable {
    enum Shape { case keyed, unkeyed, single, optional, array }
    let remaining: Int
    let shape: Shape
    func encode(to encoder: any Encoder) throws {
        let next = remaining > 1 ? Deep(remaining: remaining - 1, shape: shape) : nil
        switch shape {
        case .keyed:
            var container = encoder.container(keyedBy: AnyKey.self)
            if let next {
                try container.encode(next, forKey: AnyKey("next"))
            } else {
                try container.encode(0, forKey: AnyKey("end"))
            }
        case .unkeyed:
            var array = encoder.unkeyedContainer()
            if let next { try array.encode(next) }
        case .single:
            var single = encoder.singleValueContainer()
            if let next { try single.encode(next) } else { try single.encode(0) }
        case .optional:
            var single = encoder.singleValueContainer()
            try single.encode(next)
        case .array:
            var single = encoder.singleValueContainer()
            try single.encode(next.map { [$0] } ?? [])
        }
    }
}

/// Hostile `Encodable` values through `BodyEncoder`: whatever they do with their encoders and
/// containers, the bytes are valid JSON that says what the tree encoder says, or a clear error;
/// nothing crashes.
@Suite struct HostileEncodableTests {
    /// The streamed bytes, checked to be valid JSON.
    private func streamed<T: Encodable>(_ value: T) throws -> String {
        let bytes = try BodyEncoder().encodeJSON(value)
        #expect(throws: Never.self, "valid JSON: \(String(decoding: bytes, as: UTF8.self))") {
            try JSONReader().read(bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aParentWrittenBeforeItsChildOpensAContainerGivesTheTreesJSON() throws {
        #expect(try streamed(ParentBeforeChild()) == treeText(ParentBeforeChild()))
        #expect(try streamed(ParentBeforeChild()) == #"{"b":2,"a":{"x":1}}"#)
        #expect(try streamed(ParentBeforeWrappedChild()) == treeText(ParentBeforeWrappedChild()))
        #expect(try streamed(ParentBeforeWrappedChild()) == #"{"b":2,"a":{"x":1},"list":["early",{"x":1}]}"#)
    }

    @Test(arguments: [KeptAcrossSiblings.Kind.keyedIntoArray, .unkeyedIntoObject])
    fileprivate func aContainerKeptAndWrittenWhereTheOtherKindIsOpenGivesTheTreesJSON(kind: KeptAcrossSiblings.Kind)
        throws
    {
        #expect(try streamed(KeptAcrossSiblings(kind: kind)) == treeText(KeptAcrossSiblings(kind: kind)))
    }

    /// The documented exception (`EncodingStreamSink.swift`): valid JSON, the late member in the sibling.
    @Test func aContainerKeptAndWrittenWhileASiblingOfItsKindIsOpenWritesValidJSONIntoTheSibling() throws {
        #expect(try streamed(KeptAcrossSiblings(kind: .keyedIntoObject)) == #"[{"own":0},{"own":1,"late":5}]"#)
        #expect(try treeText(KeptAcrossSiblings(kind: .keyedIntoObject)) == #"[{"own":0,"late":5},{"own":1}]"#)
        _ = try streamed(KeptAcrossSiblings(kind: .unkeyedIntoArray))
    }

    @Test(arguments: [Deep.Shape.keyed, .unkeyed, .single, .optional, .array])
    fileprivate func valuesNestedUpToTheLimitEncodeAndDeeperOnesAreAnErrorWithThePath(shape: Deep.Shape) throws {
        let limit = DecodingOptions.defaultMaxDepth
        // `.array` nests two values a level (the element and its array), `.optional` too.
        let perLevel = shape == .array || shape == .optional ? 2 : 1
        let deepest = Deep(remaining: limit / perLevel, shape: shape)
        let bytes = try BodyEncoder().encodeJSON(deepest)
        #expect(
            try JSONReader(maxDepth: 4096).read(bytes)
                == JSONValue(foundation: BodyEncoder().encodeFoundationObject(deepest)))
        for depth in [limit / perLevel + 1, 100_000] {
            let deep = Deep(remaining: depth, shape: shape)
            for encode in [
                { _ = try BodyEncoder().encodeJSON(deep) },
                { _ = try BodyEncoder().encodeFoundationObject(deep) },
                { _ = try BodyEncoder().encodeJSONValue(deep) },
            ] as [() throws -> Void] {
                let error = #expect(throws: BodyEncodingError.self) { try encode() }
                #expect(error?.reason == "cannot encode a value nested more than \(limit) levels deep")
                if shape == .keyed {
                    #expect(error?.path == "reply" + String(repeating: ".next", count: limit))
                }
            }
        }
    }

    @Test func anArrayOfStringsAndAFloatCountAsTheTreeCountsThem() throws {
        struct Leaf<T: Encodable>: Encodable {
            let depth: Int
            let leaf: T
            func encode(to encoder: any Encoder) throws {
                var single = encoder.singleValueContainer()
                if depth > 1 { try single.encode(Leaf(depth: depth - 1, leaf: leaf)) } else { try single.encode(leaf) }
            }
        }
        let limit = DecodingOptions.defaultMaxDepth
        #expect(try streamed(Leaf(depth: limit - 1, leaf: ["a"])) == #"["a"]"#)
        #expect(throws: BodyEncodingError.self) { try BodyEncoder().encodeJSON(Leaf(depth: limit, leaf: ["a"])) }
        #expect(try streamed(Leaf(depth: limit, leaf: Float(0.5))) == "0.5")
        #expect(try treeText(Leaf(depth: limit, leaf: Float(0.5))) == "0.5")
    }
}

/// Objects with many members: repeats are found through the sink's key index, whatever objects
/// came and went before at the same positions, and the bytes are the tree's.
@Suite struct LargeObjectKeyTests {
    /// Members named by `keys`, in order, then a nested object of the members of `nested`.
    private struct Members: Encodable {
        let keys: [String]
        var nested: [Members] = []
        /// Members written after the nested objects.
        var after: [String] = []
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            for (index, key) in keys.enumerated() { try container.encode(index, forKey: AnyKey(key)) }
            for (index, inner) in nested.enumerated() { try container.encode(inner, forKey: AnyKey("nested\(index)")) }
            for key in after { try container.encode(true, forKey: AnyKey(key)) }
        }
    }

    @Test func repeatsInLargeObjectsAreFoundAndNothingElseIs() throws {
        let many = (0..<300).map { "key\($0)" }
        var cases: [Members] = [
            Members(keys: many),
            Members(keys: many + ["key0"]),
            Members(keys: many + ["key299"]),
            Members(keys: Array(many.prefix(31)) + ["key5"]),
            Members(keys: Array(many.prefix(32)) + ["key5"]),
            Members(keys: Array(many.prefix(33)) + ["key32"]),
            // Keys alike in length and ends, and escaped keys.
            Members(keys: many.map { $0 + "\"" } + (0..<300).map { "kex\($0)\"" }),
        ]
        // A large nested object closed, then its outer object given the same keys at the same positions.
        let inner = Members(keys: (0..<100).map { "inner\($0)" })
        cases.append(Members(keys: [], nested: [inner, Members(keys: (0..<100).map { "inner\($0)" } + ["inner7"])]))
        cases.append(Members(keys: Array(many.prefix(40)), nested: [inner, inner]))
        let late = Members(keys: (0..<50).map { "inner\($0)" })
        cases.append(Members(keys: Array(many.prefix(40)), nested: [late, Members(keys: ["key1"], nested: [inner])]))
        // Large objects inside a large object, then the outer one's keys again (its index outlives theirs).
        let outer = Array(many.prefix(50))
        cases.append(Members(keys: outer, nested: [inner, inner], after: ["key49"]))
        cases.append(Members(keys: outer, nested: [inner, inner], after: ["inner3", "key50", "key7"]))
        cases.append(
            Members(keys: outer, nested: [Members(keys: outer, nested: [inner], after: ["key3"])], after: ["k"]))
        for value in cases {
            #expect(try BodyEncoder().encodeJSON(value) == treeBytes(value), "\(value.keys.count) keys")
        }
        // In an array, each element's keys are its own.
        let elements = [Members(keys: many), Members(keys: many), Members(keys: many + ["key1"])]
        #expect(try BodyEncoder().encodeJSON(elements) == treeBytes(elements))
        // Without a repeat, the stream never gives up (a key taken for a repeat would make it).
        let sink = EncodingStreamSink()
        let unique = [
            Members(keys: many), Members(keys: many.map { $0 + "\"" } + (0..<300).map { "kex\($0)\"" }),
            Members(keys: outer, nested: [inner, inner], after: ["inner3", "key50"]),
            Members(keys: outer, nested: [Members(keys: outer, nested: [inner], after: ["key50"])], after: ["k"]),
        ]
        for value in [unique, unique + unique] {
            sink.restart()
            sink.writer.reset()
            try sink.write(value)
            #expect(!sink.failed)
            sink.finish()
            #expect(sink.writer.bytes == (try treeBytes(value)))
        }
    }

    @Test func aDictionaryOfAHundredThousandEntriesEncodesAsTheTreeDoes() throws {
        var dictionary: [String: Int] = [:]
        for index in 0..<100_000 { dictionary["entry\(index)"] = index }
        #expect(try BodyEncoder().encodeJSON(dictionary) == treeBytes(dictionary))
    }
}

/// A value that nests containers or super encoders in a loop, `count` deep, without recursion.
private struct NestingLoop: Encodable {
    enum Way: CaseIterable { case keyed, unkeyed, keyedInUnkeyed, superEncoder, unkeyedSuperEncoder }
    let way: Way
    let count: Int
    func encode(to encoder: any Encoder) throws {
        switch way {
        case .keyed:
            var container = encoder.container(keyedBy: AnyKey.self)
            for _ in 0..<count { container = container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("n")) }
            try container.encode(true, forKey: AnyKey("end"))
        case .unkeyed:
            var array = encoder.unkeyedContainer()
            for _ in 0..<count { array = array.nestedUnkeyedContainer() }
            try array.encode(true)
        case .keyedInUnkeyed:
            var array = encoder.unkeyedContainer()
            for _ in 0..<count {
                var object = array.nestedContainer(keyedBy: AnyKey.self)
                array = object.nestedUnkeyedContainer(forKey: AnyKey("a"))
            }
        case .superEncoder:
            var inner: any Encoder = encoder
            for _ in 0..<count {
                var container = inner.container(keyedBy: AnyKey.self)
                inner = container.superEncoder()
            }
        case .unkeyedSuperEncoder:
            var inner: any Encoder = encoder
            for _ in 0..<count {
                var array = inner.unkeyedContainer()
                inner = array.superEncoder()
            }
        }
    }
}

/// Containers nested in a loop (no recursion into `encode(to:)`) stop at the same depth.
@Suite struct NestedContainerDepthTests {
    @Test(arguments: NestingLoop.Way.allCases)
    fileprivate func containersNestedInALoopPastTheLimitAreAnErrorNotADeepTree(way: NestingLoop.Way) throws {
        let limit = DecodingOptions.defaultMaxDepth
        // `.keyedInUnkeyed` nests two containers a turn.
        let turns = way == .keyedInUnkeyed ? limit / 2 : limit
        let fits = NestingLoop(way: way, count: turns)
        let bytes = try BodyEncoder().encodeJSON(fits)
        let tree = try BodyEncoder().encodeFoundationObject(fits)
        #expect(try JSONReader(maxDepth: 4096).read(bytes) == JSONValue(foundation: tree, maxDepth: 4096))
        for count in [turns + 1, 100_000] {
            let deep = NestingLoop(way: way, count: count)
            for encode in [
                { _ = try BodyEncoder().encodeJSON(deep) },
                { _ = try BodyEncoder().encodeFoundationObject(deep) },
                { _ = try BodyEncoder().encodeJSONValue(deep) },
            ] as [() throws -> Void] {
                let error = #expect(throws: BodyEncodingError.self) { try encode() }
                #expect(error?.reason == "cannot encode a value nested more than \(limit) levels deep")
                if way == .keyed { #expect(error?.path == "reply" + String(repeating: ".n", count: limit + 1)) }
            }
        }
    }
}

/// Encoders and containers a value keeps, used on another thread once their encode is over while
/// the first thread goes on encoding into the same writer: they write nowhere, and share nothing
/// with the encodes that follow (the writer keeps no sink something else holds).
@Suite struct KeptEncoderThreadTests {
    private final class Keeper: Encodable, @unchecked Sendable {
        var encoder: (any Encoder)?
        var keyed: KeyedEncodingContainer<AnyKey>?
        var unkeyed: (any UnkeyedEncodingContainer)?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyKey.self)
            try container.encode(1, forKey: AnyKey("a"))
            var list = container.nestedUnkeyedContainer(forKey: AnyKey("b"))
            try list.encode(2)
            self.encoder = encoder
            keyed = container
            unkeyed = list
        }
    }

    private struct Plain: Encodable {
        let round: Int
        let items: [String: [Int]]
    }

    @Test func keptEncodersUsedOnAnotherThreadAfterTheEncodeChangeNothing() throws {
        let keeper = Keeper()
        var writer = JSONWriter()
        try BodyEncoder().encodeJSON([keeper], into: &writer)
        let first = writer.bytes
        #expect(String(decoding: first, as: UTF8.self) == #"[{"a":1,"b":[2]}]"#)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for round in 0..<2_000 {
                var keyed = keeper.keyed
                try? keyed?.encode(round, forKey: AnyKey("late\(round)"))
                try? keyed?.encode(Plain(round: round, items: ["x": [round]]), forKey: AnyKey("value"))
                var unkeyed = keeper.unkeyed
                try? unkeyed?.encode("late")
                if let encoder = keeper.encoder {
                    var single = encoder.singleValueContainer()
                    try? single.encode(round)
                    var again = encoder.container(keyedBy: AnyKey.self)
                    try? again.encode(true, forKey: AnyKey("again"))
                }
            }
            done.signal()
        }
        thread.start()
        var expected = first
        for round in 0..<2_000 {
            writer.writeNewline()
            expected.append(0x0A)
            let value = Plain(round: round, items: ["k": [round, round + 1]])
            try BodyEncoder().encodeJSON(value, into: &writer)
            expected += Array(#"{"round":\#(round),"items":{"k":[\#(round),\#(round + 1)]}}"#.utf8)
        }
        done.wait()
        #expect(writer.bytes == expected)
    }
}
