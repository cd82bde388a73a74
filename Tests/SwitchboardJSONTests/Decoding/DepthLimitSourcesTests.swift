import Foundation
import SwitchboardJSON
import Testing

/// A tree of arrays (`[[[…]]]`), decoded through its own `init(from:)`.
private indirect enum ArrayTree: Decodable, Equatable {
    case leaf
    case node([ArrayTree])

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var children: [ArrayTree] = []
        while !container.isAtEnd { children.append(try container.decode(ArrayTree.self)) }
        self = children.isEmpty ? .leaf : .node(children)
    }
}

/// A body with a free-form member, as LoyaltyLion's `attributes`.
private struct Holder: Decodable {
    let data: JSONValue
}

/// One depth limit: the same limit and the same error from every source
/// (a Foundation tree, a ``JSONValue``, JSON bytes), whatever is decoded.
@Suite struct DepthLimitSourcesTests {
    /// `depth` arrays, one inside the other, under the member `data`.
    static func text(depth: Int) -> String {
        #"{"data":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
    }

    /// The body as each source holds it.
    static func bodies(depth: Int) throws -> [(String, MessageBody)] {
        let text = text(depth: depth)
        let bytes = Array(text.utf8)
        let foundation = try JSONSerialization.jsonObject(with: Data(bytes))
        let value = try JSONReader(maxDepth: 4096).read(bytes)
        return [
            ("foundation", MessageBody(foundation)),
            ("json value", MessageBody(json: value)),
            ("bytes", try MessageBody(jsonBytes: bytes, maxDepth: 4096)),
        ]
    }

    /// The error of each source, as `path: message`, or `ok`.
    private func outcomes<T: Decodable>(
        _ type: T.Type, depth: Int, limit: Int, member: Bool = false
    ) throws -> [String: String] {
        var result: [String: String] = [:]
        for (name, body) in try Self.bodies(depth: depth) {
            do {
                if member {
                    _ = try body.decode(T.self, at: "data", options: DecodingOptions(maxDepth: limit))
                } else {
                    _ = try body.decode(T.self, options: DecodingOptions(maxDepth: limit))
                }
                result[name] = "ok"
            } catch {
                result[name] = error.description
            }
        }
        return result
    }

    private static func tooDeep(_ limit: Int, at path: String) -> String {
        "\(path): The value is nested more than \(limit) levels deep (DecodingOptions.maxDepth)."
    }

    /// The path of the array that is one level too deep under `body.data`, with `limit` levels
    /// allowed: `body` is level 1 (the object), `data` the first array at level 2 (also when
    /// only the member `data` is decoded: paths, and levels, count from the body).
    private static func path(limit: Int) -> String {
        "body.data" + String(repeating: "[0]", count: limit - 1)
    }

    @Test(arguments: [8, 40, 100])
    func aFreeFormValueNestedPastTheLimitFailsTheSameFromEverySource(limit: Int) throws {
        let tooDeep = try outcomes(Holder.self, depth: limit, limit: limit)
        let expected = Self.tooDeep(limit, at: Self.path(limit: limit))
        #expect(tooDeep == ["foundation": expected, "json value": expected, "bytes": expected])
        let fits = try outcomes(Holder.self, depth: limit - 1, limit: limit)
        #expect(fits == ["foundation": "ok", "json value": "ok", "bytes": "ok"])
    }

    @Test(arguments: [8, 40])
    func aStructuredValueNestedPastTheLimitFailsTheSameFromEverySource(limit: Int) throws {
        let tooDeep = try outcomes(Holder.self, depth: limit + 5, limit: limit)
        let nest = try outcomes(ArrayTree.self, depth: limit + 5, limit: limit, member: true)
        let expected = Self.tooDeep(limit, at: Self.path(limit: limit))
        #expect(nest == ["foundation": expected, "json value": expected, "bytes": expected])
        #expect(Set(tooDeep.values).count == 1)
        let fits = try outcomes(ArrayTree.self, depth: limit - 1, limit: limit, member: true)
        #expect(fits == ["foundation": "ok", "json value": "ok", "bytes": "ok"])
    }

    @Test func aWholeJSONValueBodyNestedPastTheLimitFailsTheSameFromEverySource() throws {
        let limit = 16
        let tooDeep = try outcomes(JSONValue.self, depth: limit, limit: limit)
        let expected = Self.tooDeep(limit, at: Self.path(limit: limit))
        #expect(tooDeep == ["foundation": expected, "json value": expected, "bytes": expected])
        #expect(try outcomes(JSONValue.self, depth: limit - 1, limit: limit).values.allSatisfy { $0 == "ok" })
    }

    @Test func theDefaultLimitAppliesToAJSONValueBodyAndToBytes() throws {
        // 600 levels: the reader is told to accept them, the decoder (512 by default) is not.
        let text = Self.text(depth: 600)
        let value = try JSONReader(maxDepth: 1000).read(text)
        let fromValue = #expect(throws: BodyDecodingError.self) { try BodyDecoder().decode(Holder.self, from: value) }
        let bytes = try MessageBody(jsonBytes: Array(text.utf8), maxDepth: 1000)
        let fromBytes = #expect(throws: BodyDecodingError.self) { try bytes.decode(Holder.self) }
        let expected = Self.tooDeep(512, at: Self.path(limit: 512))
        #expect(fromValue?.description == expected)
        #expect(fromBytes?.description == expected)
    }
}
