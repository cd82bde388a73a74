import Foundation
import Testing

@testable import SwitchboardJSON

/// The decoder's depth limit (``DecodingOptions/maxDepth``) on Foundation trees and `JSONValue`s:
/// exact, and reached without recursing through a tree far deeper than it.
@Suite struct BodyDecoderDepthTests {
    @Test func aHundredThousandDeepTreeStopsAtTheDepthLimit() throws {
        var tree = deeplyNestedArray(depth: 100_000)
        defer { dismantle(&tree) }
        for error in [decodingError(JSONValue.self, from: tree), decodingError(Nest.self, from: tree)] {
            let error = try #require(error)
            guard case .dataCorrupted(let context) = error.decodingError else {
                Issue.record("expected dataCorrupted, got \(error)")
                continue
            }
            #expect(context.codingPath.count == 512)
            #expect(error.message == "The value is nested more than 512 levels deep (DecodingOptions.maxDepth).")
            #expect(error.path.hasPrefix("body[0][0][0]"))
        }
        #expect(throws: BodyDecodingError.self) { try JSONValue(foundation: tree) }
    }

    @Test func aHundredThousandDeepJSONValueStopsAtTheDepthLimit() throws {
        var tree = deeplyNestedJSON(depth: 100_000)
        defer { dismantle(&tree) }
        let error = try #require(decodingError(Nest.self, fromJSON: tree))
        guard case .dataCorrupted(let context) = error.decodingError else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.count == 512)
    }

    @Test func theDepthLimitIsExact() throws {
        let options = DecodingOptions(maxDepth: 3)
        let three = deeplyNestedArray(depth: 3)
        let four = deeplyNestedArray(depth: 4)
        #expect(try BodyDecoder(options: options).decode(Nest.self, from: three).depth == 3)
        #expect(try BodyDecoder(options: options).decode(JSONValue.self, from: three) == [[[0]]])
        #expect(decodingError(Nest.self, from: four, options: options)?.path == "body[0][0][0]")
        #expect(decodingError(JSONValue.self, from: four, options: options)?.path == "body[0][0][0]")
        let objects: [String: Any] = ["a": ["b": ["c": ["d": 1]]]]
        #expect(decodingError([String: JSONValue].self, from: objects, options: options)?.path == "body.a.b.c")
        #expect(
            try BodyDecoder(options: DecodingOptions(maxDepth: 4)).decode(JSONValue.self, from: objects)["a"]?["b"]?[
                "c"]?["d"] == 1)
    }
}
