import Foundation
import Testing

@testable import SwitchboardJSON

/// Number text with more significant digits than `Decimal` keeps (38) is read exactly as an
/// integer: a digit far past the point still makes it a fraction, and still counts in range.
@Suite struct LongNumberTests {
    private struct Count: Decodable {
        let count: Int
    }

    private struct Big: Decodable {
        let count: UInt64
    }

    /// `1.` then 40 zeros then `1`: not an integer, though `Decimal(string:)` reads it as 1.
    private static let nearlyOne = "1." + String(repeating: "0", count: 40) + "1"
    /// `UInt64.max.` then 25 zeros then `1`: just past `UInt64.max`.
    private static let pastMax = "18446744073709551615." + String(repeating: "0", count: 25) + "1"

    /// The error decoding `T` from `{"count":<number>}`, through bytes, a `JSONValue`, and a
    /// numeric string read leniently; `nil` for each source that decodes it.
    private func errors<T: Decodable>(_ type: T.Type, _ number: String) throws -> [DecodingError?] {
        let json = #"{"count":\#(number)}"#
        var results: [DecodingError?] = []
        do {
            _ = try MessageBody(jsonBytes: Array(json.utf8)).decode(T.self)
            results.append(nil)
        } catch {
            results.append((error as? BodyDecodingError)?.decodingError)
        }
        results.append(decodingError(T.self, fromJSON: try JSONReader().read(json))?.decodingError)
        let quoted = #"{"count":"\#(number)"}"#
        results.append(
            decodingError(T.self, fromJSON: try JSONReader().read(quoted), options: .lenient)?.decodingError)
        return results
    }

    @Test func aFractionPastDecimalsDigitsIsNotAnInteger() throws {
        for error in try errors(Count.self, Self.nearlyOne) {
            guard let error, case .dataCorrupted(let context) = error else {
                Issue.record("\(Self.nearlyOne) as Int should be dataCorrupted, got \(String(describing: error))")
                continue
            }
            #expect(context.codingPath.map(\.stringValue) == ["count"])
        }
        #expect(JSONValue.number(JSONNumber(unchecked: Self.nearlyOne)).intValue == nil)
        #expect(JSONValue.number(JSONNumber(unchecked: "-" + Self.nearlyOne)).int64Value == nil)
    }

    @Test func aValueJustPastUInt64MaxIsNotUInt64Max() throws {
        for error in try errors(Big.self, Self.pastMax) {
            guard let error, case .dataCorrupted = error else {
                Issue.record("\(Self.pastMax) as UInt64 should be dataCorrupted, got \(String(describing: error))")
                continue
            }
        }
        #expect(JSONValue.number(JSONNumber(unchecked: Self.pastMax)).uint64Value == nil)
    }

    @Test func longIntegralTextStillDecodesExactly() throws {
        let zeros = String(repeating: "0", count: 45)
        for (number, expected) in [
            ("1." + zeros, 1), ("12" + zeros + "e-45", 12), ("0." + zeros + "e400", 0), ("7e0", 7), ("-3.0e+1", -30),
        ] {
            let json = #"{"count":\#(number)}"#
            #expect(try MessageBody(jsonBytes: Array(json.utf8)).decode(Count.self).count == expected, "\(number)")
            #expect(try BodyDecoder().decode(Count.self, from: try JSONReader().read(json)).count == expected)
        }
        let max = "18446744073709551615." + String(repeating: "0", count: 30)
        #expect(JSONValue.number(JSONNumber(unchecked: max)).uint64Value == .max)
    }

    @Test func digitsRefuseTextThatIsNotANumber() {
        for text in ["", "-", ".", "-.", "1.", ".5", "1.2.3", "e5", "-e5", "1e", "1e+", "1x", "--1"] {
            #expect(DecodingNumber.Digits(text) == nil, "\(text)")
        }
        for text in ["0", "-0", "1.5", "1e5", "-2.50E-3", "007"] {
            #expect(DecodingNumber.Digits(text) != nil, "\(text)")
        }
    }

    @Test func anExponentTooLongForAnyIntegerSaturates() {
        let huge = "1e" + String(repeating: "9", count: 30)
        #expect(DecodingNumber.Digits(huge)?.exponent == 1_000_000_000)
        #expect(DecodingNumber.Digits("1e-" + String(repeating: "9", count: 30))?.exponent == -1_000_000_000)
        #expect(DecodingNumber.Digits("1e123456789")?.exponent == 123_456_789)
        #expect(DecodingNumber.Digits("0e" + String(repeating: "9", count: 30))?.integer(Int.self) == 0)
    }
}
