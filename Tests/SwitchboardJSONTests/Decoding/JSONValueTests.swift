import Foundation
import Testing

@testable import SwitchboardJSON

@Suite struct JSONValueTests {
    @Test func convertsAJSONSerializationTreeKeepingKindsAndDigits() throws {
        let tree = try foundationTree(
            #"{"t":true,"one":1,"onePointZero":1.0,"half":2.5,"big":12345678901234567890,"#
                + #""huge":123456789012345678901234567890,"s":"x","n":null,"a":[1,"2",[false]],"o":{}}"#
        )
        let value = try JSONValue(foundation: tree)
        #expect(value["t"] == .bool(true))
        #expect(value["one"] == .number(JSONNumber(1)))
        #expect(value["onePointZero"]?.numberValue?.text == "1.0")
        #expect(value["half"]?.doubleValue == 2.5)
        #expect(value["big"]?.numberValue?.text == "12345678901234567890")
        #expect(value["huge"]?.numberValue?.text == "123456789012345678901234567890")
        #expect(value["s"] == "x")
        #expect(value["n"] == .null)
        #expect(value["a"] == [1, "2", [false]])
        #expect(value["o"] == .object([:]))
        #expect(value["missing"] == nil)
    }

    @Test func convertsNativeAndNSValues() throws {
        let tree: [String: Any] = [
            "date": Date(timeIntervalSince1970: 0), "fraction": NSDate(timeIntervalSince1970: 1.5),
            "url": URL(string: "https://x.y/") as Any, "decimal": NSDecimalNumber(string: "10.50"),
            "float": Float(0.1), "u8": UInt8(7), "none": String?.none as Any, "ns": NSString(string: "s"),
            "list": NSArray(array: [NSNumber(value: true), NSNumber(value: 2)]),
            "json": JSONValue.array([1]),
        ]
        let value = try JSONValue(foundation: tree)
        #expect(value["date"] == "1970-01-01T00:00:00Z")
        #expect(value["fraction"] == "1970-01-01T00:00:01.500Z")
        #expect(value["url"] == "https://x.y/")
        #expect(value["decimal"]?.numberValue?.text == "10.5")
        #expect(value["float"]?.numberValue?.text == "0.1")
        #expect(value["u8"] == 7)
        #expect(value["none"] == .null)
        #expect(value["ns"] == "s")
        #expect(value["list"] == [true, 2])
        #expect(value["json"] == [1])
    }

    @Test func refusesWhatIsNotJSON() throws {
        struct Custom {}
        #expect(throws: BodyDecodingError.self) { try JSONValue(foundation: ["a": ["b": Custom()]]) }
        do {
            _ = try JSONValue(foundation: ["a": ["b": Custom()]])
        } catch {
            #expect(error.path == "body.a.b")
            #expect(error.message == "expected a JSON value, found a value of type Custom")
        }
        do {
            _ = try JSONValue(foundation: ["x": Double.nan])
            Issue.record("NaN converted")
        } catch {
            #expect(error.description == "body.x: Number nan is not representable in JSON.")
        }
        #expect(throws: BodyDecodingError.self) { try JSONValue(foundation: deeplyNestedArray(depth: 10), maxDepth: 5) }
        #expect(try JSONValue(foundation: deeplyNestedArray(depth: 5), maxDepth: 5) == [[[[[0]]]]])
    }

    @Test func foundationValueIsWritableByJSONSerialization() throws {
        let value: JSONValue = [
            "int": 42, "neg": -7, "half": 2.5, "tenth": 0.1, "t": true, "n": nil, "s": "x",
            "big": .number(JSONNumber(unchecked: "12345678901234567890")),
            "huge": .number(JSONNumber(unchecked: "123456789012345678901234567890")),
            "precise": .number(JSONNumber(unchecked: "0.1000000000000000000001")),
            "list": [1, [2]],
        ]
        let tree = value.foundationValue
        let object = try #require(tree as? [String: Any])
        #expect(object["int"] as? Int == 42)
        #expect(object["half"] as? Double == 2.5)
        #expect(object["t"] as? Bool == true)
        #expect(object["n"] is NSNull)
        #expect((object["big"] as? NSNumber)?.uint64Value == 12_345_678_901_234_567_890)
        #expect(object["huge"] is NSDecimalNumber)
        #expect(object["precise"] is NSDecimalNumber)

        let data = try JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""big":12345678901234567890"#))
        #expect(text.contains(#""huge":123456789012345678901234567890"#))
        #expect(text.contains(#""int":42"#))
        #expect(text.contains(#""t":true"#))
        #expect(text.contains(#""n":null"#))
        #expect(try JSONValue(foundation: JSONSerialization.jsonObject(with: data))["list"] == [1, [2]])
    }

    @Test func roundTripsThroughJSONEncoderAndJSONDecoder() throws {
        let value: JSONValue = [
            "a": [1, 2.5, "s", true, nil], "b": ["c": .number(JSONNumber(unchecked: "12345678901234567890"))],
        ]
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded == value)
        let big = try JSONDecoder().decode(JSONValue.self, from: Data("123456789012345678901234567890".utf8))
        #expect(big.numberValue?.text == "123456789012345678901234567890")
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data("true".utf8)) == true)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data("1".utf8)) == 1)
    }

    @Test func literalsAndAccessors() {
        let value: JSONValue = ["name": "x", "count": 3, "ratio": 0.5, "on": true, "list": [1, 2], "none": nil]
        #expect(value["name"]?.stringValue == "x")
        #expect(value["count"]?.intValue == 3)
        #expect(value["count"]?.stringValue == nil)
        #expect(value["ratio"]?.doubleValue == 0.5)
        #expect(value["ratio"]?.intValue == nil)
        #expect(value["on"]?.boolValue == true)
        #expect(value["count"]?.boolValue == nil)
        #expect(value["list"]?[1] == 2)
        #expect(value["list"]?[2] == nil)
        #expect(value["none"]?.isNull == true)
        #expect(value["list"]?.arrayValue?.count == 2)
        #expect(value.objectValue?.count == 6)
        #expect(Set<JSONValue>([1, 1, "1", true]).count == 3)
    }

    @Test func numbersKeepTheirTextAndConvertExactly() throws {
        #expect(JSONNumber(unchecked: "2.0").int64Value == 2)
        #expect(JSONNumber(unchecked: "2.5").int64Value == nil)
        #expect(JSONNumber(unchecked: "1e30").int64Value == nil)
        #expect(JSONNumber(unchecked: "12345678901234567890").int64Value == nil)
        #expect(JSONNumber(unchecked: "12345678901234567890").uint64Value == 12_345_678_901_234_567_890)
        #expect(JSONNumber(unchecked: "-1").uint64Value == nil)
        #expect(JSONNumber(unchecked: "1e400").doubleValue == nil)
        #expect(JSONNumber(unchecked: "1e-3").doubleValue == 0.001)
        #expect(JSONNumber(unchecked: "10.50").decimalValue == Decimal(string: "10.50"))
        #expect(JSONNumber(42).text == "42")
        #expect(JSONNumber(Int64.min).text == "-9223372036854775808")
        #expect(JSONNumber(UInt64.max).text == "18446744073709551615")
        #expect(JSONNumber(2.5)?.text == "2.5")
        #expect(JSONNumber(Double.nan) == nil)
        #expect(JSONNumber(Double.infinity) == nil)
        #expect(JSONNumber(try #require(Decimal(string: "10.50")))?.text == "10.5")
        #expect(JSONNumber(Decimal.nan) == nil)
        #expect(JSONNumber(unchecked: "1") != JSONNumber(unchecked: "1.0"))
    }
}
