import Foundation
import SwitchboardJSON
import SwitchboardTestSupport
import Testing

private struct Line: Codable, Equatable, Sendable {
    var sku: String
    var quantity: Int
    var tags: [String]
}

/// Encodes another value with its own encoder in the middle of its `encode(to:)`, on the same
/// thread, and writes the inner bytes as a string member.
private struct EncodesInside: Encodable {
    let inner: Line
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("before", forKey: .first)
        let bytes = try BodyEncoder().encodeJSON(inner)
        try container.encode(String(decoding: bytes, as: UTF8.self), forKey: .inner)
        try container.encode(inner.quantity, forKey: .last)
    }
    enum CodingKeys: String, CodingKey { case first, inner, last }
}

/// One object with `count` members: grows the encoder's key stack past what a thread keeps.
private struct Wide: Encodable {
    let count: Int
    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for index in 0..<count { try container.encode(index, forKey: Key(stringValue: "k\(index)")) }
    }
}

/// The encoder keeps one stream sink per thread between encodes (not per writer): the bytes
/// are the same whichever writer, thread or nesting an encode comes from.
@Suite struct StreamSinkReuseTests {
    private static func expected(_ line: Line) -> String {
        let tags = line.tags.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"sku":"\#(line.sku)","quantity":\#(line.quantity),"tags":[\#(tags)]}"#
    }

    @Test func encodesIntoFreshWritersOneAfterAnotherGiveTheirOwnBytes() throws {
        for round in 0..<50 {
            let line = Line(sku: "A\(round)", quantity: round, tags: Array(repeating: "t", count: round % 4))
            var writer = JSONWriter(capacity: 4)
            try BodyEncoder().encodeJSON(line, into: &writer)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == Self.expected(line))
            #expect(String(decoding: try BodyEncoder().encodeJSON(line), as: UTF8.self) == Self.expected(line))
        }
    }

    @Test func anEncodeInsideAValuesEncodeGetsASinkOfItsOwn() throws {
        let line = Line(sku: "B1", quantity: 3, tags: ["x", "y"])
        for _ in 0..<3 {
            let bytes = try BodyEncoder().encodeJSON(EncodesInside(inner: line))
            let value = try JSONReader().read(bytes)
            #expect(value["first"] == "before")
            #expect(value["inner"]?.stringValue == Self.expected(line))
            #expect(value["last"] == 3)
            // The next encode on this thread, after the nested one kept its sink, is whole too.
            #expect(String(decoding: try BodyEncoder().encodeJSON(line), as: UTF8.self) == Self.expected(line))
        }
    }

    @Test func aHugeValueDoesNotSpoilTheNextEncode() throws {
        let wide = try BodyEncoder().encodeJSON(Wide(count: 20_000))
        #expect(try JSONReader().read(wide).objectValue?.count == 20_000)
        let line = Line(sku: "C", quantity: 1, tags: [])
        #expect(String(decoding: try BodyEncoder().encodeJSON(line), as: UTF8.self) == Self.expected(line))
    }

    @Test func threadsEncodingAtOnceEachGetTheirOwnBytes() async throws {
        let failures = Locked<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    await onDispatchThread {
                        for round in 0..<2_000 {
                            let line = Line(sku: "T\(thread)", quantity: round, tags: ["\(thread)", "\(round)"])
                            let text = String(decoding: (try? BodyEncoder().encodeJSON(line)) ?? [], as: UTF8.self)
                            if text != Self.expected(line) { failures.withLock { $0.append(text) } }
                        }
                    }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
    }
}
