import Foundation
import Testing

@testable import SwitchboardJSON

private struct Line: Codable, Equatable {
    var sku: String
    var quantity: Int
    var price: Double?
    var note: String?
    var tags: [String]
    var attributes: [String: String]
    var extra: JSONValue?
    var when: Date?
    var size: UInt8
}

/// Encodes through a nested keyed container (the stream hands it to the tree).
private struct Nested: Encodable {
    func encode(to encoder: any Encoder) throws {
        enum Keys: String, CodingKey { case outer, inner }
        var container = encoder.container(keyedBy: Keys.self)
        var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .outer)
        try inner.encode(1, forKey: .inner)
        try container.encode("after", forKey: .inner)
    }
}

/// Encodes the same key twice (the tree keeps the first place and the last value).
private struct Twice: Encodable {
    func encode(to encoder: any Encoder) throws {
        enum Keys: String, CodingKey { case a, b }
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(1, forKey: .a)
        try container.encode(2, forKey: .b)
        try container.encode(3, forKey: .a)
    }
}

/// Uses a parent container while a child's container is still being written.
private struct Interleaved: Encodable {
    struct Child: Encodable {
        let parent: KeyedEncodingContainer<Keys>
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            var parent = self.parent
            try parent.encode(2, forKey: .b)
        }
    }
    enum Keys: String, CodingKey { case a, b, c }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Child(parent: container), forKey: .c)
    }
}

/// Asks for its coding path, encodes nothing, or fails.
private struct PathReader: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(encoder.codingPath.map(\.stringValue).joined(separator: "."))
    }
}

private struct Silent: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

private struct Holder<T: Encodable>: Encodable {
    let value: T
    let values: [T]
}

/// The stream writes what the tree writes, byte for byte, or hands the value to the tree.
@Suite struct StreamEncoderTests {
    private func streamed<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try BodyEncoder().encodeJSON(value), as: UTF8.self)
    }

    @Test func writesWhatTheTreeWritesForUsualTypes() throws {
        let lines = [
            Line(
                sku: "a\"b\u{2028}", quantity: -3, price: 9.5, note: nil, tags: ["x", "y"], attributes: ["k": "v"],
                extra: ["n": [1, true, nil]], when: Date(timeIntervalSince1970: 1.5), size: 200),
            Line(
                sku: "", quantity: 0, price: nil, note: "é", tags: [], attributes: [:], extra: nil, when: nil, size: 0),
        ]
        for line in lines {
            #expect(try streamed(line) == treeText(line))
            let holder = Holder(value: line, values: [line, line])
            #expect(try streamed(holder) == treeText(holder))
        }
        #expect(try streamed([1, 2, 3]) == "[1,2,3]")
        #expect(try streamed("top") == #""top""#)
        #expect(try streamed(Optional<Int>.none) == "null")
    }

    @Test func handsUnusualEncodingToTheTreeAndGetsTheSameBytes() throws {
        #expect(try streamed(Nested()) == treeText(Nested()))
        #expect(try streamed(Nested()) == #"{"outer":{"inner":1},"inner":"after"}"#)
        #expect(try streamed(Twice()) == #"{"a":3,"b":2}"#)
        #expect(try streamed(Interleaved()) == treeText(Interleaved()))
        #expect(
            try streamed(Holder(value: PathReader(), values: [PathReader()]))
                == #"{"value":"value","values":["values.Index 0"]}"#)
        #expect(try streamed(Holder(value: Silent(), values: [])) == #"{"value":{},"values":[]}"#)
    }

    @Test func errorsComeFromTheTreeWithTheirPath() throws {
        let error = #expect(throws: BodyEncodingError.self) {
            try BodyEncoder().encodeJSON(Holder(value: 1.0, values: [2.0, .nan]))
        }
        #expect(error?.message == "reply.values[1]: cannot encode non-finite number nan")
    }

    @Test func appendsToAWriterWithCommasAndLeavesItUnchangedOnFailure() throws {
        var writer = JSONWriter()
        writer.beginArray()
        try BodyEncoder().encodeJSON(["a": 1], into: &writer)
        try BodyEncoder().encodeJSON(Twice(), into: &writer)
        #expect(throws: BodyEncodingError.self) { try BodyEncoder().encodeJSON(Double.infinity, into: &writer) }
        writer.endArray()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"[{"a":1},{"a":3,"b":2}]"#)
    }
}
