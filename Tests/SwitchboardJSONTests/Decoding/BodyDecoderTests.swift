import Foundation
import Testing

@testable import SwitchboardJSON

private struct AddCartLine: Decodable, Equatable {
    let merchandiseId: String
    let productId: String
    let quantity: Int
    let price: Double?
    let attributes: [String: JSONValue]
}

private struct Line: Decodable, Equatable {
    let sku: String
    let quantity: Int
}

private struct Cart: Decodable, Equatable {
    let lines: [Line]
}

private struct Everything: Decodable, Equatable {
    let int: Int
    let double: Double
    let bool: Bool
    let string: String
    let date: Date
    let missing: String?
    let none: Int?
    let counts: [String: Int]
    let numbers: [Int]
    let small: Int8
    let byte: UInt8
    let float: Float
    let decimal: Decimal
    let url: URL
}

private struct NotJSON {}

private enum Color: String, Decodable {
    case red
}

private struct ThrowsCustom: Decodable {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "custom failure" }
    }

    init(from decoder: any Decoder) throws {
        throw Failure()
    }
}

private struct Pair: Decodable {
    let first: Int
    let second: Int

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        first = try container.decode(Int.self)
        second = try container.decode(Int.self)
    }
}

@Suite struct BodyDecoderTests {
    let decoder = BodyDecoder()

    // MARK: Whole bodies

    @Test func decodesAnEventFromAJSONSerializationBody() throws {
        let body = try foundationTree(
            #"{"merchandiseId":"m1","productId":"p1","quantity":2,"price":9.5,"extra":"ignored","#
                + #""attributes":{"__lion_sfp_id":"abc","n":1.0,"big":12345678901234567890,"flag":true,"none":null}}"#
        )
        let line = try decoder.decode(AddCartLine.self, from: body)
        #expect(line.merchandiseId == "m1")
        #expect(line.productId == "p1")
        #expect(line.quantity == 2)
        #expect(line.price == 9.5)
        #expect(line.attributes["__lion_sfp_id"] == .string("abc"))
        #expect(line.attributes["n"] == .number(JSONNumber(unchecked: "1.0")))
        #expect(line.attributes["big"] == .number(JSONNumber(unchecked: "12345678901234567890")))
        #expect(line.attributes["flag"] == .bool(true))
        #expect(line.attributes["none"] == .null)
        #expect(line.attributes.count == 5)
    }

    @Test func decodesTheSameEventFromAJSONValue() throws {
        let body: JSONValue = [
            "merchandiseId": "m1", "productId": "p1", "quantity": 2, "price": nil,
            "attributes": ["a": [1, "two"]],
        ]
        let line = try decoder.decode(AddCartLine.self, from: body)
        #expect(line.quantity == 2)
        #expect(line.price == nil)
        #expect(line.attributes == ["a": [1, "two"]])
    }

    @Test func ignoresUnknownKeys() throws {
        let body = try foundationTree(#"{"sku":"a","quantity":1,"colour":"red","nested":{"deep":[1,2,3]}}"#)
        #expect(try decoder.decode(Line.self, from: body) == Line(sku: "a", quantity: 1))
    }

    // MARK: Exact types

    @Test func trueNeverDecodesAsAnInteger() throws {
        for type in [Int.self, Int64.self, UInt8.self] as [any Decodable.Type] {
            let error = try #require(decodingError(type, from: try foundationTree("true")))
            guard case .typeMismatch = error.decodingError else {
                Issue.record("expected a type mismatch for \(type), got \(error)")
                continue
            }
            // Foundation's wording stays in the `DecodingError`; the message is for people.
            #expect(error.context.debugDescription == "Expected to decode \(type) but found a bool instead.")
            #expect(error.message.hasPrefix("expected an integer"), "\(error)")
            #expect(error.message.hasSuffix(", found true"), "\(error)")
        }
        let error = try #require(decodingError(Box<Double>.self, from: try foundationTree(#"{"v":false}"#)))
        #expect(error.description == "body.v: expected a number, found false")
    }

    @Test func oneNeverDecodesAsABool() throws {
        for json in ["1", "0", "1.0"] {
            let error = try #require(decodingError(Box<Bool>.self, from: try foundationTree(#"{"v":\#(json)}"#)))
            #expect(error.description == "body.v: expected true or false, found \(json)")
        }
        #expect(try decoder.decode(Bool.self, from: try foundationTree("true")) == true)
        #expect(try decoder.decode(Bool.self, from: try foundationTree("false")) == false)
    }

    @Test func stringsAndNumbersDoNotMix() throws {
        let number = try #require(decodingError(Box<String>.self, from: try foundationTree(#"{"v":1}"#)))
        #expect(number.description == "body.v: expected a string, found 1")
        let string = try #require(decodingError(Box<Int>.self, from: try foundationTree(#"{"v":"1"}"#)))
        #expect(string.description == "body.v: expected an integer, found a string")
    }

    @Test func integralDoublesDecodeAsIntegersAndFractionsDoNot() throws {
        #expect(try decoder.decode(Int.self, from: try foundationTree("2.0")) == 2)
        #expect(try decoder.decode(UInt8.self, from: try foundationTree("1e2")) == 100)
        #expect(try decoder.decode(Int.self, from: try foundationTree("-0.0")) == 0)
        #expect(try decoder.decode(Int.self, from: JSONValue.number(JSONNumber(unchecked: "2.0"))) == 2)
        let error = try #require(decodingError(Box<Int>.self, from: try foundationTree(#"{"v":2.5}"#)))
        guard case .dataCorrupted(let context) = error.decodingError else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["v"])
        #expect(error.description == "body.v: expected an integer, found 2.5")
    }

    @Test func outOfRangeNumbersAreErrorsNeverWrapped() throws {
        let cases: [(json: String, type: any Decodable.Type, text: String)] = [
            ("1e30", Int.self, "1e+30"),
            ("12345678901234567890", Int.self, "12345678901234567890"),
            ("12345678901234567890", Int64.self, "12345678901234567890"),
            ("-1", UInt.self, "-1"),
            ("-1", UInt64.self, "-1"),
            ("300", UInt8.self, "300"),
            ("-129", Int8.self, "-129"),
            ("40000", Int16.self, "40000"),
            ("1e300", Float.self, "1e+300"),
            ("1e-50", Float.self, "1e-50"),
        ]
        for (json, type, text) in cases {
            for body in [try foundationTree(json), try JSONValue(foundation: try foundationTree(json))] as [Any] {
                let error: BodyDecodingError?
                if let value = body as? JSONValue {
                    error = decodingError(type, fromJSON: value)
                } else {
                    error = decodingError(type, from: body)
                }
                guard let error, case .dataCorrupted = error.decodingError else {
                    Issue.record("\(json) as \(type) should be dataCorrupted, got \(String(describing: error))")
                    continue
                }
                #expect(error.path == "body")
                #expect(error.message.hasPrefix("expected "), "\(error)")
                if !(body is JSONValue) {
                    #expect(error.context.debugDescription == "Number \(text) is not representable in Swift.")
                    #expect(error.message.hasSuffix(", found \(text)"), "\(error)")
                }
            }
        }
    }

    @Test func integersAtTheEdgesOfTheirRangesDecode() throws {
        #expect(
            try decoder.decode(UInt64.self, from: try foundationTree("12345678901234567890"))
                == 12_345_678_901_234_567_890)
        #expect(try decoder.decode(Int64.self, from: try foundationTree("-9223372036854775808")) == .min)
        #expect(try decoder.decode(Int64.self, from: try foundationTree("9223372036854775807")) == .max)
        #expect(try decoder.decode(UInt8.self, from: try foundationTree("255")) == 255)
        #expect(try decoder.decode(Int8.self, from: try foundationTree("-128")) == -128)
        #expect(try decoder.decode(UInt.self, from: try foundationTree("-0")) == 0)
        #expect(
            try decoder.decode(UInt64.self, from: JSONValue.number(JSONNumber(unchecked: "18446744073709551615")))
                == .max)
    }

    @Test func doublesAndFloatsAcceptIntegers() throws {
        #expect(try decoder.decode(Double.self, from: try foundationTree("1")) == 1.0)
        #expect(try decoder.decode(Float.self, from: try foundationTree("3")) == 3.0)
        #expect(
            try decoder.decode(Double.self, from: try foundationTree("12345678901234567890"))
                == 12_345_678_901_234_567_890.0)
        #expect(try decoder.decode(Float.self, from: try foundationTree("0.1")) == Float(0.1))
        #expect(try decoder.decode(Double.self, from: try foundationTree("2.5")) == 2.5)
    }

    @Test func doublesBeyondTheirRangeAreErrors() throws {
        let error = try #require(decodingError(Double.self, fromJSON: .number(JSONNumber(unchecked: "1e400"))))
        #expect(error.description == "body: expected a number in the range of Double, found 1e400")
    }

    @Test func decimalsKeepTheirDigits() throws {
        let tenFifty = try #require(Decimal(string: "10.50"))
        #expect(try decoder.decode(Decimal.self, from: NSDecimalNumber(string: "10.50")) == tenFifty)
        #expect(try decoder.decode(Decimal.self, from: try foundationTree("0.1")) == Decimal(string: "0.1"))
        #expect(
            try decoder.decode(Decimal.self, from: try foundationTree("12345678901234567890"))
                == Decimal(string: "12345678901234567890")
        )
        #expect(
            try decoder.decode(Decimal.self, from: try foundationTree("123456789012345678901234567890"))
                == Decimal(string: "123456789012345678901234567890")
        )
        #expect(
            try decoder.decode(Decimal.self, from: JSONValue.number(JSONNumber(unchecked: "10.50"))) == tenFifty
        )
        #expect(
            try decoder.decode(Box<Decimal>.self, from: ["v": Decimal(string: "3.14") as Any]).v
                == Decimal(string: "3.14"))
        let error = try #require(decodingError(Box<Decimal>.self, from: try foundationTree(#"{"v":"1"}"#)))
        #expect(error.description == "body.v: expected a number, found a string")
    }

    @Test func urlsDecodeFromStrings() throws {
        let url = try decoder.decode(URL.self, from: "https://example.com/a?b=c")
        #expect(url.absoluteString == "https://example.com/a?b=c")
        #expect(try decoder.decode(URL.self, from: URL(string: "https://x.y/")) == URL(string: "https://x.y/"))
        let empty = try #require(decodingError(Box<URL>.self, from: ["v": ""]))
        #expect(empty.description == #"body.v: expected a URL, found """#)
        let number = try #require(decodingError(Box<URL>.self, from: ["v": 1]))
        #expect(number.description == "body.v: expected a string, found 1")
    }

    @Test func datesDecodeFromDateObjectsAndISO8601Strings() throws {
        let date = Date(timeIntervalSince1970: 1_704_164_645)
        #expect(try decoder.decode(Date.self, from: date) == date)
        #expect(try decoder.decode(Date.self, from: NSDate(timeIntervalSince1970: 1_704_164_645)) == date)
        #expect(try decoder.decode(Date.self, from: "2024-01-02T03:04:05Z") == date)
        #expect(try decoder.decode(Date.self, from: "2024-01-02T05:04:05+02:00") == date)
        let fractional = try decoder.decode(Date.self, from: "2024-01-02T03:04:05.250Z")
        #expect(abs(fractional.timeIntervalSince1970 - 1_704_164_645.25) < 0.0001)
        #expect(try decoder.decode(Date.self, from: JSONValue.string("2024-01-02T03:04:05Z")) == date)
        let bad = try #require(decodingError(Box<Date>.self, from: ["v": "yesterday"]))
        #expect(bad.description == #"body.v: expected an ISO 8601 date, found "yesterday""#)
        let number = try #require(decodingError(Box<Date>.self, from: ["v": 1]))
        #expect(number.description == "body.v: expected an ISO 8601 date, found 1")
    }

    @Test func dataDecodesFromBase64() throws {
        #expect(try decoder.decode(Data.self, from: "AQID") == Data([1, 2, 3]))
        let error = try #require(decodingError(Data.self, from: "not base64!"))
        #expect(error.message == #"expected Base64 data, found "not base64!""#)
    }

    // MARK: Null, missing, optional

    @Test func nullAndMissingFollowJSONDecoder() throws {
        let null = try foundationTree(#"{"v":null}"#)
        let missing = try foundationTree(#"{}"#)
        #expect(try decoder.decode(OptionalBox<Int>.self, from: null).v == nil)
        #expect(try decoder.decode(OptionalBox<Int>.self, from: missing).v == nil)
        #expect(try decoder.decode(OptionalBox<Line>.self, from: null).v == nil)
        #expect(try decoder.decode(Box<Int?>.self, from: null).v == nil)

        let valueNotFound = try #require(decodingError(Box<Int>.self, from: null))
        guard case .valueNotFound(let type, _) = valueNotFound.decodingError else {
            Issue.record("expected valueNotFound, got \(valueNotFound)")
            return
        }
        #expect(ObjectIdentifier(type) == ObjectIdentifier(Int.self))
        #expect(valueNotFound.description == "body.v: expected an integer, found null")

        let keyNotFound = try #require(decodingError(Line.self, from: try foundationTree(#"{"sku":"a"}"#)))
        guard case .keyNotFound(let key, let context) = keyNotFound.decodingError else {
            Issue.record("expected keyNotFound, got \(keyNotFound)")
            return
        }
        #expect(key.stringValue == "quantity")
        #expect(context.codingPath.isEmpty)
        #expect(keyNotFound.path == "body.quantity")
        #expect(keyNotFound.message == "required key missing")
        #expect(
            keyNotFound.context.debugDescription
                == #"No value associated with key CodingKeys(stringValue: "quantity", intValue: nil) ("quantity")."#
        )
    }

    @Test func anOptionalOfTheWrongTypeIsStillAnError() throws {
        let error = try #require(decodingError(OptionalBox<Int>.self, from: try foundationTree(#"{"v":"x"}"#)))
        #expect(error.description == "body.v: expected an integer, found a string")
    }

    @Test func nullAsAStructIsValueNotFound() throws {
        let error = try #require(decodingError(Box<Line>.self, from: try foundationTree(#"{"v":null}"#)))
        #expect(error.description == "body.v: expected an object, found null")
        #expect(try decoder.decode(Line?.self, from: nil) == nil)
        #expect(try decoder.decode(Line?.self, from: NSNull()) == nil)
    }

    @Test func arraysOfOptionalsKeepTheirNulls() throws {
        #expect(try decoder.decode([Int?].self, from: try foundationTree("[1,null,3]")) == [1, nil, 3])
        let error = try #require(decodingError([Int].self, from: try foundationTree("[1,null,3]")))
        #expect(error.description == "body[1]: expected an integer, found null")
    }

    // MARK: Containers and paths

    @Test func theWrongContainerIsATypeMismatch() throws {
        let object = try #require(decodingError(Line.self, from: try foundationTree("[]")))
        #expect(object.description == "body: expected an object, found an array")
        let array = try #require(decodingError(Box<[Int]>.self, from: try foundationTree(#"{"v":{}}"#)))
        #expect(array.description == "body.v: expected an array, found an object")
        let scalar = try #require(decodingError(Cart.self, from: "cart"))
        #expect(scalar.description == "body: expected an object, found a string")
    }

    @Test func errorsNameTheFullPath() throws {
        let body = try foundationTree(
            #"{"lines":[{"sku":"a","quantity":1},{"sku":"b","quantity":2},{"sku":"c","quantity":"3"}]}"#
        )
        let error = try #require(decodingError(Cart.self, from: body))
        #expect(error.path == "body.lines[2].quantity")
        #expect(error.message == "expected an integer, found a string")
        #expect(error.description == "body.lines[2].quantity: expected an integer, found a string")
        #expect(error.codingPath.map(\.stringValue) == ["lines", "Index 2", "quantity"])
        #expect(error.codingPath.map(\.intValue) == [nil, 2, nil])

        let attributes = try #require(
            decodingError(Box<[String: String]>.self, from: try foundationTree(#"{"v":{"__lion_sfp_id":7}}"#))
        )
        #expect(attributes.description == "body.v.__lion_sfp_id: expected a string, found 7")
    }

    @Test func namesThatAreNotIdentifiersAreQuotedInPaths() throws {
        let error = try #require(decodingError([String: Int].self, from: ["first name": "x"]))
        #expect(error.path == #"body["first name"]"#)
    }

    @Test func anUnkeyedContainerAtItsEndIsValueNotFound() throws {
        let error = try #require(decodingError(Pair.self, from: [1]))
        #expect(error.description == "body[1]: Unkeyed container is at end.")
        #expect(try decoder.decode(Pair.self, from: [1, 2]).second == 2)
    }

    @Test func errorsThrownByTypesThemselvesKeepTheirPath() throws {
        let custom = try #require(decodingError(Box<ThrowsCustom>.self, from: ["v": 1]))
        #expect(custom.description == "body.v: custom failure")
        let raw = try #require(decodingError(Box<Color>.self, from: ["v": "blue"]))
        #expect(raw.description == "body.v: Cannot initialize Color from invalid String value blue")
    }

    // MARK: Foundation shapes

    @Test func decodesHandBuiltNativeDictionaries() throws {
        let date = Date(timeIntervalSince1970: 1_000)
        let body: [String: Any] = [
            "int": 3, "double": 2.5, "bool": true, "string": "s", "date": date,
            "none": Int?.none as Any, "counts": ["a": 1] as [String: Int], "numbers": [1, 2] as [Int],
            "small": Int8(-3), "byte": UInt8(200), "float": Float(0.5), "decimal": Decimal(string: "1.25") as Any,
            "url": URL(string: "https://x.y/z") as Any,
        ]
        let value = try decoder.decode(Everything.self, from: body)
        #expect(value.int == 3)
        #expect(value.double == 2.5)
        #expect(value.bool)
        #expect(value.string == "s")
        #expect(value.date == date)
        #expect(value.missing == nil)
        #expect(value.none == nil)
        #expect(value.counts == ["a": 1])
        #expect(value.numbers == [1, 2])
        #expect(value.small == -3)
        #expect(value.byte == 200)
        #expect(value.float == 0.5)
        #expect(value.decimal == Decimal(string: "1.25"))
        #expect(value.url.absoluteString == "https://x.y/z")
    }

    @Test func nativeBoolsAndIntegersStayApart() throws {
        let bool = try #require(decodingError(Box<Int>.self, from: ["v": true]))
        #expect(bool.description == "body.v: expected an integer, found true")
        let int = try #require(decodingError(Box<Bool>.self, from: ["v": 1]))
        #expect(int.description == "body.v: expected true or false, found 1")
        let nsTrue = try #require(decodingError(Box<Int>.self, from: ["v": NSNumber(value: true)]))
        #expect(nsTrue.description == "body.v: expected an integer, found true")
        let nsOne = try #require(decodingError(Box<Bool>.self, from: ["v": NSNumber(value: 1)]))
        #expect(nsOne.description == "body.v: expected true or false, found 1")
        #expect(try decoder.decode(Box<Int>.self, from: ["v": NSNumber(value: Int8(1))]).v == 1)
        #expect(try decoder.decode(Box<Bool>.self, from: ["v": NSNumber(value: false)]).v == false)
        #expect(try decoder.decode(Box<Int>.self, from: ["v": Int?.some(4) as Any]).v == 4)
    }

    @Test func decodesNSDictionaryNSArrayAndNSString() throws {
        let body = NSDictionary(dictionary: [
            "lines": NSArray(array: [
                NSDictionary(dictionary: ["sku": NSString(string: "a"), "quantity": NSNumber(value: 2)])
            ])
        ])
        #expect(try decoder.decode(Cart.self, from: body) == Cart(lines: [Line(sku: "a", quantity: 2)]))
        let wrong = NSDictionary(dictionary: [
            "lines": NSArray(array: [
                NSDictionary(dictionary: ["sku": NSString(string: "a"), "quantity": NSString(string: "2")])
            ])
        ])
        let error = try #require(decodingError(Cart.self, from: wrong))
        #expect(error.description == "body.lines[0].quantity: expected an integer, found a string")
        #expect(try decoder.decode(String.self, from: NSString(string: "hi")) == "hi")
        #expect(try decoder.decode([Int].self, from: NSArray(array: [1, 2, 3])) == [1, 2, 3])
    }

    @Test func nonJSONValuesAreNamedInErrors() throws {
        let error = try #require(decodingError(Box<String>.self, from: ["v": NotJSON()]))
        #expect(error.description == "body.v: expected a string, found a value of type NotJSON")
    }

    @Test func anAbsentBodyReadsAsNull() throws {
        struct Empty: Decodable {}
        _ = try decoder.decode(Empty.self, from: nil)
        #expect(try decoder.decode(Int?.self, from: nil) == nil)
        #expect(try decoder.decode(JSONValue.self, from: nil) == .null)
        let error = try #require(decodingError(Line.self, from: nil))
        #expect(error.description == "body: expected an object, found null")
    }

    // MARK: Lenient mode

    @Test func lenientModeReadsNumericStringsAndBooleanWords() throws {
        struct Loose: Decodable, Equatable {
            let quantity: Int
            let price: Double
            let ratio: Float
            let amount: Decimal
            let flag: Bool
            let other: Bool
        }
        let body = try foundationTree(
            #"{"quantity":"42","price":"2.5","ratio":"0.5","amount":"10.50","flag":"true","other":"false"}"#
        )
        let lenient = BodyDecoder(options: .lenient)
        let value = try lenient.decode(Loose.self, from: body)
        #expect(
            value
                == Loose(
                    quantity: 42, price: 2.5, ratio: 0.5, amount: Decimal(string: "10.50") ?? 0, flag: true,
                    other: false))
        #expect(try lenient.decode(Loose.self, from: try JSONValue(foundation: body)) == value)

        let strict = try #require(decodingError(Loose.self, from: body))
        #expect(strict.description == "body.quantity: expected an integer, found a string")
        #expect(DecodingOptions().lenient == false)
    }

    @Test func lenientModeStillRejectsWhatIsNotANumber() throws {
        let options = DecodingOptions(lenient: true)
        let word = try #require(decodingError(Box<Int>.self, from: ["v": "forty"], options: options))
        #expect(word.description == "body.v: expected an integer, found a string")
        let fraction = try #require(decodingError(Box<Int>.self, from: ["v": "2.5"], options: options))
        #expect(fraction.description == "body.v: expected an integer, found 2.5")
        let yes = try #require(decodingError(Box<Bool>.self, from: ["v": "yes"], options: options))
        #expect(yes.description == "body.v: expected true or false, found a string")
        let padded = try #require(decodingError(Box<Int>.self, from: ["v": " 4"], options: options))
        #expect(padded.description == "body.v: expected an integer, found a string")
        // Lenient reads strings as numbers, not numbers as strings.
        let number = try #require(decodingError(Box<String>.self, from: ["v": 4], options: options))
        #expect(number.description == "body.v: expected a string, found 4")
    }

    // MARK: One member

    @Test func decodesOneMemberWithItsPath() throws {
        struct CustomData: Decodable {
            let isPersonalisable: Bool
        }
        let body = try foundationTree(#"{"name":"wishlist","customData":{"isPersonalisable":"yes"}}"#)
        let error: BodyDecodingError? = {
            do {
                _ = try decoder.decode(CustomData.self, from: body, at: "customData")
                return nil
            } catch {
                return error as? BodyDecodingError
            }
        }()
        #expect(
            error?.description
                == "body.customData.isPersonalisable: expected true or false, found a string")
        #expect(try decoder.decode(String.self, from: body, at: "name") == "wishlist")
        #expect(try decoder.decode(String.self, from: try JSONValue(foundation: body), at: "name") == "wishlist")
    }

    @Test func aMissingMemberIsNilWhenOptional() throws {
        let body = try foundationTree(#"{"name":"wishlist"}"#)
        #expect(try decoder.decode(Bool?.self, from: body, at: "customData") == nil)
        #expect(try decoder.decode(Bool?.self, from: [1, 2], at: "customData") == nil)
        #expect(try decoder.decode(Bool?.self, from: nil, at: "customData") == nil)
        #expect(try decoder.decode(Bool?.self, from: JSONValue.string("x"), at: "customData") == nil)
        #expect(try decoder.decode(Bool?.self, from: ["customData": NSNull()], at: "customData") == nil)

        do {
            _ = try decoder.decode(Bool.self, from: body, at: "customData")
            Issue.record("expected keyNotFound")
        } catch {
            guard case .keyNotFound(let key, _) = error.decodingError else {
                Issue.record("expected keyNotFound, got \(error)")
                return
            }
            #expect(key.stringValue == "customData")
            #expect(error.path == "body.customData")
        }
        do {
            _ = try decoder.decode(Bool.self, from: [1, 2], at: "customData")
            Issue.record("expected typeMismatch")
        } catch {
            guard case .typeMismatch = error.decodingError else {
                Issue.record("expected typeMismatch, got \(error)")
                return
            }
            #expect(error.description == "body: expected an object, found an array")
        }
    }

    // MARK: JSONValue source

    @Test func aJSONValueBodyFollowsTheSameRules() throws {
        #expect(decodingError(Int.self, fromJSON: true)?.message == "expected an integer, found true")
        #expect(decodingError(Bool.self, fromJSON: 1)?.message == "expected true or false, found 1")
        #expect(
            decodingError(String.self, fromJSON: 1)?.message == "expected a string, found 1")
        #expect(decodingError(Int.self, fromJSON: 2.5)?.message == "expected an integer, found 2.5")
        #expect(decodingError(UInt8.self, fromJSON: 300)?.message == "expected an integer from 0 to 255, found 300")
        #expect(
            decodingError(Int.self, fromJSON: nil)?.message
                == "expected an integer, found null")
        #expect(
            try decoder.decode(UInt64.self, from: JSONValue.number(JSONNumber(unchecked: "12345678901234567890")))
                == 12_345_678_901_234_567_890)
        #expect(try decoder.decode(Int.self, from: JSONValue.number(JSONNumber(unchecked: "-1.0e1"))) == -10)
        let cart: JSONValue = ["lines": [["sku": "a", "quantity": 1], ["sku": "b"]]]
        let error = try #require(decodingError(Cart.self, fromJSON: cart))
        #expect(error.path == "body.lines[1].quantity")
        let json: JSONValue = ["a": [1, ["b": nil]]]
        #expect(try decoder.decode(JSONValue.self, from: json) == json)
        #expect(try decoder.decode([String: JSONValue].self, from: json) == ["a": [1, ["b": nil]]])
    }
}
