import Foundation
import Testing

@testable import SwitchboardJSON

private struct Line: Encodable {
    let sku: String
    let quantity: Int
    let price: Double
}

private struct Totals: Encodable {
    let price: Double
    let currency: String
}

private struct Cart: Encodable {
    let id: String
    let lines: [Line]
    let totals: Totals
    let note: String?
    let tags: Set<String>?
    let flags: [Bool]
}

private struct Reply: Encodable {
    let totals: Totals
}

private struct Kitchen: Encodable {
    let date: Date
    let url: URL
    let decimal: Decimal
    let data: Data
    let float: Float
    let big: UInt64
    let small: Int8
    let optionals: [Int?]
    let nested: [[String: [Int]]]
    let byID: [Int: String]
}

private struct ExplicitNull: Encodable {
    let value: Int?
    enum CodingKeys: String, CodingKey { case value }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeNil(forKey: .value)
    }
}

private class Base: Encodable {
    let baseField = 1
}

private final class Derived: Base, @unchecked Sendable {
    let derivedField = "d"
    enum CodingKeys: String, CodingKey { case derivedField }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(derivedField, forKey: .derivedField)
        try super.encode(to: container.superEncoder())
    }
}

private struct NestedContainers: Encodable {
    enum Keys: String, CodingKey { case a, b }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
        var list = container.nestedUnkeyedContainer(forKey: .b)
        try list.encode(1)
        var deeper = list.nestedContainer(keyedBy: Keys.self)
        try deeper.encode("x", forKey: .a)
        // Written after a sibling container was opened: must still land in the right place.
        try inner.encode(true, forKey: .b)
        try list.encode(2)
    }
}

private struct TwoValues: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(1)
        try container.encode(2)
    }
}

private struct MixedContainers: Encodable {
    enum Keys: String, CodingKey { case a }
    func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        try list.encode(1)
        var keyed = encoder.container(keyedBy: Keys.self)
        try keyed.encode(2, forKey: .a)
    }
}

private struct Failing: Encodable {
    struct Oops: Error, CustomStringConvertible {
        var description: String { "oops" }
    }
    func encode(to encoder: any Encoder) throws { throw Oops() }
}

private struct Holder<Value: Encodable>: Encodable {
    let items: [Value]
}

private struct Nothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

private func json<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try BodyEncoder().encodeJSON(value), as: UTF8.self)
}

@Suite struct BodyEncoderTests {
    fileprivate let cart = Cart(
        id: "c1",
        lines: [Line(sku: "a", quantity: 2, price: 12.5), Line(sku: "b\"q", quantity: 1, price: 3)],
        totals: Totals(price: 28, currency: "EUR"), note: nil, tags: nil, flags: [true, false])

    // MARK: Bytes

    @Test func writesNestedStructsInEncodeOrderOmittingNilOptionals() throws {
        #expect(
            try json(cart)
                == #"{"id":"c1","lines":[{"sku":"a","quantity":2,"price":12.5},{"sku":"b\"q","quantity":1,"price":3}],"totals":{"price":28,"currency":"EUR"},"flags":[true,false]}"#
        )
    }

    @Test func writesTheSameValueJSONEncoderDoes() throws {
        let ours = try JSONReader().read(try BodyEncoder().encodeJSON(cart))
        let theirs = try JSONReader().read(Array(try JSONEncoder().encode(cart)))
        #expect(ours == theirs)
    }

    @Test func writesEncodeNilAsNull() throws {
        #expect(try json(ExplicitNull(value: nil)) == #"{"value":null}"#)
        #expect(try json([1, nil, 3] as [Int?]) == "[1,null,3]")
    }

    @Test func writesSpecialTypes() throws {
        let kitchen = Kitchen(
            date: Date(timeIntervalSince1970: 1_714_566_600.25),
            url: try #require(URL(string: "https://shop.example/p?id=1&q=a%20b")),
            decimal: try #require(Decimal(string: "123456789012345678901234567890.5")),
            data: Data([0, 1, 2, 250]), float: 0.1, big: .max, small: -8,
            optionals: [1, nil], nested: [["k": [1, 2]]], byID: [7: "seven"])
        #expect(
            try json(kitchen)
                == #"{"date":"2024-05-01T12:30:00.250Z","url":"https:\/\/shop.example\/p?id=1&q=a%20b","decimal":123456789012345678901234567890.5,"data":"AAEC+g==","float":0.1,"big":18446744073709551615,"small":-8,"optionals":[1,null],"nested":[{"k":[1,2]}],"byID":{"7":"seven"}}"#
                .replacingOccurrences(of: #"\/"#, with: "/"))
    }

    @Test(
        arguments: [
            (0, "1970-01-01T00:00:00Z"), (1_714_566_600, "2024-05-01T12:30:00Z"), (951_782_400, "2000-02-29T00:00:00Z"),
            (-1, "1969-12-31T23:59:59Z"), (-0.001, "1969-12-31T23:59:59.999Z"),
            (-62_135_596_800, "0001-01-01T00:00:00Z"),
            (253_402_300_800, "+010000-01-01T00:00:00Z"), (1.5, "1970-01-01T00:00:01.500Z"),
        ] as [(Double, String)])
    func formatsDatesAsISO8601InUTC(seconds: Double, expected: String) throws {
        #expect(ISO8601.format(Date(timeIntervalSince1970: seconds)) == expected)
        // Agrees with Foundation's formatter on whole seconds within four-digit years since the
        // Gregorian reform (before it Foundation switches to the Julian calendar; ISO 8601 and
        // JavaScript stay proleptic Gregorian).
        if seconds == seconds.rounded(), expected.count == 20, seconds > -12_219_292_800 {
            let formatter = ISO8601DateFormatter()
            #expect(formatter.string(from: Date(timeIntervalSince1970: seconds)) == expected)
        }
    }

    @Test func refusesDatesOutsideTheRangeWithThePath() {
        #expect(throws: BodyEncodingError.self) { try BodyEncoder().encodeJSON(Date(timeIntervalSince1970: .infinity)) }
        #expect(throws: BodyEncodingError.self) { try BodyEncoder().encodeJSON(Date(timeIntervalSince1970: 1e20)) }
    }

    @Test func writesTopLevelFragments() throws {
        #expect(try json("hi") == #""hi""#)
        #expect(try json(42) == "42")
        #expect(try json(2.5) == "2.5")
        #expect(try json(true) == "true")
        #expect(try json(Int?.none) == "null")
        #expect(try json(Decimal(string: "-0.001")) == "-0.001")
        #expect(try json([String]()) == "[]")
        #expect(try json([String: Int]()) == "{}")
        #expect(try json(Nothing()) == "{}")
    }

    @Test func handlesNestedContainersSuperEncodersAndLateWrites() throws {
        #expect(try json(NestedContainers()) == #"{"a":{"b":true},"b":[1,{"a":"x"},2]}"#)
        #expect(try json(Derived()) == #"{"derivedField":"d","super":{"baseField":1}}"#)
    }

    @Test func encodesIntoAnExistingWriterAsOneValue() throws {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("line")
        writer.write(1)
        writer.key("reply")
        try BodyEncoder().encodeJSON(Totals(price: 1.25, currency: "USD"), into: &writer)
        let before = writer.bytes
        #expect(throws: BodyEncodingError.self) {
            try BodyEncoder().encodeJSON(Totals(price: .nan, currency: "USD"), into: &writer)
        }
        #expect(writer.bytes == before, "a failed encode leaves the writer unchanged")
        writer.endObject()
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"line":1,"reply":{"price":1.25,"currency":"USD"}}"#)
    }

    // MARK: Errors

    @Test func namesTheCodingPathOfANonFiniteNumber() {
        do {
            _ = try BodyEncoder().encodeJSON(Reply(totals: Totals(price: .nan, currency: "EUR")))
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "reply.totals.price: cannot encode non-finite number nan")
            #expect(error.path == "reply.totals.price")
            #expect(error.reason == "cannot encode non-finite number nan")
        }
    }

    @Test func namesArrayIndicesInPaths() {
        let lines = Holder(items: [
            Line(sku: "a", quantity: 1, price: 1), Line(sku: "b", quantity: 1, price: .infinity),
        ])
        #expect(throws: BodyEncodingError(path: "reply.items[1].price", reason: "cannot encode non-finite number inf"))
        {
            try BodyEncoder().encodeFoundationObject(lines)
        }
        #expect(throws: BodyEncodingError(path: "reply[2]", reason: "cannot encode non-finite number -inf")) {
            try BodyEncoder().encodeJSON([1, 2, -Double.infinity])
        }
        #expect(throws: BodyEncodingError(path: "reply.items[0]", reason: "cannot encode non-finite number nan")) {
            try BodyEncoder().encodeJSON(Holder(items: [Float.nan]))
        }
        #expect(throws: BodyEncodingError(path: "manifest", reason: "cannot encode non-finite number nan")) {
            try BodyEncoder(rootName: "manifest").encodeJSON(Double.nan)
        }
    }

    @Test func reportsMisuseThatMakesJSONEncoderTrapAsAnError() {
        #expect(
            throws: BodyEncodingError(path: "reply", reason: "encoded a second value into a single-value container")
        ) {
            try BodyEncoder().encodeJSON(TwoValues())
        }
        #expect(throws: BodyEncodingError.self) { try BodyEncoder().encodeJSON(MixedContainers()) }
        #expect(throws: BodyEncodingError.self) {
            try BodyEncoder().encodeFoundationObject(Holder(items: [MixedContainers()]))
        }
    }

    @Test func reportsErrorsThrownByEncodeToWithTheirPath() {
        #expect(throws: BodyEncodingError(path: "reply.items[0]", reason: "oops")) {
            try BodyEncoder().encodeJSON(Holder(items: [Failing()]))
        }
    }

    @Test func neverCallsJSONSerializationOnAFragment() throws {
        // A bare string at top level: JSONSerialization.data(withJSONObject:) would trap on Linux.
        #expect(try BodyEncoder().encodeFoundationObject("hi") as? String == "hi")
        #expect(try BodyEncoder().encodeFoundationObject(Int?.none) is NSNull)
        #expect(try BodyEncoder().encodeFoundationObject(7) as? Int == 7)
    }

    // MARK: Foundation tree

    @Test func buildsAFoundationTreeOfJSONTypes() throws {
        let tree = try #require(try BodyEncoder().encodeFoundationObject(cart) as? [String: Any])
        #expect(tree.count == 4)
        #expect(tree["id"] as? String == "c1")
        #expect(tree["note"] == nil)
        let lines = try #require(tree["lines"] as? [Any])
        let first = try #require(lines.first as? [String: Any])
        #expect(first["quantity"] as? Int == 2)
        #expect(first["price"] as? Double == 12.5)
        #expect((tree["flags"] as? [Any])?.first as? Bool == true)
        #expect((tree["totals"] as? [String: Any])?["currency"] as? String == "EUR")
        // And JSONSerialization accepts it as it is.
        #expect(JSONSerialization.isValidJSONObject(tree))
        let data = try JSONSerialization.data(withJSONObject: tree)
        #expect(
            NormalizedJSON(try JSONReader().read(data))
                == NormalizedJSON(try JSONReader().read(try BodyEncoder().encodeJSON(cart))))
    }

    @Test func putsSpecialTypesIntoTheTree() throws {
        let kitchen = Kitchen(
            date: Date(timeIntervalSince1970: 0), url: try #require(URL(string: "https://a.example/")),
            decimal: try #require(Decimal(string: "10.25")), data: Data([1]), float: 0.1, big: .max, small: 1,
            optionals: [nil], nested: [], byID: [:])
        let tree = try #require(try BodyEncoder().encodeFoundationObject(kitchen) as? [String: Any])
        #expect(tree["date"] as? String == "1970-01-01T00:00:00Z")
        #expect(tree["url"] as? String == "https://a.example/")
        #expect((tree["decimal"] as? NSDecimalNumber)?.decimalValue == Decimal(string: "10.25"))
        #expect(tree["data"] as? String == "AQ==")
        #expect(tree["float"] as? Double == 0.1)
        #expect((tree["big"] as? NSNumber)?.uint64Value == .max)
        #expect((tree["optionals"] as? [Any])?.first is NSNull)
        #expect(JSONSerialization.isValidJSONObject(tree))
    }

    // MARK: JSONValue

    @Test func encodesToAJSONValueWithExactNumberText() throws {
        let value = try BodyEncoder().encodeJSONValue(Totals(price: 0.1, currency: "EUR"))
        #expect(value == .object(["price": .number(JSONNumber(unchecked: "0.1")), "currency": .string("EUR")]))
        #expect(
            try BodyEncoder().encodeJSONValue([1, 2])
                == .array([.number(JSONNumber(unchecked: "1")), .number(JSONNumber(unchecked: "2"))]))
        #expect(try BodyEncoder().encodeJSONValue(Int?.none) == .null)
        // Bytes and JSONValue agree.
        let bytes = try BodyEncoder().encodeJSON(cart)
        #expect(try JSONReader().read(bytes) == (try BodyEncoder().encodeJSONValue(cart)))
    }

    @Test func convertsJSONValueNumbersForFoundation() throws {
        var path: [EncodingPathSegment] = []
        #expect(try foundationTree(.number(JSONNumber(unchecked: "12")), path: &path) as? Int == 12)
        #expect(try foundationTree(.number(JSONNumber(unchecked: "2.5")), path: &path) as? Double == 2.5)
        #expect(
            (try foundationTree(.number(JSONNumber(unchecked: "123456789012345678901234567890")), path: &path)
                as? NSDecimalNumber)?
                .stringValue == "123456789012345678901234567890")
        #expect(throws: EncodingFoundationFailure.self) {
            try foundationTree(.array([.number(JSONNumber(unchecked: "1e400"))]), path: &path)
        }
        #expect(path == [.index(0)])
    }
}
