import Foundation
import SwitchboardJSON
import Testing

/// What a `Decodable` kept of its decoder: the decoder itself and each kind of container.
private final class Kept: @unchecked Sendable {
    // `@unchecked`: written by one decode, read by the test after it, on one thread.
    var decoder: (any Decoder)?
    var keyed: KeyedDecodingContainer<KeptBody.CodingKeys>?
    var unkeyed: (any UnkeyedDecodingContainer)?
    var nested: KeyedDecodingContainer<KeptBody.CodingKeys>?
}

/// A body type that keeps its decoder and containers past `init(from:)` (legal
/// Swift, if unusual): a decoder must stay safe to use after the decode returned.
private struct KeptBody: Decodable, Sendable {
    enum CodingKeys: String, CodingKey {
        case name, tags, inner
    }

    let name: String
    nonisolated(unsafe) static var kept = Kept()

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        KeptBody.kept.decoder = decoder
        KeptBody.kept.keyed = container
        KeptBody.kept.unkeyed = try container.nestedUnkeyedContainer(forKey: .tags)
        KeptBody.kept.nested = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .inner)
    }
}

/// A reply type that keeps its encoder and containers past `encode(to:)`.
private struct KeptReply: Encodable {
    nonisolated(unsafe) static var encoder: (any Encoder)?
    nonisolated(unsafe) static var container: KeyedEncodingContainer<KeptBody.CodingKeys>?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: KeptBody.CodingKeys.self)
        try container.encode("kept", forKey: .name)
        KeptReply.encoder = encoder
        KeptReply.container = container
    }
}

@Suite(.serialized) struct KeptDecoderTests {
    static let text = #"{"name":"first","tags":["a","b"],"inner":{"name":"deep","tags":[],"inner":{}}}"#

    /// Reads everything the kept decoder and containers can reach, after the body is gone.
    /// A decoder moves along the tree while it decodes, so one kept from a member of the body
    /// is read (it must be safe) but its value not compared (`decoderAtBody: false`).
    private func readKept(decoderAtBody: Bool = true) throws -> [String] {
        let kept = KeptBody.kept
        KeptBody.kept = Kept()
        // Churn the heap so freed storage is reused before the kept values are read.
        var churn: [[UInt8]] = []
        for size in 1...64 { churn.append([UInt8](repeating: 0xEE, count: size * 24)) }
        _ = churn.count
        var seen: [String] = []
        let decoder = try #require(kept.decoder)
        let whole = try decoder.singleValueContainer().decode(JSONValue.self)
        if decoderAtBody {
            let again = try decoder.container(keyedBy: KeptBody.CodingKeys.self)
            seen.append(try again.decode(String.self, forKey: .name))
            seen.append(whole["name"]?.stringValue ?? "-")
        } else {
            seen += ["first", "first"]
        }
        seen.append(try #require(kept.keyed).decode(String.self, forKey: .name))
        var unkeyed = try #require(kept.unkeyed)
        seen.append(try unkeyed.decode(String.self))
        seen.append(try unkeyed.decode(String.self))
        seen.append(try #require(kept.nested).decode(String.self, forKey: .name))
        return seen
    }

    private var expected: [String] { ["first", "first", "first", "a", "b", "deep"] }

    @Test func aDecoderKeptFromJSONBytesStaysUsableAfterTheBodyIsGone() throws {
        do {
            let body = try MessageBody(jsonBytes: Array(Self.text.utf8))
            _ = try body.decode(KeptBody.self)
        }
        #expect(try readKept() == expected)
    }

    @Test func aDecoderKeptFromAMemberOfJSONBytesStaysUsable() throws {
        do {
            let body = try MessageBody(jsonBytes: Array(#"{"payload":\#(Self.text)}"#.utf8))
            _ = try body.decode(KeptBody.self, at: "payload")
        }
        #expect(try readKept(decoderAtBody: false) == expected)
    }

    @Test func aDecoderKeptFromAFoundationTreeStaysUsable() throws {
        do {
            let tree = try JSONSerialization.jsonObject(with: Data(Self.text.utf8))
            _ = try MessageBody(tree).decode(KeptBody.self)
        }
        #expect(try readKept() == expected)
    }

    @Test func aDecoderKeptFromAJSONValueStaysUsable() throws {
        do {
            let value = try JSONReader().read(Self.text)
            _ = try BodyDecoder().decode(KeptBody.self, from: value)
        }
        #expect(try readKept() == expected)
    }

    @Test func anEncoderKeptPastEncodeIsHarmless() throws {
        let bytes = try BodyEncoder().encodeJSON(KeptReply())
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"name":"kept"}"#)
        var container = try #require(KeptReply.container)
        try container.encode("late", forKey: .tags)
        try container.encode(["later"], forKey: .inner)
        var again = try #require(KeptReply.encoder).container(keyedBy: KeptBody.CodingKeys.self)
        try again.encode(1, forKey: .name)
        var single = try #require(KeptReply.encoder).singleValueContainer()
        try single.encode("x")
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"name":"kept"}"#)
        KeptReply.container = nil
        KeptReply.encoder = nil
    }
}
