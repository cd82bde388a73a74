import Foundation
import Switchboard
import SwitchboardWire
import Testing

/// One strict scanner serves every reader of JSON bytes: `JSONReader`,
/// `MessageBody(jsonBytes:)` and the wire format (one thread and read-ahead),
/// so a text is accepted or rejected alike by all, with the same error.
@Suite struct OneScannerTests {
    static let rejected: [String] = [
        "", "   ", "[1,2,]", #"{"a":1,}"#, #"{"a":1,"a":2}"#, "\u{FEFF}{}", "01", "-", "1.", "1e", "-Infinity", "NaN",
        "tru", "True", "undefined", "[1 2]", #"{"a" 1}"#, "{a:1}", "'a'", "// c", "/* c */{}", "{}x", #""\x""#,
        #""\u12""#, #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800\uzzzz""#, "\"a\tb\"", #"{"a":1"#, "[",
        #"""#, #""\"#, "{\"\u{E9}\":1,\"e\u{301}\":2}", #"{"name":"sdkReady","body":{"k":[1,{"x":1,"x":2}]}}"#,
        "[[[[[[1]]]]]]",
    ]

    static let invalidUTF8: [[UInt8]] = [
        [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],
        [0x22, 0x80, 0x22], [0x22, 0xE2, 0x82], [0x7B, 0xFF, 0x7D],
    ]

    static var inputs: [[UInt8]] { rejected.map { Array($0.utf8) } + invalidUTF8 }

    @Test(arguments: OneScannerTests.inputs)
    func everyReaderRejectsWithTheSameError(bytes: [UInt8]) throws {
        let depth = 5
        let readerError = #expect(throws: JSONReadError.self) { try JSONReader(maxDepth: depth).read(bytes) }
        let bodyError = #expect(throws: JSONReadError.self) { try MessageBody(jsonBytes: bytes, maxDepth: depth) }
        let expected = try #require(readerError)
        #expect(bodyError == expected)
        #expect(expected.offset >= 0 && expected.offset <= bytes.count)

        let message = WireMalformed(readError: expected).message
        var session = WireSession(
            router: Router(), options: WireSession.Options(reader: JSONReader(maxDepth: depth)))
        let isBlank = bytes.allSatisfy { $0 == 0x20 }
        let direct = bytes.withUnsafeBufferPointer { session.process(line: $0, number: 1, source: nil) }
        let prepared = bytes.withUnsafeBufferPointer {
            WireSession.prepare($0, maxLineBytes: 1 << 20, maxDepth: depth)
        }
        let ahead = session.process(prepared: prepared, number: 1, source: nil)
        if isBlank {
            #expect(direct == nil && ahead == nil, "a blank line is not a message")
            return
        }
        for outcome in [direct, ahead] {
            #expect(outcome?.kind == .malformed)
            #expect(outcome?.error?.message == message)
        }
    }

    /// JSON that is not a message object (or spells a key with an escape) is read
    /// once, as a `JSONValue` built from the tape: the same outcome as `WireMessage` gives.
    @Test(arguments: [
        "[1]", "7", #""sdkReady""#, #"{"name":1}"#, #"{"body":{}}"#, #"{"name":"no such"}"#,
        #"{"name":"sdkReady","id":[1]}"#, #"{"n\u0061me":"sdkReady","id":"r1"}"#,
        #"{"name":"sdkReady","\u0069d":7}"#,
    ])
    func otherJSONIsReadFromTheSameTape(text: String) throws {
        let bytes = Array(text.utf8)
        var session = WireSession(router: Router())
        let direct = bytes.withUnsafeBufferPointer { session.process(line: $0, number: 1, source: nil) }
        let prepared = bytes.withUnsafeBufferPointer { WireSession.prepare($0, maxLineBytes: 1 << 20, maxDepth: 512) }
        let ahead = session.process(prepared: prepared, number: 1, source: nil)
        var reference = WireSession(router: Router())
        let expected = reference.process(value: try JSONReader().read(bytes), line: 1, source: nil)
        #expect(direct == expected)
        #expect(ahead == expected)
    }
}
