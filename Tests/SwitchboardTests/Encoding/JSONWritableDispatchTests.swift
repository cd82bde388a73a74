import Testing

@testable import Switchboard

/// Encodes as `{"via":"encoder"}`; its subclass writes itself as `{"via":"writer"}`.
private class Shape: Encodable, @unchecked Sendable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode("encoder", forKey: .via)
    }
    enum Key: String, CodingKey { case via }
}

private final class WritingShape: Shape, JSONWritable, @unchecked Sendable {
    func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("via")
        writer.write("writer")
        writer.endObject()
    }
}

private struct WritingPoint: JSONWritable, Sendable {
    var x: Int
    var label: String
    func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("x")
        writer.write(x)
        writer.key("label")
        writer.write(label + "!")
        writer.endObject()
    }
}

@Suite struct JSONWritableDispatchTests {
    private func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try BodyEncoder().encodeJSON(value), as: UTF8.self)
    }

    @Test func aValueWhoseTypeIsJSONWritableWritesItself() throws {
        #expect(try json(WritingPoint(x: 3, label: "a long label that does not fit inline")) == #"{"x":3,"label":"a long label that does not fit inline!"}"#)
    }

    @Test func anInstanceOfAWritingSubclassWritesItselfThroughItsBaseType() throws {
        let shape: Shape = WritingShape()
        #expect(try json(shape) == #"{"via":"writer"}"#)
        #expect(try json(Shape()) == #"{"via":"encoder"}"#)
    }

    @Test func aReplyValueWritesThroughTheConformance() throws {
        let bytes = try ReplyValue(WritingPoint(x: -2, label: "c")).jsonBytes()
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"x":-2,"label":"c!"}"#)
    }
}
