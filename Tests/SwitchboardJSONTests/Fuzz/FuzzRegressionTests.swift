import Foundation
import SwitchboardJSON
import Testing

/// Inputs the fuzz targets found (docs/reliability.md), each kept as a test. Every case
/// names the target and what it guards.
@Suite struct FuzzRegressionTests {
    /// SwitchboardFuzzDecoder: a `JSONValue` number with more digits than a `Double`
    /// holds keeps them when encoded to a Foundation tree (the WebKit reply path), as
    /// `JSONValue` promises exact digits.
    @Test(arguments: [
        "3.14159265358979323846264338327950288", "0.1000000000000000000001", "12345678901234567890123",
        "18446744073709551615", "-9223372036854775808", "2.5", "0.1", "1e30", "-0",
    ])
    func aJSONValueNumberKeepsItsDigitsThroughAFoundationTree(_ text: String) throws {
        let value = JSONValue.number(try #require(JSONNumber(text)))
        let object = try BodyEncoder().encodeFoundationObject(value)
        let back = try BodyDecoder().decode(JSONValue.self, from: object)
        let decimal = { (value: JSONValue) -> Decimal? in value.numberValue.flatMap { Decimal(string: $0.text) } }
        #expect(decimal(back) == decimal(value), "\(text) came back as \(back)")
    }

    /// The same numbers agree between the encoder's tree and `JSONValue.foundationValue`.
    @Test func theEncoderAndFoundationValueBuildTheSameNumbers() throws {
        for text in ["3.14159265358979323846264338327950288", "18446744073709551615", "2.5", "7"] {
            let value = JSONValue.number(try #require(JSONNumber(text)))
            let encoded = try BodyEncoder().encodeFoundationObject(value)
            #expect("\(type(of: encoded))" == "\(type(of: value.foundationValue))", "\(text)")
            #expect("\(encoded)" == "\(value.foundationValue)", "\(text)")
        }
    }

    /// Numbers no Foundation number holds are an error, never infinity or zero.
    @Test(arguments: ["1e400", "-1e400", "1e-400"])
    func anOutOfRangeJSONValueNumberIsAnEncodingError(_ text: String) throws {
        let value = JSONValue.array([.number(try #require(JSONNumber(text)))])
        #expect(throws: BodyEncodingError.self) { try BodyEncoder().encodeFoundationObject(value) }
        // Bytes keep the text as it is.
        #expect(try BodyEncoder().encodeJSON(value) == Array("[\(text)]".utf8))
    }

    /// SwitchboardFuzzDecoder: a date object where a `String` is read. The tree says it
    /// found a date (docs/decoding.md); its `JSONValue`, where the date is already an ISO
    /// 8601 string, decodes. The fuzz property that the two sources agree allows this
    /// one documented difference, and only it.
    @Test func aDateObjectIsNotAStringThoughItsJSONValueIs() throws {
        struct Note: Decodable, Equatable { let text: String? }
        let date = Date(timeIntervalSince1970: 1_714_566_600.25)
        let tree: [String: Any] = ["text": date, "\u{FFFD}": -1]
        let error = try #require(throws: BodyDecodingError.self) { try BodyDecoder().decode(Note.self, from: tree) }
        #expect(error.path == "body.text")
        #expect(error.message == "expected a string, found a date")
        let value = try BodyDecoder().decode(JSONValue.self, from: tree)
        #expect(value["text"] == "2024-05-01T12:30:00.250Z")
        #expect(try BodyDecoder().decode(Note.self, from: value) == Note(text: "2024-05-01T12:30:00.250Z"))
        // A URL object likewise.
        let link: [String: Any] = ["text": URL(string: "https://shop.example/p/1")!]
        #expect(throws: BodyDecodingError.self) { try BodyDecoder().decode(Note.self, from: link) }
    }
}
