import Foundation
import Testing

@testable import Switchboard

/// JSONReader against JSONSerialization: the same values on valid JSON, and
/// stricter where Foundation is lenient.
@Suite struct JSONDifferentialTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func agreesWithJSONSerializationOnGeneratedDocuments(seed: UInt64) throws {
        var generator = JSONTextGenerator(seed: seed)
        var compared = 0
        for index in 0..<500 {
            let text = generator.document()
            let ours = try JSONReader().read(text)
            let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
            let expected = try #require(NormalizedJSON(foundation: theirs), "document \(index): \(text)")
            #expect(NormalizedJSON(ours) == expected, "seed \(seed) document \(index): \(text)")
            compared += 1
        }
        #expect(compared == 500)
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
                [.trailingComma, .byteOrderMark].contains(error.kind) || {
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
        let tape = try #require(JSONTape.parse(Array(text.utf8)))
        #expect(tape.jsonValue(0) == value)
    }

    /// JSONSerialization reads a one-digit top-level number followed straight by a NUL
    /// byte as that number and ignores the rest (`12\0`, `2.5\0` and `[1]\0` it
    /// rejects). The strict readers call it trailing content.
    /// (Found by SwitchboardFuzzMessages: the line `31 00 00 00 07 34 26`.)
    @Test(arguments: ["1\u{0}\u{0}\u{0}\u{7}4&", "1\u{0}", "0\u{0}}"])
    func rejectsContentAfterANULThatJSONSerializationIgnores(text: String) throws {
        let bytes = Array(text.utf8)
        let foundation = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
        #expect(foundation is NSNumber)
        #expect(JSONTape.parse(bytes) == nil)
        do {
            _ = try JSONReader().read(bytes)
            Issue.record("\(text.debugDescription) accepted")
        } catch {
            #expect(error.kind == .trailingContent, "\(error)")
        }
        // The line is malformed for the CLI, never routed.
        guard case .failure(let problem) = bytes.withUnsafeBufferPointer({ WireMessage.parse($0) }) else {
            Issue.record("\(text.debugDescription) parsed as a message")
            return
        }
        #expect(problem.message.hasPrefix("not valid JSON: "))
    }

    @Test func rejectsGeneratedDocumentsWithATrailingCommaInserted() throws {
        var generator = JSONTextGenerator(seed: 99)
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
            #expect(throws: JSONReadError.self, "\(broken)") { try JSONReader().read(broken) }
            checked += 1
        }
    }
}
