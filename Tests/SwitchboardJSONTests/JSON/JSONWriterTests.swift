import Foundation
import Testing

@testable import SwitchboardJSON

private func text(_ body: (inout JSONWriter) throws -> Void) rethrows -> String {
    var writer = JSONWriter()
    try body(&writer)
    return String(decoding: writer.bytes, as: UTF8.self)
}

@Suite struct JSONWriterTests {
    @Test func writesScalars() throws {
        #expect(text { $0.writeNull() } == "null")
        #expect(text { $0.write(true) } == "true")
        #expect(text { $0.write(false) } == "false")
        #expect(text { $0.write(JSONNumber(unchecked: "1e400")) } == "1e400")
        #expect(text { $0.write(JSONNumber(unchecked: "10.50")) } == "10.50")
    }

    @Test(
        arguments: [
            (0, "0"), (7, "7"), (10, "10"), (-1, "-1"), (1_234_567_890, "1234567890"),
            (Int.max, "9223372036854775807"), (Int.min, "-9223372036854775808"),
        ] as [(Int, String)])
    func writesIntegers(value: Int, expected: String) {
        #expect(text { $0.write(value) } == expected)
    }

    @Test func writesIntegersOfEveryWidth() {
        #expect(text { $0.write(UInt64.max) } == "18446744073709551615")
        #expect(text { $0.write(Int8.min) } == "-128")
        #expect(text { $0.write(UInt8(255)) } == "255")
        #expect(text { $0.write(Int32(-70000)) } == "-70000")
    }

    @Test(
        arguments: [
            (2.0, "2"), (-0.0, "-0"), (0.0, "0"), (0.1, "0.1"), (12.5, "12.5"), (-3.25, "-3.25"),
            (1e16, "1e+16"), (1.0000000000000002, "1.0000000000000002"), (Double.leastNonzeroMagnitude, "5e-324"),
            (1e-7, "1e-07"), (123456789.125, "123456789.125"), (9_007_199_254_740_991, "9007199254740991"),
            (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        ] as [(Double, String)])
    func writesDoublesAsShortestRoundTripText(value: Double, expected: String) throws {
        let written = try text { try $0.write(value) }
        #expect(written == expected)
        #expect(Double(written) == value)
        // And the reader accepts it as a number.
        #expect(try JSONReader().read(written) == .number(JSONNumber(unchecked: expected)))
    }

    @Test func writesFloatsWithoutDoublePrecisionNoise() throws {
        #expect(try text { try $0.write(Float(0.1)) } == "0.1")
        #expect(try text { try $0.write(Float(2)) } == "2")
        #expect(try text { try $0.write(Float(-0.0)) } == "-0")
        #expect(try text { try $0.write(Float(1e20)) } == "1e+20")
    }

    @Test func refusesNonFiniteNumbersAndWritesNothing() {
        var writer = JSONWriter()
        writer.beginArray()
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(throws: JSONWriteError.self) { try writer.write(value) }
        }
        #expect(throws: JSONWriteError(message: "cannot encode non-finite number nan")) { try writer.write(Float.nan) }
        writer.endArray()
        #expect(writer.bytes == Array("[]".utf8))
    }

    @Test func escapesStringsAsRFC8259Requires() {
        #expect(text { $0.write("a\"b\\c/d") } == #""a\"b\\c/d""#)
        #expect(text { $0.write("\n\r\t\u{8}\u{C}") } == #""\n\r\t\b\f""#)
        #expect(text { $0.write("\u{0}\u{1}\u{1F}\u{7F}") } == "\"\\u0000\\u0001\\u001f\u{7F}\"")
        #expect(text { $0.write("é 日本 😀") } == "\"é 日本 😀\"")
        #expect(text { $0.write("") } == #""""#)
    }

    @Test func escapesLineSeparatorsUnlessTurnedOff() {
        #expect(text { $0.write("a\u{2028}b\u{2029}c") } == #""a\u2028b\u2029c""#)
        var writer = JSONWriter(escapesLineSeparators: false)
        writer.write("a\u{2028}b")
        #expect(writer.bytes == Array("\"a\u{2028}b\"".utf8))
        // Other E2 sequences stay as they are.
        #expect(text { $0.write("€…\u{2027}") } == "\"€…\u{2027}\"")
    }

    @Test func insertsCommasAcrossNestedStructure() {
        let written = text { writer in
            writer.beginObject()
            writer.key("a")
            writer.beginArray()
            writer.write(1)
            writer.beginObject()
            writer.endObject()
            writer.beginArray()
            writer.endArray()
            writer.writeNull()
            writer.endArray()
            writer.key("b")
            writer.write("x")
            writer.key("c")
            writer.beginObject()
            writer.key("d")
            writer.write(false)
            writer.endObject()
            writer.endObject()
        }
        #expect(written == #"{"a":[1,{},[],null],"b":"x","c":{"d":false}}"#)
    }

    @Test func aNonFiniteNumberThrowsAndWritesNothing() throws {
        let written = try text { writer in
            writer.beginObject()
            writer.key("price")
            try writer.write(12.5)
            writer.key("lines")
            writer.beginArray()
            writer.write(1)
            writer.write(2)
            writer.endArray()
            writer.endObject()
        }
        #expect(written == #"{"price":12.5,"lines":[1,2]}"#)
        var writer = JSONWriter()
        writer.beginArray()
        #expect(throws: JSONWriteError.self) { try writer.write(Double.nan) }
        #expect(throws: JSONWriteError.self) { try writer.write(Float.infinity) }
        writer.endArray()
        #expect(writer.bytes == Array("[]".utf8))
    }

    @Test func writesJSONValuesWithSortedKeys() {
        let value: JSONValue = .object([
            "zeta": .number(JSONNumber(unchecked: "1")), "alpha": .array([.null, .bool(true)]),
            "mid": .object(["b": .string("x"), "a": .object([:])]),
        ])
        #expect(text { $0.write(value) } == #"{"alpha":[null,true],"mid":{"a":{},"b":"x"},"zeta":1}"#)
    }

    @Test func resetKeepsCapacityAndStartsOver() {
        var writer = JSONWriter(capacity: 1024)
        writer.beginArray()
        writer.write(1)
        writer.reset()
        #expect(writer.bytes.isEmpty)
        #expect(writer.capacity >= 1024)
        writer.write(2)
        #expect(writer.bytes == Array("2".utf8))
    }

    @Test func writesNDJSONLinesWithoutCommasBetweenThem() {
        var writer = JSONWriter()
        for line in 1...2 {
            writer.beginObject()
            writer.key("line")
            writer.write(line)
            writer.endObject()
            writer.writeNewline()
        }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "{\"line\":1}\n{\"line\":2}\n")
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func roundTripsGeneratedValuesThroughTheReader(seed: UInt64) throws {
        var generator = JSONValueGenerator(seed: seed)
        for _ in 0..<400 {
            let value = generator.value()
            var writer = JSONWriter()
            writer.write(value)
            let back = try JSONReader().read(writer.bytes)
            #expect(back == value, "seed \(seed): \(String(decoding: writer.bytes, as: UTF8.self))")
            // And Foundation reads the same text to the same value (except for U+FEFF, which
            // Foundation on Linux sometimes drops from strings).
            guard !String(decoding: writer.bytes, as: UTF8.self).unicodeScalars.contains("\u{FEFF}") else { continue }
            let foundation = try JSONSerialization.jsonObject(with: Data(writer.bytes), options: .fragmentsAllowed)
            #expect(
                NormalizedJSON(foundation: foundation) == NormalizedJSON(value),
                "seed \(seed): \(String(decoding: writer.bytes, as: UTF8.self))")
        }
    }

    @Test func writesTheSameBytesEveryTime() {
        var generator = JSONValueGenerator(seed: 5)
        for _ in 0..<50 {
            let value = generator.value()
            var first = JSONWriter()
            first.write(value)
            let copy = value
            var second = JSONWriter()
            second.write(copy)
            #expect(first.bytes == second.bytes)
        }
    }

    @Test func plainKeysAndStringsWriteWhatTheEscapingPathsWrite() {
        func both(_ body: (inout JSONWriter, Bool) -> Void) -> (String, String) {
            (text { body(&$0, true) }, text { body(&$0, false) })
        }
        let (plain, escaping) = both { writer, plain in
            writer.beginObject()
            for _ in 0..<2 {
                if plain { writer.key(plain: "outcome") } else { writer.key(literal: "outcome") }
                if plain { writer.write(plain: "handled") } else { writer.write("handled") }
                if plain { writer.key(plain: "price_Currency-2") } else { writer.key(literal: "price_Currency-2") }
                writer.beginArray()
                if plain { writer.write(plain: "a") } else { writer.write("a") }
                if plain { writer.write(plain: "") } else { writer.write("") }
                writer.endArray()
            }
            writer.endObject()
        }
        #expect(plain == escaping)
        #expect(
            plain
                == #"{"outcome":"handled","price_Currency-2":["a",""],"outcome":"handled","price_Currency-2":["a",""]}"#
        )
        #expect(JSONWriter.isPlain("lineId_2-x"))
        #expect(!JSONWriter.isPlain("a\"b"))
        #expect(!JSONWriter.isPlain("é"))
    }
}
