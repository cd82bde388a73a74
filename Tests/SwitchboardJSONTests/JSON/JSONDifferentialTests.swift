import Foundation
import Testing

@testable import SwitchboardJSON

/// JSONReader against JSONSerialization: the same values on valid JSON, and
/// stricter where Foundation is lenient.
@Suite struct JSONDifferentialTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func agreesWithJSONSerializationOnGeneratedDocuments(seed: UInt64) async throws {
        var generator = JSONTextGenerator(seed: seed)
        for index in 0..<500 {
            await Task.yield()  // lets other suites' tasks run on the cooperative pool meanwhile
            let text = generator.document()
            let ours = try JSONReader().read(text)
            let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
            let expected = try #require(NormalizedJSON(foundation: theirs), "document \(index): \(text)")
            #expect(NormalizedJSON(ours) == expected, "seed \(seed) document \(index): \(text)")
        }
    }

    @Test(arguments: [
        "[1,2,]", #"{"a":1,}"#, "[[1,],2]", #"{"a":{"b":[true,],},}"#, "[1,]  ", #"{"a":1,"a":2}"#,
        "\u{FEFF}[1]", #"{"x":{"k":1,"k":1}}"#,
    ])
    func rejectsWhatJSONSerializationAccepts(text: String) {
        let foundationAccepts =
            (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil
        var rejected = false
        do {
            _ = try JSONReader().read(text)
        } catch {
            rejected = true
            #expect(
                [.trailingComma, .byteOrderMark].contains(error.kind)
                    || {
                        if case .duplicateKey = error.kind { return true }
                        return false
                    }(), "\(error)")
        }
        #expect(rejected, "\(text) accepted; Foundation accepts it: \(foundationAccepts)")
    }

    /// Valid JSON that JSONSerialization refuses: a number beyond Double's range. The
    /// strict readers keep it (its exact text), and decoding it as a Double is the error.
    /// (SwitchboardFuzzMessages allows exactly this when Foundation rejects a line.)
    @Test(arguments: ["1e400", "[-1e400]", #"{"quantity":1E+999}"#])
    func acceptsANumberBeyondDoubleThatJSONSerializationRefuses(text: String) throws {
        #expect(throws: (any Error).self) {
            try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        }
        let value = try JSONReader().read(text)
        let tape = try #require(parsedTape(Array(text.utf8)))
        #expect(tape.jsonValue(0) == value)
    }

    /// JSONSerialization also reads UTF-16 and UTF-32, which it detects from NUL bytes
    /// among the first four (RFC 4627), dropping a last incomplete code unit. The strict
    /// readers take UTF-8 only (RFC 8259), where a raw NUL is never valid; the wire format
    /// calls such a line malformed (OneScannerTests). Found by SwitchboardFuzzMessages: the
    /// first two inputs are its (UTF-32LE `1` and UTF-16BE `0`, each with junk after it).
    @Test(
        arguments: [
            [0x31, 0x00, 0x00, 0x00, 0x07, 0x34, 0x26], [0x00, 0x30, 0x5D],
            Array(#"{"name":"sdkReady"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
        ] as [[UInt8]])
    func rejectsUTF16AndUTF32ThatJSONSerializationReads(bytes: [UInt8]) throws {
        _ = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
        #expect(parsedTape(bytes) == nil)
        #expect(throws: JSONReadError.self) { try JSONReader().read(bytes) }
    }

    /// A generated document with a comma put before its closing bracket: the document is
    /// read, the broken one refused for that trailing comma.
    @Test(arguments: [99] as [UInt64])
    func rejectsGeneratedDocumentsWithATrailingCommaInserted(seed: UInt64) throws {
        var generator = JSONTextGenerator(seed: seed)
        var checked = 0
        while checked < 200 {
            let text = generator.document()
            // The document's own closing bracket (the last non-whitespace character), not one inside a string.
            guard let close = text.lastIndex(where: { !$0.isWhitespace }), text[close] == "]" || text[close] == "}"
            else { continue }
            let before = text[..<close].last(where: { !$0.isWhitespace })
            guard before != "[", before != "{" else { continue }
            var broken = text
            broken.insert(",", at: close)
            #expect(throws: Never.self, "seed \(seed): \(text)") { try JSONReader().read(text) }
            let error = #expect(throws: JSONReadError.self, "seed \(seed): \(broken)") { try JSONReader().read(broken) }
            #expect(error?.kind == .trailingComma, "seed \(seed): \(broken): \(String(describing: error))")
            checked += 1
        }
    }
}
