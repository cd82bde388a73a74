import Foundation
import Testing

@testable import SwitchboardJSON

private struct Offer: Decodable, Equatable {
    let offerId: String
    let name: String?
    let imageUrls: [String]
    let price: String?
    let adult: Bool?
    let availability: Int
    let quantity: Int
}

private struct Update: Decodable, Equatable {
    let offer: Offer
}

private struct Line: Decodable, Equatable {
    let merchandiseId: String
    let quantity: Int
    let attributes: [String: String]
}

private struct Order: Decodable, Equatable {
    let lines: [Line]
    let notes: [String?]
    let total: Decimal
    let ratio: Double
    let small: Float?
    let data: JSONValue?
    let tags: Set<String>
}

private struct Wrapper<T: Codable>: Codable {
    let v: T
}

/// One decode, rendered so that outcomes of different sources compare exactly.
private func outcome<T: Decodable>(_ type: T.Type, _ body: () throws(BodyDecodingError) -> T) -> String {
    do {
        let value = try body()
        if let encodable = value as? any Encodable {
            // Sorted keys: dictionaries print in a different order on every run.
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            if let data = try? encoder.encode(encodable) {
                return "value \(String(decoding: data, as: UTF8.self)) \(value is Wrapper<Double> ? "\(value)" : "")"
            }
        }
        return "value \(String(reflecting: value))"
    } catch {
        return "error \(caseName(error.decodingError)) \(error.description)"
    }
}

/// Decodes `json` as `T` from a tape, from a `JSONValue` and from a Foundation tree.
private func threeWays<T: Decodable>(_ type: T.Type, _ json: String, at key: String? = nil) throws -> (
    tape: String, value: String, foundation: String
) {
    let bytes = Array(json.utf8)
    let tapeBody = try MessageBody(jsonBytes: bytes)
    guard case .tape = tapeBody.storage else { throw CancellationError() }
    let valueBody = MessageBody(json: try JSONReader().read(bytes))
    let foundationBody = MessageBody(
        (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) ?? "unparsable by Foundation"
    )
    if let key {
        return (
            outcome(T.self) { () throws(BodyDecodingError) in try tapeBody.decode(T.self, at: key) },
            outcome(T.self) { () throws(BodyDecodingError) in try valueBody.decode(T.self, at: key) },
            outcome(T.self) { () throws(BodyDecodingError) in try foundationBody.decode(T.self, at: key) }
        )
    }
    return (
        outcome(T.self) { () throws(BodyDecodingError) in try tapeBody.decode(T.self) },
        outcome(T.self) { () throws(BodyDecodingError) in try valueBody.decode(T.self) },
        outcome(T.self) { () throws(BodyDecodingError) in try foundationBody.decode(T.self) }
    )
}

private let scalarValues = [
    "true", "false", "0", "-0", "-0.0", "1", "1.0", "2.5", "-1", "1e2", "300", "-129", "40000", "1e30", "1e300",
    "12345678901234567890", "9223372036854775807", "-9223372036854775808", "999999999999999999", "null", "\"1\"",
    "\"x\"", "\"true\"", "\"\\u00e9t\\u00e9\"", "\"caf\u{E9}\"", "\"\"", "[]", "[1,2]", "[1,null]", "[[1]]", "{}",
    "{\"a\":1}", "{\"a\":\"1\",\"b\":\"\\n\"}",
]

@Suite struct TapeDecodingTests {
    /// Every probe type, from every value: the bytes give what the same document read into a
    /// `JSONValue` gives (which is written onto a tape of its own: same value, or the same
    /// error with the same path and words), and what the Foundation tree gives where a
    /// Foundation tree can tell the same (no exponents or fractions: it holds doubles).
    @Test func decodesEveryProbeFromBytesAsFromAJSONValueAndAFoundationTree() throws {
        var compared = 0
        for value in scalarValues {
            let document = #"{"v":\#(value)}"#
            func check<T: Codable>(_ type: T.Type) throws {
                let (tape, json, foundation) = try threeWays(Wrapper<T>.self, document)
                #expect(tape == json, "\(T.self) from \(document)")
                if !value.contains("e"), !value.contains(".") {
                    // Foundation trees hold doubles for these, and say so in their messages.
                    #expect(
                        tape == foundation || tape.hasPrefix("error") == foundation.hasPrefix("error"),
                        "\(T.self) from \(document): \(tape) / \(foundation)")
                }
                compared += 1
            }
            try check(Int.self)
            try check(Int8.self)
            try check(UInt8.self)
            try check(UInt.self)
            try check(Int64.self)
            try check(UInt64.self)
            try check(Double.self)
            try check(Bool.self)
            try check(String.self)
            try check(Decimal.self)
            try check(URL.self)
            try check([Int].self)
            try check([Int?].self)
            try check([String: String].self)
            try check(Int?.self)
            try check(JSONValue.self)
            try check([JSONValue].self)
            try check([String: JSONValue].self)
        }
        #expect(compared == scalarValues.count * 18)
    }

    @Test func decodesCommerceShapesFromBytes() throws {
        let json = #"""
            {"offer":{"offerId":"sku-5","name":"tee \"silk\"","url":"https://x/p","imageUrls":["a","b\u00e9"],
             "currency":"EUR","price":"35.99","availability":2,"size":"38","quantity":4}}
            """#
        let (tape, value, foundation) = try threeWays(Update.self, json)
        #expect(tape == value)
        #expect(tape == foundation)
        let update = try MessageBody(jsonBytes: Array(json.utf8)).decode(Update.self)
        #expect(
            update.offer
                == Offer(
                    offerId: "sku-5", name: "tee \"silk\"", imageUrls: ["a", "bé"], price: "35.99", adult: nil,
                    availability: 2, quantity: 4))
    }

    @Test(arguments: [
        #"{"lines":[{"merchandiseId":"m1","quantity":1,"attributes":{"k":"v"}},{"merchandiseId":"m2","quantity":2,"attributes":{}}],"notes":["a",null],"total":"1","ratio":0.5,"tags":[]}"#,
        #"{"lines":[{"merchandiseId":"m1","quantity":1,"attributes":{"k":"v"}},{"merchandiseId":"m2","quantity":"2","attributes":{}}],"notes":[],"total":1,"ratio":1,"tags":[]}"#,
        #"{"lines":[{"merchandiseId":"m1","quantity":1,"attributes":{"k":7}}],"notes":[],"total":10.50,"ratio":2,"tags":["x","y"],"data":{"z":[1,{"q":null}]}}"#,
        #"{"lines":[{"quantity":1,"attributes":{}}],"notes":[],"total":1,"ratio":1,"tags":[]}"#,
        #"{"lines":{},"notes":[],"total":1,"ratio":1,"tags":[]}"#,
        #"{"lines":[],"notes":[1],"total":1,"ratio":1,"tags":[]}"#,
        #"{"lines":[],"notes":[],"total":1,"ratio":1e400,"tags":[]}"#,
        #"{"lines":[],"notes":[],"total":12345678901234567890.123,"ratio":1,"small":1e39,"tags":[]}"#,
        #"{"lines":[],"notes":[],"total":1,"ratio":1,"small":0.1,"tags":["a","a"],"data":null}"#,
        #"[]"#, #"null"#, #"{"lines":null}"#,
    ])
    func reportsTheSameValuesAndErrorsFromBytesAsFromAJSONValue(json: String) throws {
        let (tape, value, _) = try threeWays(Order.self, json)
        #expect(tape == value)
    }

    @Test func readsNonFlatArraysInAndOutOfOrder() throws {
        struct Picky: Decodable {
            let first: [Int]
            let last: [Int]
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                var all: [[Int]] = []
                while !container.isAtEnd { all.append(try container.decode([Int].self)) }
                first = all.first ?? []
                last = all.last ?? []
            }
        }
        let body = try MessageBody(jsonBytes: Array("[[1],[2,3],[],[4],[6]]".utf8))
        let picky = try body.decode(Picky.self)
        #expect(picky.first == [1] && picky.last == [6])
        let grid = try MessageBody(jsonBytes: Array("[[1,2],[3],[4,5,6]]".utf8)).decode([[Int]].self)
        #expect(grid == [[1, 2], [3], [4, 5, 6]])
    }

    @Test func decodesAMemberAtAKeyWithItsPath() throws {
        let json = #"{"id":{"productId":"P-1"},"customData":{"isPersonalisable":"yes","n":2}}"#
        struct Custom: Decodable { let isPersonalisable: Bool }
        let (tape, value, foundation) = try threeWays(Custom.self, json, at: "customData")
        #expect(tape == value)
        #expect(tape == foundation)
        #expect(tape.contains("body.customData.isPersonalisable"), "\(tape)")
        let (missing, missingValue, _) = try threeWays(Custom?.self, json, at: "nothing")
        #expect(missing == missingValue)
        #expect(missing == "value nil")
        let (notObject, notObjectValue, _) = try threeWays(Custom.self, "[1]", at: "customData")
        #expect(notObject == notObjectValue)
    }

    @Test func findsKeysOutOfOrderAndEscapedKeys() throws {
        struct Three: Decodable, Equatable {
            let a: Int
            let b: Int
            let c: Int
        }
        for json in [
            #"{"c":3,"b":2,"a":1}"#, #"{"a":1,"c":3,"b":2}"#, #"{"\u0061":1,"b":2,"c":3}"#,
            #"{"x":[{"a":9}],"b":2,"c":3,"a":1}"#,
        ] {
            #expect(
                try MessageBody(jsonBytes: Array(json.utf8)).decode(Three.self) == Three(a: 1, b: 2, c: 3), "\(json)")
        }
    }

    /// Generated documents decoded as `JSONValue` from the tape: exactly the tree `JSONReader`
    /// builds, and (numbers by value) what Foundation's `JSONDecoder` decodes through the same
    /// `JSONValue.init(from:)`.
    @Test(arguments: [77, 78] as [UInt64])
    func decodesGeneratedDocumentsAsJSONValueAsJSONDecoderDoes(seed: UInt64) throws {
        var generator = JSONTextGenerator(seed: seed)
        for index in 0..<300 {
            let text = generator.document()
            let tape = try MessageBody(jsonBytes: Array(text.utf8)).decode(JSONValue.self)
            let reader = try JSONReader().read(text)
            #expect(ExactJSON(tape) == ExactJSON(reader), "seed \(seed) document \(index): \(text)")
            let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            #expect(NormalizedJSON(tape) == NormalizedJSON(foundation), "seed \(seed) document \(index): \(text)")
        }
    }

    @Test func rejectedBytesThrowJSONReadersError() {
        for text in ["[1,]", "{\"a\":1,\"a\":2}", "\u{FEFF}{}", "\"\\ud800\"", ""] {
            let bytes = Array(text.utf8)
            var ours: JSONReadError?
            var reference: JSONReadError?
            do { _ = try MessageBody(jsonBytes: bytes) } catch { ours = error }
            do { _ = try JSONReader().read(bytes) } catch { reference = error }
            #expect(ours != nil && ours == reference, "\(text.debugDescription): \(String(describing: ours))")
        }
    }

    @Test func aTapeBodyConvertsToFoundationAndJSONValue() throws {
        let body = try MessageBody(jsonBytes: Array(#"{"a":[1,"x",true,null],"b":{"c":2.5}}"#.utf8))
        let foundation = try #require(body.foundationValue as? [String: Any])
        #expect((foundation["a"] as? [Any])?.count == 4)
        #expect(body.jsonValue == (try JSONReader().read(#"{"a":[1,"x",true,null],"b":{"c":2.5}}"#)))
    }
}
