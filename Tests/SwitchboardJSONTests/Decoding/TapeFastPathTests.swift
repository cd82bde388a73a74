import Foundation
import Testing

@testable import SwitchboardJSON

/// Where the decoder and scanner take a fast path (the fingerprint duplicate-key check,
/// strings made from bytes the scanner validated, generic members cast without a
/// dynamic cast, `decodeIfPresent` of any type), the result must be the general path's.
@Suite struct TapeFastPathTests {
    /// The duplicate key the scanner reports for `json`, or `nil` when it accepts it.
    private func duplicate(_ json: String) -> String? {
        do {
            _ = try JSONTape.parse(Array(json.utf8))
            return nil
        } catch {
            if case .duplicateKey(let key) = error.kind { return key }
            return "other: \(error)"
        }
    }

    @Test func keysAlikeInLengthAndEndsAreNotDuplicates() {
        // Same length, first and last byte: the same fingerprint, different keys.
        #expect(duplicate(#"{"abc":1,"axc":2,"ayc":3,"a c":4}"#) == nil)
        #expect(duplicate(#"{"":1,"a":2,"b":3}"#) == nil)
        let many = (0..<32).map { #""k\#(String(format: "%02d", $0))z":\#($0)"# }.joined(separator: ",")
        #expect(duplicate("{\(many)}") == nil)
    }

    @Test func duplicatesAreFoundWhereverTheyStand() {
        #expect(duplicate(#"{"abc":1,"axc":2,"abc":3}"#) == "abc")
        #expect(duplicate(#"{"a":1,"b":2,"c":3,"d":4,"e":5,"a":6}"#) == "a")
        #expect(duplicate(#"{"":1,"x":2,"":3}"#) == "")
        #expect(duplicate(#"{"merchandiseId":"a","quantity":1,"merchandiseId":"b"}"#) == "merchandiseId")
        // A long key compared past its first eight bytes.
        #expect(duplicate(#"{"abcdefghijklmnop":1,"abcdefghijklmnoq":2}"#) == nil)
        #expect(duplicate(#"{"abcdefghijklmnop":1,"abcdefghijklmnop":2}"#) == "abcdefghijklmnop")
        // Past 32 members, and with escaped or non-ASCII keys (compared as strings).
        let many = (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(duplicate("{\(many),\"k7\":0}") == "k7")
        #expect(duplicate(#"{"ab":1,"a\u0062":2}"#) == "ab")
        #expect(duplicate(#"{"é":1,"e\u0301":2}"#) == "é")
        #expect(duplicate(#"{"é":1,"ê":2}"#) == nil)
    }

    @Test func stringsFromValidatedBytesAreTheSameStrings() throws {
        struct Texts: Decodable {
            let ascii: String
            let accented: String
            let emoji: String
            let escaped: String
            let mixed: String
            let empty: String
            let long: String
        }
        let long = String(repeating: "wool €10 🙂 ", count: 20)
        let json = """
            {"ascii":"gid://shopify/ProductVariant/44012345678940","accented":"Crème brûlée","emoji":"🙂👍🏽",\
            "escaped":"caf\\u00e9 \\"q\\"","mixed":"a\\u0301","empty":"","long":"\(long)"}
            """
        let texts = try MessageBody(jsonBytes: Array(json.utf8)).decode(Texts.self)
        let expected = [
            "gid://shopify/ProductVariant/44012345678940", "Crème brûlée", "🙂👍🏽", "café \"q\"", "a\u{301}", "", long,
        ]
        let found = [texts.ascii, texts.accented, texts.emoji, texts.escaped, texts.mixed, texts.empty, texts.long]
        for (string, wanted) in zip(found, expected) {
            #expect(string == wanted)
            #expect(Array(string.utf8) == Array(wanted.utf8))
            #expect(string.count == wanted.count)
            #expect(string.hashValue == wanted.hashValue)
            #expect(Array(string.reversed()) == Array(wanted.reversed()))
        }
        #expect(texts.accented.count == 12)
        #expect(texts.emoji.count == 2)
        // Keys made from the tape (a dictionary's) are the same strings too.
        let dictionary = try MessageBody(jsonBytes: Array(#"{"Crème":"brûlée","plain":"x"}"#.utf8))
            .decode([String: String].self)
        #expect(dictionary == ["Crème": "brûlée", "plain": "x"])
    }

    @Test func everySpecialTypeDecodesAsAGenericMemberFromEverySource() throws {
        let json = #"""
            {"s":"text","i":-12,"b":true,"d":2.5,"j":{"k":[1,"x",null]},"o":{"a":1},"ss":{"a":"b"},
            "a":[1,true],"date":"2024-05-01T10:00:00Z","url":"https://example.com/a","dec":"12.5","f":0.5,
            "i64":9007199254740993,"data":"AQID","strings":["a","b"],"bad":{"v":{"a":1}}}
            """#
        func check<T: Decodable & Equatable>(_ type: T.Type, _ key: String, _ expected: T) throws {
            for body in try bodies(json) {
                let decoded = try body.decode(T.self, at: key)
                #expect(decoded == expected, "\(T.self) at \(key) from \(body)")
            }
        }
        try check(String.self, "s", "text")
        try check(Int.self, "i", -12)
        try check(Bool.self, "b", true)
        try check(Double.self, "d", 2.5)
        try check(JSONValue.self, "j", .object(["k": .array([.number(JSONNumber("1")!), .string("x"), .null])]))
        try check([String: JSONValue].self, "o", ["a": .number(JSONNumber("1")!)])
        try check([String: String].self, "ss", ["a": "b"])
        try check([JSONValue].self, "a", [.number(JSONNumber("1")!), .bool(true)])
        try check(Date.self, "date", Date(timeIntervalSince1970: 1_714_557_600))
        try check(URL.self, "url", URL(string: "https://example.com/a")!)
        try check(Float.self, "f", 0.5)
        try check(Int64.self, "i64", 9_007_199_254_740_993)
        try check(Data.self, "data", Data([1, 2, 3]))
        try check([String].self, "strings", ["a", "b"])
        // A mismatch through the same generic path says what it always said.
        for body in try bodies(json) {
            #expect(throws: BodyDecodingError.self) { try body.decode(Int.self, at: "s") }
            let error = try #require(catching { _ = try body.decode(Box<[String: String]>.self, at: "bad") })
            #expect(error.description == "body.bad.v.a: expected a string, found 1")
        }
    }

    @Test func decodeIfPresentOfAnyTypeTellsMissingNullAndPresentApart() throws {
        struct Inner: Decodable, Equatable {
            let n: Int
        }
        struct Outer: Decodable, Equatable {
            let inner: Inner?
            let values: [Int]?
            let json: JSONValue?
        }
        let cases: [(String, Outer)] = [
            (#"{}"#, Outer(inner: nil, values: nil, json: nil)),
            (#"{"inner":null,"values":null,"json":null}"#, Outer(inner: nil, values: nil, json: nil)),
            (
                #"{"json":{"a":1},"values":[1,2],"inner":{"n":3}}"#,
                Outer(inner: Inner(n: 3), values: [1, 2], json: .object(["a": .number(JSONNumber("1")!)]))
            ),
        ]
        for (json, expected) in cases {
            for body in try bodies(json) {
                #expect(try body.decode(Outer.self) == expected, "\(json) from \(body)")
            }
        }
        // A present member of the wrong type is an error at its path, not a nil.
        for body in try bodies(#"{"inner":{"n":"three"}}"#) {
            let error = try #require(catching { _ = try body.decode(Outer.self) })
            #expect(error.description == "body.inner.n: expected an integer, found a string")
        }
    }

    @Test func keyedContainersKeptPastInitFromReadTheirOwnObject() throws {
        final class Keeper: Decodable, @unchecked Sendable {
            enum Keys: String, CodingKey { case name, nested }
            enum NestedKeys: String, CodingKey { case name }
            let container: KeyedDecodingContainer<Keys>
            let nested: KeyedDecodingContainer<NestedKeys>
            init(from decoder: any Decoder) throws {
                container = try decoder.container(keyedBy: Keys.self)
                nested = try container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested)
            }
        }
        let json = #"{"items":[{"name":"a","nested":{"name":"n-a"}},{"nested":{"name":"n-b"},"name":"b"}]}"#
        for body in try bodies(json) {
            let keepers = try body.decode([Keeper].self, at: "items")
            #expect(try keepers.map { try $0.container.decode(String.self, forKey: .name) } == ["a", "b"])
            #expect(try keepers.map { try $0.nested.decode(String.self, forKey: .name) } == ["n-a", "n-b"])
            // Read again, out of order, after other containers were made.
            #expect(try keepers.reversed().map { try $0.container.decode(String.self, forKey: .name) } == ["b", "a"])
        }
    }

    @Test func hugeNumbersKeepTheirText() throws {
        struct Numbers: Decodable {
            let big: Decimal
            let json: JSONValue
        }
        let json = #"{"big":123456789012345678901234567890,"json":[1e400,-0,12345678901234567890123]}"#
        for body in try bodies(json) {
            let numbers = try body.decode(Numbers.self)
            #expect(numbers.big == Decimal(string: "123456789012345678901234567890"))
            guard case .array(let elements) = numbers.json, elements.count == 3 else {
                Issue.record("not an array: \(numbers.json)")
                continue
            }
            if case .number(let first) = elements[0] { #expect(first.text == "1e400" || first.text == "1E+400") }
            if case .number(let last) = elements[2] { #expect(last.text == "12345678901234567890123") }
            #expect(throws: BodyDecodingError.self) { try body.decode(Int.self, at: "big") }
        }
    }

    /// `json` as a body from bytes (the tape), as a `JSONValue` and as a Foundation tree.
    private func bodies(_ json: String) throws -> [MessageBody] {
        let bytes = Array(json.utf8)
        let value = try JSONReader().read(bytes)
        return [try MessageBody(jsonBytes: bytes), MessageBody(json: value)]
    }

    /// The error `body` throws, if any.
    private func catching(_ body: () throws -> Void) -> BodyDecodingError? {
        do {
            try body()
            return nil
        } catch let error as BodyDecodingError {
            return error
        } catch {
            return nil
        }
    }
}
