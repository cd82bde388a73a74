import Foundation
import Testing

@testable import SwitchboardJSON

/// Parses `text`, returning the error (or `nil` when it parsed).
private func error(_ text: String, maxDepth: Int = 512) -> JSONReadError? {
    error(Array(text.utf8), maxDepth: maxDepth)
}

private func error(_ bytes: [UInt8], maxDepth: Int = 512) -> JSONReadError? {
    do {
        _ = try JSONReader(maxDepth: maxDepth).read(bytes)
        return nil
    } catch {
        return error
    }
}

private func read(_ text: String) throws -> JSONValue {
    try JSONReader().read(Array(text.utf8))
}

private func number(_ text: String) -> JSONValue { .number(JSONNumber(unchecked: text)) }

@Suite struct JSONReaderTests {
    // MARK: Rejections, each with its message

    @Test func rejectsATrailingCommaInAnObjectNamingTheComma() {
        let failure = error(#"{"a":1,}"#)
        #expect(failure?.kind == .trailingComma)
        #expect(failure?.description == "unexpected ',' before '}' (trailing comma) at byte 6 (column 7)")
    }

    @Test func rejectsATrailingCommaInAnArray() {
        let failure = error("[1, 2 , ]")
        #expect(failure?.kind == .trailingComma)
        #expect(failure?.description == "unexpected ',' before ']' (trailing comma) at byte 6 (column 7)")
    }

    @Test func rejectsADuplicateKeyNamingIt() {
        let failure = error(#"{"id":"a","qty":1,"id":"b"}"#)
        #expect(failure?.kind == .duplicateKey("id"))
        #expect(failure?.description == #"duplicate key "id" in object at byte 18 (column 19)"#)
    }

    @Test func rejectsDuplicateKeysInNestedObjectsButNotAcrossObjects() throws {
        #expect(error(#"{"a":{"b":1,"b":2}}"#)?.kind == .duplicateKey("b"))
        #expect(error(#"{"a":{"b":1},"c":{"b":2}}"#) == nil)
        // Escapes are resolved before comparing.
        #expect(error(#"{"ab":1,"a\u0062":2}"#)?.kind == .duplicateKey("ab"))
    }

    @Test func rejectsALeadingByteOrderMarkSayingSo() {
        let failure = error([0xEF, 0xBB, 0xBF] + Array("{}".utf8))
        #expect(failure?.kind == .byteOrderMark)
        #expect(failure?.offset == 0)
        #expect(failure?.reason.contains("byte-order mark") == true)
    }

    @Test(
        arguments: [
            ([0x22, 0xC0, 0xAF, 0x22], "overlong"),  // overlong '/'
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], "overlong"),  // overlong 3-byte
            ([0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], "overlong"),  // overlong 4-byte
            ([0x22, 0xED, 0xA0, 0x80, 0x22], "surrogate"),  // U+D800 in UTF-8
            ([0x22, 0xED, 0xBF, 0xBF, 0x22], "surrogate"),  // U+DFFF in UTF-8
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], "U+10FFFF"),  // U+110000
            ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], "never appears"),
            ([0x22, 0xFF, 0x22], "never appears"),
            ([0x22, 0x80, 0x22], "continuation"),
            ([0x22, 0xC3, 0x22], "truncated"),  // lead byte then the closing quote
            ([0x22, 0xE2, 0x82], "truncated"),  // input ends inside the sequence
            ([0x22, 0xF0, 0x9F, 0x98, 0x22], "truncated"),
        ] as [([UInt8], String)])
    func rejectsIllFormedUTF8(bytes: [UInt8], mentions: String) {
        let failure = error(bytes)
        #expect(failure?.kind == .invalidUTF8)
        #expect(failure?.offset == 1)
        #expect(failure?.reason.contains(mentions) == true, "\(String(describing: failure))")
    }

    @Test func rejectsLoneSurrogateEscapes() {
        let high = error(#"["\ud800"]"#)
        #expect(high?.kind == .loneSurrogate)
        #expect(
            high?.description
                == #"lone surrogate \uD800 in string (a high surrogate not followed by a low one) at byte 2 (column 3)"#
        )
        let low = error(#""\uDC00x""#)
        #expect(low?.kind == .loneSurrogate)
        #expect(low?.reason.contains("low surrogate without a high surrogate") == true)
        #expect(error(#""\ud800\u0041""#)?.kind == .loneSurrogate)
        #expect(error(#""\ud800\ud800""#)?.kind == .loneSurrogate)
        #expect(error(#""\ud800x""#)?.kind == .loneSurrogate)
    }

    @Test func rejectsUnescapedControlCharactersInStrings() {
        let failure = error("{\"a\":\"x\ny\"}")
        #expect(failure?.kind == .controlCharacterInString)
        #expect(failure?.reason == "unescaped control character U+000A in string")
        #expect(error("\"\u{0}\"")?.kind == .controlCharacterInString)
        #expect(error("\"tab\there\"")?.kind == .controlCharacterInString)
        // DEL (U+007F) is not a JSON control character.
        #expect(error("\"\u{7F}\"") == nil)
    }

    @Test(arguments: ["01", "-01", "00", "[012]", "{\"a\":00.5}"])
    func rejectsLeadingZeros(text: String) {
        let failure = error(text)
        #expect(failure?.kind == .invalidNumber)
        #expect(failure?.reason == "invalid number, leading zeros are not allowed")
    }

    @Test(arguments: ["1.", "-", "1e", "1e+", "-.5", "1.e3"])
    func rejectsNumbersMissingDigits(text: String) {
        #expect(error(text)?.kind == .invalidNumber)
    }

    @Test func rejectsNumbersJavaScriptAcceptsButJSONDoesNot() {
        #expect(error(".5")?.kind == .unexpectedCharacter)
        #expect(error("+1")?.kind == .unexpectedCharacter)
        #expect(error("0x10")?.kind == .trailingContent)
        #expect(error("1.5.3")?.kind == .trailingContent)
    }

    @Test(arguments: ["NaN", "Infinity", "-Infinity", "[1, NaN]", #"{"a":-Infinity}"#])
    func rejectsNonFiniteLiterals(text: String) {
        let failure = error(text)
        #expect(failure?.kind == .invalidLiteral)
        #expect(failure?.reason.contains("is not a JSON number") == true, "\(String(describing: failure))")
    }

    @Test func rejectsOtherBareWords() {
        #expect(error("tru")?.description == "invalid literal 'tru', expected a value at byte 0 (column 1)")
        #expect(error("nul")?.kind == .invalidLiteral)
        #expect(error("True")?.reason == "invalid literal 'True', JSON literals are lowercase")
        #expect(error("[undefined]")?.reason == "undefined is not a JSON value, use null")
        #expect(error("truex")?.kind == .trailingContent)
    }

    @Test func rejectsComments() {
        #expect(error("// hi\n{}")?.kind == .comment)
        #expect(error("[1 /* two */, 2]")?.kind == .comment)
        #expect(error("{\"a\": 1 // x\n}")?.reason == "comments are not allowed in JSON")
    }

    @Test func rejectsSingleQuotes() {
        #expect(error("{'a': 1}")?.kind == .singleQuotedString)
        #expect(error("['a']")?.kind == .singleQuotedString)
    }

    @Test func rejectsTrailingGarbageAfterTheValue() {
        let failure = error(#"{"a":1} {"b":2}"#)
        #expect(failure?.kind == .trailingContent)
        #expect(failure?.description == "unexpected '{' after the value (trailing content) at byte 8 (column 9)")
        #expect(error("[1]]")?.kind == .trailingContent)
        #expect(error("1 2")?.kind == .trailingContent)
        #expect(error("null\u{0}")?.kind == .trailingContent)
    }

    @Test func rejectsEmptyAndTruncatedInput() {
        #expect(error("")?.description == "empty input, expected a value at byte 0 (column 1)")
        #expect(error("  \n ")?.kind == .unexpectedEndOfInput)
        #expect(error("[1, 2")?.description == "unexpected end of input, expected ',' or ']' at byte 5 (column 6)")
        #expect(error(#"{"a""#)?.reason == "unexpected end of input, expected ':' after the key")
        #expect(error(#"{"a":"#)?.kind == .unexpectedEndOfInput)
        #expect(error(#""abc"#)?.description == #"unterminated string (missing closing '"') at byte 0 (column 1)"#)
        #expect(error(#""ab\"#)?.kind == .unexpectedEndOfInput)
        #expect(error("[")?.kind == .unexpectedEndOfInput)
    }

    @Test func rejectsStructuralMistakes() {
        #expect(error("[,1]")?.description == "unexpected ',', expected a value at byte 1 (column 2)")
        #expect(error(#"{"a" 1}"#)?.reason == "unexpected '1', expected ':' after the key")
        #expect(error(#"{"a":1 "b":2}"#)?.reason == "unexpected '\"', expected ',' or '}'")
        #expect(error("{1:2}")?.reason == "unexpected '1', expected a string key or '}'")
        #expect(error(#"{"a":1,,"b":2}"#)?.kind == .unexpectedCharacter)
        #expect(error("[1 2]")?.kind == .unexpectedCharacter)
        #expect(error("]")?.kind == .unexpectedCharacter)
        #expect(error("[1}")?.kind == .unexpectedCharacter)
    }

    @Test func rejectsInvalidEscapes() {
        #expect(error(#""\x41""#)?.description == #"invalid escape '\x' in string at byte 1 (column 2)"#)
        #expect(error(#""\u12G4""#)?.kind == .invalidEscape)
        #expect(error(#""\u12""#)?.kind == .invalidEscape)
        #expect(error(#""\'""#)?.kind == .invalidEscape)
    }

    @Test func namesNonASCIICharactersInMessages() {
        let failure = error("[\u{201C}a\u{201D}]")
        #expect(failure?.reason == "unexpected U+201C '\u{201C}', expected a value")
        #expect(error([0x5B, 0xFF, 0x5D])?.reason == "unexpected byte 0xFF, expected a value")
    }

    @Test func givesLineAndColumnForMultiLineInputCountingScalars() {
        let failure = error("{\n  \"é\": 1,\n  \"x\": tru\n}")
        #expect(failure?.line == 3)
        #expect(failure?.column == 8)
        #expect(failure?.isMultiline == true)
        #expect(failure?.description == "invalid literal 'tru', expected a value at byte 20 (line 3, column 8)")
        // Column in scalars on one line: "é" is two bytes but one column.
        let oneLine = error("[\"é\",]")
        #expect(oneLine?.offset == 5)
        #expect(oneLine?.column == 5)
        #expect(oneLine?.isMultiline == false)
        // A single terminating newline (an NDJSON line) still counts as one line.
        #expect(error("[1,]\n")?.isMultiline == false)
    }

    // MARK: Depth

    @Test func rejectsNestingOneDeeperThanTheLimit() throws {
        let allowed = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(error(allowed) == nil)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let failure = error(tooDeep)
        #expect(failure?.kind == .nestingTooDeep(limit: 512))
        #expect(failure?.offset == 512)
        #expect(error(#"{"a":{"b":[1]}}"#, maxDepth: 2)?.kind == .nestingTooDeep(limit: 2))
        #expect(error(#"{"a":{"b":1}}"#, maxDepth: 2) == nil)
        #expect(error("[]", maxDepth: 0)?.kind == .nestingTooDeep(limit: 0))
        #expect(error("1", maxDepth: 0) == nil)
    }

    @Test func rejects100000DeepNestingCleanly() {
        let open = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(
            error(open + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000))?.kind == .nestingTooDeep(limit: 512))
        let objects = Array(String(repeating: #"{"a":"#, count: 100_000).utf8)
        #expect(error(objects)?.kind == .nestingTooDeep(limit: 512))
        // Unterminated and deep, with a high limit: an ordinary end-of-input error, no stack overflow.
        #expect(error(open, maxDepth: 200_000)?.kind == .unexpectedEndOfInput)
    }

    @Test func parsesDeepNestingWithARaisedLimitWithoutRecursing() throws {
        let depth = 5_000
        let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        var value = try JSONReader(maxDepth: depth).read(Array(text.utf8))
        var levels = 0
        while case .array(let elements) = value, let first = elements.first {
            levels += 1
            value = first
        }
        #expect(levels == depth)
        #expect(value == number("1"))
    }

    // MARK: Acceptance

    @Test func readsScalarsAtTopLevel() throws {
        #expect(try read("null") == .null)
        #expect(try read(" true ") == .bool(true))
        #expect(try read("\r\n\tfalse\n") == .bool(false))
        #expect(try read(#""hi""#) == .string("hi"))
        #expect(try read("-0") == number("-0"))
    }

    @Test func readsEmptyContainers() throws {
        #expect(try read("[]") == .array([]))
        #expect(try read("{}") == .object([:]))
        #expect(try read("[ ]") == .array([]))
        #expect(try read("{ \n }") == .object([:]))
        #expect(try read("[[],{},[{}]]") == .array([.array([]), .object([:]), .array([.object([:])])]))
    }

    @Test func readsAMessageObject() throws {
        let value = try read(
            #"{"name":"addCartLine","body":{"quantity":2,"price":12.50,"tags":["a",null,true]},"id":"r1"}"#)
        #expect(
            value
                == .object([
                    "name": .string("addCartLine"),
                    "body": .object([
                        "quantity": number("2"), "price": number("12.50"),
                        "tags": .array([.string("a"), .null, .bool(true)]),
                    ]),
                    "id": .string("r1"),
                ]))
    }

    @Test func keepsNumbersAsTheirExactText() throws {
        #expect(try read("1e400") == number("1e400"))
        #expect(try read("123456789012345678901234567890") == number("123456789012345678901234567890"))
        #expect(
            try read("[-0.000001E-7, 10.50, 0, 1E+2]")
                == .array([number("-0.000001E-7"), number("10.50"), number("0"), number("1E+2")]))
    }

    @Test func decodesEveryEscape() throws {
        #expect(try read(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{8} \u{C} \n \r \t"))
        #expect(try read(#""\u0041\u00e9\u20AC\u0000""#) == .string("Aé€\u{0}"))
        #expect(try read(#""a\nb""#) == .string("a\nb"))
        #expect(try read(#""\\""#) == .string("\\"))
    }

    @Test func combinesSurrogatePairsIntoOneScalar() throws {
        let value = try read(#""\ud83d\ude00 \uD834\uDD1E""#)
        #expect(value == .string("😀 𝄞"))
        if case .string(let string) = value {
            #expect(string.unicodeScalars.map(\.value) == [0x1F600, 0x20, 0x1D11E])
        }
        #expect(try read(#""\udbff\udfff""#) == .string("\u{10FFFF}"))
    }

    @Test func acceptsWellFormedUTF8AtTheEdgesOfEachRange() throws {
        let samples = [
            "\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}", "日本語 😀",
        ]
        for sample in samples {
            #expect(try read("\"\(sample)\"") == .string(sample))
        }
        // The BOM character is fine inside a string.
        #expect(try read("\"\u{FEFF}\"") == .string("\u{FEFF}"))
    }

    @Test func readsFromEveryInputType() throws {
        let text = #"{"a":[1,"é"]}"#
        let expected: JSONValue = .object(["a": .array([number("1"), .string("é")])])
        let reader = JSONReader()
        #expect(try reader.read(text) == expected)
        #expect(try reader.read(Data(text.utf8)) == expected)
        #expect(try reader.read(Array(text.utf8)) == expected)
        #expect(try reader.read(Array(("xx" + text).utf8).dropFirst(2)) == expected)
        let viaRawBuffer = try Array(text.utf8).withUnsafeBytes { raw in try reader.read(raw) }
        #expect(viaRawBuffer == expected)
        #expect(throws: JSONReadError.self) { try reader.read(Data()) }
    }

    @Test func neverCrashesOnTruncationsOfAValidDocument() {
        let text = Array(#"{"a":[1,-2.5e3,"x\u00e9\ud83d\ude00y",true,null,{"b":{}}],"c":"日本"}"#.utf8)
        #expect(error(text) == nil)
        for length in 0..<text.count {
            #expect(error(Array(text[..<length])) != nil, "prefix of \(length) bytes")
        }
    }

    /// Random short byte strings over JSON's alphabet and some bytes UTF-8 forbids or starts
    /// a sequence with, and random strings of JSON tokens: each is accepted or rejected as
    /// `JSONSerialization` does, with the same value (FoundationReference says where Foundation
    /// is lenient).
    @Test(arguments: [7, 8, 9] as [UInt64])
    func readsRandomBytesAsJSONSerializationDoes(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let alphabet =
            Array(#"{}[],:"\ u0123456789abcdefABCDEF.-+eEtrufalsn"#.utf8) + [
                0x00, 0x0A, 0x80, 0xC3, 0xE2, 0xED, 0xF0, 0xFF,
            ]
        let tokens = [
            "{", "}", "[", "]", ",", ":", " ", #""a""#, #""\u00e9""#, #""\ud83d\ude00""#, "0", "-1", "2.5e3", "true",
            "null", "false",
        ]
        var accepted = 0
        for index in 0..<3_000 {
            let bytes: [UInt8]
            if index % 2 == 0 {
                let length = Int(random.next() % 24)
                bytes = (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            } else {
                let count = Int(random.next() % 8)
                bytes = Array((0..<count).map { _ in tokens[Int(random.next() % UInt64(tokens.count))] }.joined().utf8)
            }
            let result = Result { () throws(JSONReadError) in try JSONReader().read(bytes) }
            if case .success = result { accepted += 1 }
            if let problem = FoundationReference.disagreement(bytes, result) {
                Issue.record("seed \(seed) case \(index) \(bytes): \(problem)")
            }
        }
        #expect(accepted >= 50, "seed \(seed): only \(accepted) of the inputs were JSON")
    }
}
