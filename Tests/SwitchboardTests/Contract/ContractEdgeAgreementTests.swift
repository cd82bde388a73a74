import Foundation
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// Types whose decoding is at the edges the schema must follow.
enum EdgeTypes {
    struct Numbers: Event {
        static let channel: Channel = "edgeNumbers"
        let count: Int
        let byte: UInt8
        let price: Decimal
        let ratio: Double
    }

    struct Formats: Event {
        static let channel: Channel = "edgeFormats"
        let at: Date
        let blob: Data
        let id: UUID
    }

    /// A `CaseIterable` raw-value enum whose own `init(from:)` reads a number, not a raw value.
    enum Level: String, CaseIterable, Decodable, Sendable {
        case low, high

        init(from decoder: any Decoder) throws {
            self = try decoder.singleValueContainer().decode(Int.self) > 5 ? .high : .low
        }
    }

    /// A `CaseIterable` raw-value enum that reads its raw value case-insensitively (every raw value decodes).
    enum Colour: String, CaseIterable, Decodable, Sendable {
        case red, green

        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let colour = Colour(rawValue: text.lowercased()) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: text))
            }
            self = colour
        }
    }

    struct Levels: Event {
        static let channel: Channel = "edgeLevels"
        let level: Level
        let colour: Colour
    }

    struct Indexed: Event {
        static let channel: Channel = "edgeIndexed"
        let names: [Int: String]
        let scores: [Int: [Int: Double]]?
    }

    struct Money: Decodable, Sendable, ContractDescribable {
        let text: String

        init(text: String) {
            self.text = text
        }

        init(from decoder: any Decoder) throws {
            text = try decoder.singleValueContainer().decode(String.self)
            guard text.wholeMatch(of: /[0-9]+\.[0-9]{2}/) != nil else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not money"))
            }
        }

        static var contractSchema: JSONSchema? { JSONSchema(["type": "string", "pattern": "^[0-9]+\\.[0-9]{2}$"]) }
        static var contractExample: Money? { Money(text: "0.00") }
    }

    struct Priced: Event {
        static let channel: Channel = "edgePriced"
        let amount: Money
    }
}

/// "A body the schema accepts is never `invalid`, and a body that is `invalid` is refused
/// by the schema", at the edges: number spellings (`0e200`, `1e128`), the dates, Base64 and
/// UUIDs the decoder's readers take, line breaks at the end of a string, and enums whose own
/// `init(from:)` does not read their raw values.
@Suite struct ContractEdgeAgreementTests {
    /// The schema's verdict and the decoder's (from a `JSONValue` and from JSON bytes) on `text`.
    static func verdicts<E: Event>(_ type: E.Type, _ text: String) throws -> (schema: String?, value: Bool, bytes: Bool)
    {
        let contract = Contract(types: [E.self])
        let schema = try #require(contract.channels[E.channel]?.body?.json)
        let body = try JSONReader().read(Array(text.utf8))
        let problem = SchemaValidator(contract).problem(body, schema)
        let fromValue = (try? MessageBody(json: body).decode(E.self)) != nil
        let fromBytes = (try? MessageBody(jsonBytes: Array(text.utf8)).decode(E.self)) != nil
        return (problem, fromValue, fromBytes)
    }

    static func expectAgreement<E: Event>(
        _ type: E.Type, _ texts: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for text in texts {
            let (problem, value, bytes) = try verdicts(E.self, text)
            #expect(
                (problem == nil) == value && value == bytes,
                "\(text): schema says \(problem ?? "valid"), decoder \(value ? "decodes" : "refuses") (bytes: \(bytes))",
                sourceLocation: sourceLocation)
        }
    }

    @Test func zeroWithAnyExponentIsZeroForEveryNumberType() throws {
        for zero in ["0e200", "0e999", "-0e300", "0.0e-300", "0.000e130", "0E+400"] {
            let text = #"{"count":\#(zero),"byte":\#(zero),"price":\#(zero),"ratio":\#(zero)}"#
            let (problem, value, bytes) = try Self.verdicts(EdgeTypes.Numbers.self, text)
            #expect(problem == nil, "\(text)")
            #expect(value && bytes, "\(text) is zero in every field and must decode")
        }
    }

    @Test func integersInAnySpellingDecodeWhenTheSchemaTakesThem() throws {
        let spellings = [
            "100e-2", "1e2", "12.30e1", "0.001e3", "1000000000000000000000000000000000000000000000e-40",
            "0.\(String(repeating: "0", count: 200))1e201", "1\(String(repeating: "0", count: 200))e-200",
            "9223372036854775807.000", "-9223372036854775808e0", "92233720368547758070e-1", "123e-1", "5e-1",
        ]
        for spelling in spellings {
            try Self.expectAgreement(
                EdgeTypes.Numbers.self, [#"{"count":\#(spelling),"byte":1,"price":1,"ratio":1}"#])
        }
        // Each of these is an integer in range, however it is written.
        let (_, decodes, _) = try Self.verdicts(
            EdgeTypes.Numbers.self,
            #"{"count":0.\#(String(repeating: "0", count: 200))1e201,"byte":1,"price":1,"ratio":1}"#)
        #expect(decodes)
    }

    @Test func decimalsBeyondWhatDecimalHoldsAreRefusedByTheSchema() throws {
        let numbers = [
            "1e127", "1e128", "10e127", "0.001e131", "1e160", "-1e160", "1e165", "1e170", "1e200", "-1e300",
            "123456789012345678901234567890123456789012345678901234567890e100", "1e-100", "12.5",
        ]
        try Self.expectAgreement(
            EdgeTypes.Numbers.self, numbers.map { #"{"count":1,"byte":1,"price":\#($0),"ratio":1}"# })
        // `1e128` is `10e127`: a Decimal, whichever way it is written.
        #expect(try Self.verdicts(EdgeTypes.Numbers.self, #"{"count":1,"byte":1,"price":1e128,"ratio":1}"#).value)
    }

    /// Every date the pattern admits decodes: each offset form and hour, minutes at the edges, each fraction length.
    @Test func everyDateThePatternAdmitsDecodes() throws {
        let contract = Contract(types: [EdgeTypes.Formats.self])
        let schema = try #require(contract.channels[EdgeTypes.Formats.channel]?.body?.json)
        let validator = SchemaValidator(contract)
        var offsets = ["Z", "z", "+24:00", "+19", "+2300", "+230", "+18:01", "+1:60", "+00:60", "+5:5", "+123"]
        for sign in ["+", "-"] {
            for hour in 0...23 {
                let twoDigits = hour < 10 ? "0\(hour)" : "\(hour)"
                offsets += [sign + twoDigits, sign + "\(hour)"]
                for minute in [0, 1, 30, 59, 60] {
                    let minutes = minute < 10 ? "0\(minute)" : "\(minute)"
                    offsets += [
                        sign + twoDigits + ":" + minutes, sign + twoDigits + minutes, sign + "\(hour):" + minutes,
                        sign + "\(hour)" + minutes,
                    ]
                }
            }
        }
        var fractions = [""]
        for length in 1...12 { fractions += ["." + String(repeating: "7", count: length)] }
        var admitted = 0
        var failures: [String] = []
        for offset in offsets {
            for fraction in fractions where fraction.count <= 2 || offset == "Z" || offset == "+05:30" {
                let date = "2024-02-29T23:59:59" + fraction + offset
                let body: JSONValue = [
                    "at": .string(date), "blob": "AQID", "id": "00000000-0000-0000-0000-000000000001",
                ]
                let accepted = validator.problem(body, schema) == nil
                let decodes = (try? MessageBody(json: body).decode(EdgeTypes.Formats.self)) != nil
                if accepted { admitted += 1 }
                if accepted && !decodes { failures.append(date) }
            }
        }
        #expect(failures == [], "the schema admits dates the decoder refuses")
        #expect(admitted > 1_000)
        for refused in ["+23:59", "+19", "+18:30", "+230"] {
            let body: JSONValue = [
                "at": .string("2024-01-02T03:04:05" + refused), "blob": "AQID",
                "id": "00000000-0000-0000-0000-000000000001",
            ]
            #expect(validator.problem(body, schema) != nil, "\(refused)")
        }
    }

    /// Hour 24 only as `24:00:00`: this toolchain's reader also takes `24:59:59`, swift-foundation's
    /// newer one refuses it, so the schema (narrower than a reader, never wider) leaves it out.
    @Test func hour24IsAdmittedOnlyAsMidnightAtTheEndOfTheDay() throws {
        let contract = Contract(types: [EdgeTypes.Formats.self])
        let schema = try #require(contract.channels[EdgeTypes.Formats.channel]?.body?.json)
        let validator = SchemaValidator(contract)
        func body(_ time: String) -> JSONValue {
            ["at": .string("2024-01-02T" + time + "Z"), "blob": "AQID", "id": "00000000-0000-0000-0000-000000000001"]
        }
        for admitted in ["24:00:00", "24:00:00.000", "23:59:59", "23:59:60", "00:00:00"] {
            #expect(validator.problem(body(admitted), schema) == nil, "\(admitted)")
            #expect((try? MessageBody(json: body(admitted)).decode(EdgeTypes.Formats.self)) != nil, "\(admitted)")
        }
        for refused in ["24:59:59", "24:00:01", "24:01:00", "24:00:00.5", "25:00:00"] {
            #expect(validator.problem(body(refused), schema) != nil, "\(refused)")
        }
    }

    @Test func aLineBreakAtTheEndOfAFormattedStringIsRefusedByTheSchemaAsByTheDecoder() throws {
        let valid = (at: "2024-01-02T03:04:05Z", blob: "AQID", id: "00000000-0000-0000-0000-000000000001")
        var texts: [String] = []
        for ending in ["\\n", "\\r", "\\r\\n", "\\u2028", "\\u0085"] {
            texts.append(#"{"at":"\#(valid.at)","blob":"\#(valid.blob)\#(ending)","id":"\#(valid.id)"}"#)
            texts.append(#"{"at":"\#(valid.at)","blob":"\#(valid.blob)","id":"\#(valid.id)\#(ending)"}"#)
        }
        try Self.expectAgreement(EdgeTypes.Formats.self, texts)
        // The emitted patterns end the text in every dialect (ICU's and Python's `$` stop before a final newline).
        let schema = try #require(Contract(types: [EdgeTypes.Formats.self]).channels["edgeFormats"]?.body?.json)
        for key in ["at", "blob", "id"] {
            let pattern = try #require(
                schema.objectValue?["properties"]?.objectValue?[key]?.objectValue?["pattern"]?.stringValue)
            #expect(pattern.hasSuffix("(?![\\s\\S])"), "\(key): \(pattern)")
        }
    }

    @Test func aUsersPatternEndsTheTextAsECMAScriptsDollarDoes() throws {
        #expect(Contract(types: [EdgeTypes.Priced.self]).isExact)
        try Self.expectAgreement(
            EdgeTypes.Priced.self,
            [#"{"amount":"12.34"}"#, #"{"amount":"12.34\n"}"#, #"{"amount":"12.34\r"}"#, #"{"amount":"12.3"}"#])
    }

    @Test func aCaseIterableEnumIsAnEnumOfItsRawValuesOnlyWhenTheyDecode() throws {
        let contract = Contract(types: [EdgeTypes.Levels.self])
        let properties = try #require(
            contract.channels["edgeLevels"]?.body?.json.objectValue?["properties"]?.objectValue)
        // Level reads a number: its raw values do not decode, so they are not its schema.
        #expect(properties["level"]?.objectValue?["enum"] == nil)
        #expect(properties["colour"]?.objectValue?["enum"] == ["red", "green"])
        try Self.expectAgreement(
            EdgeTypes.Levels.self,
            [
                #"{"level":"low","colour":"red"}"#, #"{"level":"high","colour":"green"}"#,
                #"{"level":"medium","colour":"red"}"#, #"{"level":true,"colour":"red"}"#,
            ])
    }

    @Test func anIntKeyedDictionaryIsAnObjectWithIntegerKeys() throws {
        let contract = Contract(types: [EdgeTypes.Indexed.self])
        #expect(contract.isExact)
        let names = contract.channels["edgeIndexed"]?.body?.json.objectValue?["properties"]?.objectValue?["names"]
        #expect(names?.objectValue?["additionalProperties"] == ["type": "string"])
        #expect(names?.objectValue?["propertyNames"] != nil)
        try Self.expectAgreement(
            EdgeTypes.Indexed.self,
            [
                #"{"names":{"1":"a","-5":"b","0":"c","123456789012345":"d"}}"#, #"{"names":{}}"#,
                #"{"names":{"x":"a"}}"#, #"{"names":{"1.5":"a"}}"#, #"{"names":{"1":2}}"#,
                #"{"names":{"99999999999999999999999":"a"}}"#, #"{"names":{"1":"a"},"scores":{"2":{"3":0.5}}}"#,
                #"{"names":{"1":"a"},"scores":{"2":{"three":0.5}}}"#, #"{"names":{"1":"a"},"scores":null}"#,
            ])
        #expect(contract.typeScript.contains("names: { [key: number]: string };"))
    }
}
