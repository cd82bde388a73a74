import Foundation
import Testing

@testable import SwitchboardJSON

/// A shape to compare JSON values exactly: strings by Unicode scalars (not by
/// canonical equivalence), numbers by their text, objects by sorted keys.
indirect enum ExactJSON: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(String)
    case string([UInt32])
    case array([ExactJSON])
    case object([([UInt32], ExactJSON)])

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(number.text)
        case .string(let string): self = .string(string.unicodeScalars.map(\.value))
        case .array(let elements): self = .array(elements.map(ExactJSON.init))
        case .object(let members):
            self = .object(
                members.map { ($0.key.unicodeScalars.map(\.value), ExactJSON($0.value)) }.sorted {
                    $0.0.lexicographicallyPrecedes($1.0)
                })
        }
    }

    static func == (lhs: ExactJSON, rhs: ExactJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    var description: String { "\(self)" }
}

/// The tape of `bytes`, or `nil` when the scanner rejects them.
func parsedTape(_ bytes: [UInt8], maxDepth: Int = 512) -> JSONTape? {
    try? JSONTape.parse(bytes, maxDepth: maxDepth)
}

/// Reads `bytes` two ways from the one scanner's tape: the decoder reading the tape in
/// place (as it reads `MessageBody(jsonBytes:)` bodies) and the `JSONValue` tree that
/// `JSONReader` builds from it; `nil` for rejected.
func tapeAndReader(_ bytes: [UInt8], maxDepth: Int = 512) -> (tape: JSONValue?, reader: JSONValue?) {
    let tape = (try? MessageBody(jsonBytes: bytes, maxDepth: maxDepth)).flatMap {
        try? $0.decode(JSONValue.self, options: DecodingOptions(maxDepth: 1_000_000))
    }
    let reader = try? JSONReader(maxDepth: maxDepth).read(bytes)
    return (tape, reader)
}

/// The repository's `Fixtures/` folder.
let fixturesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// Every input document of the fixtures: each line of an `.ndjson` file, each `.json` file whole.
func fixtureDocuments() -> [(name: String, bytes: [UInt8])] {
    guard
        let enumerator = FileManager.default.enumerator(at: fixturesDirectory, includingPropertiesForKeys: nil)
    else { return [] }
    var documents: [(String, [UInt8])] = []
    for case let url as URL in enumerator {
        // A copy of a generated input (`X.ndjson` beside `X.spec`, written by make_fixtures.py
        // and not in git) is left out: clean clones do not have it.
        let spec = url.deletingPathExtension().appendingPathExtension("spec")
        if FileManager.default.fileExists(atPath: spec.path) { continue }
        guard let data = FileManager.default.contents(atPath: url.path) else { continue }
        let name = url.path.replacingOccurrences(of: fixturesDirectory.path + "/", with: "")
        if url.pathExtension == "json" {
            documents.append((name, Array(data)))
        } else if url.pathExtension == "ndjson" {
            for (number, line) in Array(data).split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
            where !line.isEmpty {
                documents.append(("\(name):\(number + 1)", Array(line)))
            }
        }
    }
    return documents.sorted { $0.0 < $1.0 }
}

@Suite struct JSONTapeTests {
    // MARK: Differential: the tape read in place, the tree built from it, and Foundation

    @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
    func readsGeneratedDocumentsAsFoundationDoes(seed: UInt64) async throws {
        var generator = JSONTextGenerator(seed: seed)
        for index in 0..<400 {
            await Task.yield()  // lets other suites' tasks run on the cooperative pool meanwhile
            let text = generator.document()
            let bytes = Array(text.utf8)
            let tape = try #require(parsedTape(bytes), "seed \(seed) document \(index) rejected: \(text)")
            let value = tape.jsonValue(0)
            let decoded = try MessageBody(jsonBytes: bytes).decode(JSONValue.self)
            #expect(ExactJSON(value) == ExactJSON(decoded), "seed \(seed) document \(index): \(text)")
            let foundation = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
            let expected = try #require(NormalizedJSON(foundation: foundation))
            #expect(NormalizedJSON(value) == expected, "seed \(seed) document \(index): \(text)")
        }
    }

    @Test func readsEveryFixtureAlikeInPlaceAndAsATree() async throws {
        let documents = fixtureDocuments()
        if FileManager.default.fileExists(atPath: fixturesDirectory.path) {
            #expect(!documents.isEmpty, "no fixture documents found in \(fixturesDirectory.path)")
        }
        for (name, bytes) in documents {
            await Task.yield()  // lets other suites' tasks run on the cooperative pool meanwhile
            let (tape, reader) = tapeAndReader(bytes, maxDepth: 512)
            #expect(
                (tape == nil) == (reader == nil),
                "\(name): the body \(tape == nil ? "rejects" : "accepts"), JSONReader \(reader == nil ? "rejects" : "accepts")"
            )
            if let tape, let reader {
                #expect(ExactJSON(tape) == ExactJSON(reader), "\(name)")
                // Foundation on Linux drops U+FEFF inside strings ("\u{FEFF}" reads as ""):
                // no reference for a document holding one (the next test checks ours keep it).
                let holdsBOM = bytes.firstRange(of: [0xEF, 0xBB, 0xBF]) != nil
                let foundation =
                    holdsBOM
                    ? nil : try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
                if let foundation, let expected = NormalizedJSON(foundation: foundation) {
                    #expect(NormalizedJSON(tape) == expected, "\(name)")
                }
            }
        }
    }

    @Test func aByteOrderMarkInsideAStringIsKeptAsU_FEFF() throws {
        let bytes = Array("{\"body\":\"\u{FEFF}x\"}".utf8)
        #expect(bytes[9...11] == [0xEF, 0xBB, 0xBF])
        let (tape, reader) = tapeAndReader(bytes)
        #expect(tape == ["body": "\u{FEFF}x"])
        #expect(reader == ["body": "\u{FEFF}x"])
    }

    /// Mutated documents (a byte deleted, inserted, replaced or duplicated) read the
    /// same in place (a body from JSON bytes) as through `JSONReader`'s tree, and are
    /// accepted or rejected as `JSONSerialization` does, with the same value (FoundationReference).
    @Test(arguments: [21, 22, 23, 24] as [UInt64])
    func readsMutatedDocumentsAsJSONSerializationDoesInPlaceAndAsATree(seed: UInt64) async {
        var generator = JSONTextGenerator(seed: seed)
        var random = SeededRandom(seed: seed &* 7)
        let interesting: [UInt8] =
            Array(#",:[]{}"\/u0aeE.-+ tfn"#.utf8) + [
                0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF,
            ]
        var rejected = 0
        for index in 0..<1500 {
            await Task.yield()  // lets other suites' tasks run on the cooperative pool meanwhile
            var bytes = Array(generator.document().utf8)
            for _ in 0..<(1 + random.below(2)) {
                // `below(1)` draws no number; drawing one for an empty document keeps the cases each
                // seed has made since these tests began (their first generator drew one there).
                let at = bytes.isEmpty ? Int(random.next() % 1) : random.below(bytes.count + 1)
                switch random.below(4) {
                case 0 where at < bytes.count: bytes.remove(at: at)
                case 1: bytes.insert(interesting[random.below(interesting.count)], at: at)
                case 2 where at < bytes.count: bytes[at] = interesting[random.below(interesting.count)]
                default: if at < bytes.count { bytes.insert(bytes[at], at: at) }
                }
            }
            let (tape, reader) = tapeAndReader(bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect((tape == nil) == (reader == nil), "seed \(seed) case \(index): \(bytes)  \(text)")
            if let tape, let reader {
                #expect(ExactJSON(tape) == ExactJSON(reader), "seed \(seed) case \(index): \(text)")
            } else {
                rejected += 1
            }
            let result = Result { () throws(JSONReadError) in try JSONReader().read(bytes) }
            if let problem = FoundationReference.disagreement(bytes, result) {
                Issue.record("seed \(seed) case \(index) \(bytes): \(problem)")
            }
        }
        #expect(rejected > 300, "seed \(seed): \(rejected) of 1500 rejected")
    }

    // MARK: Strictness

    @Test(arguments: [
        "", " ", "[1,2,]", #"{"a":1,}"#, "[[1,],2]", #"{"a":1,"a":2}"#, "\u{FEFF}[1]", #"{"x":{"k":1,"k":1}}"#,
        "01", "-", "1.", ".5", "1e", "+1", "NaN", "Infinity", "-Infinity", "tru", "nul", "True", "[1 2]",
        #"{"a" 1}"#, #"{a:1}"#, "'a'", "// c\n1", "/* c */1", "[1]x", #""\x""#, #""\u12""#, #""\ud800""#,
        #""\udc00""#, #""\ud800\u0041""#, "\"a\tb\"", "\"\u{1}\"", #"{"a":1"#, "[", #"""#, #"{"é":1,"é":2}"#,
        #"{"a":1,"\u0061":2}"#, "{\"\u{E9}\":1,\"e\u{301}\":2}", "{\"K\":1,\"\u{212A}\":2}",
    ])
    func rejectsWhatRFC8259Rejects(text: String) {
        let bytes = Array(text.utf8)
        #expect(parsedTape(bytes) == nil, "accepted \(text.debugDescription)")
        #expect((try? JSONReader().read(bytes)) == nil, "JSONReader accepted \(text.debugDescription)")
    }

    @Test(
        arguments: [
            [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
            [0x22, 0xE0, 0x80, 0x80, 0x22], [0x22, 0xF0, 0x80, 0x80, 0x80, 0x22], [0x22, 0xC3, 0x22],
            [0x22, 0x80, 0x22], [0x22, 0xFF, 0x22], [0x22, 0xE2, 0x82, 0x22], [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],
        ] as [[UInt8]])
    func rejectsIllFormedUTF8(bytes: [UInt8]) {
        #expect(parsedTape(bytes) == nil)
        #expect((try? JSONReader().read(bytes)) == nil)
    }

    @Test func limitsDepthAlikeForBodiesAndTrees() {
        for depth in [0, 1, 2, 3, 10] {
            for nesting in 0...12 {
                for empty in [true, false] {
                    let inner = empty ? "" : "1"
                    let text = String(repeating: "[", count: nesting) + inner + String(repeating: "]", count: nesting)
                    let objects =
                        String(repeating: #"{"k":"#, count: nesting) + (empty ? "{}" : "1")
                        + String(repeating: "}", count: nesting)
                    for document in [text, objects] where !(document.isEmpty) {
                        let (tape, reader) = tapeAndReader(Array(document.utf8), maxDepth: depth)
                        #expect((tape == nil) == (reader == nil), "depth \(depth): \(document)")
                    }
                }
            }
        }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(parsedTape(Array(deep.utf8)) == nil)
        #expect(parsedTape(Array(deep.utf8), maxDepth: 200_000) != nil)
    }

    // MARK: Reading

    @Test func findsMembersByNameWithAndWithoutAHint() throws {
        let tape = try #require(
            parsedTape(Array(#"{"name":"addCartLine","id":7,"body":{"quantity":2,"attributes":{}}}"#.utf8)))
        let body = try #require(tape.member("body", in: 0))
        #expect(tape.kind(body) == .object)
        let quantity = try #require(tape.member("quantity", in: body))
        #expect(tape.smallInteger(quantity) == 2)
        #expect(tape.member("missing", in: 0) == nil)
        #expect(tape.member("quantity", in: 0) == nil, "members of nested objects are not the root's")
        let name = try #require(tape.member("name", in: 0))
        #expect(tape.string(name) == "addCartLine")
        var key = "id"
        let viaHint = key.withUTF8 { tape.member($0, in: 0, hint: name + 1) }
        #expect(viaHint.map { tape.smallInteger($0) } == 7)
        let wrongHint = key.withUTF8 { tape.member($0, in: 0, hint: name - 1) }
        #expect(wrongHint == viaHint)
    }

    @Test func findsEscapedAndCanonicallyEquivalentKeysAsADictionaryWould() throws {
        let tape = try #require(parsedTape(Array("{\"\\u0061b\":1,\"e\u{301}\":2,\"\u{212A}\":3}".utf8)))
        #expect(tape.member("ab", in: 0).flatMap { tape.smallInteger($0) } == 1)
        #expect(tape.member("\u{E9}", in: 0).flatMap { tape.smallInteger($0) } == 2)
        #expect(tape.member("K", in: 0).flatMap { tape.smallInteger($0) } == 3)
        let value = tape.jsonValue(0)
        #expect(
            value
                == .object([
                    "ab": .number(JSONNumber(unchecked: "1")), "\u{E9}": .number(JSONNumber(unchecked: "2")),
                    "K": .number(JSONNumber(unchecked: "3")),
                ]))
    }

    @Test func unescapesEveryEscape() throws {
        let text = #"["\"\\\/\b\f\n\r\t", "\u00e9\u65E5\ud83d\ude00", "a\u0000b", "plain", "日本😀"]"#
        let tape = try #require(parsedTape(Array(text.utf8)))
        let reader = try JSONReader().read(text)
        #expect(ExactJSON(tape.jsonValue(0)) == ExactJSON(reader))
        #expect(tape.string(1) == "\"\\/\u{8}\u{C}\n\r\t")
        #expect(tape.string(2) == "\u{E9}\u{65E5}\u{1F600}")
    }

    @Test func readsIntegersExactlyAndLeavesTheRestAsText() throws {
        let tape = try #require(
            parsedTape(
                Array("[0,-0,7,-42,999999999999999999,1000000000000000000,2.0,1e3,-9223372036854775808]".utf8)))
        let expected: [Int64?] = [0, nil, 7, -42, 999_999_999_999_999_999, nil, nil, nil, nil]
        for (offset, value) in expected.enumerated() {
            #expect(tape.smallInteger(1 + offset) == value, "element \(offset)")
        }
        #expect(String(decoding: tape.text(7), as: UTF8.self) == "2.0")
    }

    @Test func keepsItsOwnCopyOfTheBytes() throws {
        var bytes = Array(#"{"name":"sdkReady"}"#.utf8)
        let tape = try #require(parsedTape(bytes))
        for index in bytes.indices { bytes[index] = 0x20 }
        #expect(tape.member("name", in: 0).map { tape.string($0) } == "sdkReady")
    }

    @Test func parsesOnManyThreadsAtOnce() async {
        let documents = (0..<64).map { index in
            Array(#"{"n":\#(index),"s":"\#(String(repeating: "x", count: index))"}"#.utf8)
        }
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<50 {
                        for (index, document) in documents.enumerated() {
                            guard let tape = parsedTape(document),
                                tape.member("n", in: 0).flatMap({ tape.smallInteger($0) }) == Int64(index)
                            else { return false }
                        }
                    }
                    return true
                }
            }
            for await result in group { #expect(result) }
        }
    }
}
