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

    /// Text `JSONSerialization` reads as UTF-16 or UTF-32 (NUL bytes among the first four) is
    /// not valid JSON to the wire format, which takes UTF-8 only (JSONDifferentialTests has the
    /// scanner's side). Found by SwitchboardFuzzMessages: the first two inputs are its.
    @Test(
        arguments: [
            [0x31, 0x00, 0x00, 0x00, 0x07, 0x34, 0x26], [0x00, 0x30, 0x5D],
            Array(#"{"name":"sdkReady"}"#.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
        ] as [[UInt8]])
    func aLineInUTF16OrUTF32IsNotValidJSON(bytes: [UInt8]) throws {
        guard case .failure(let problem) = bytes.withUnsafeBufferPointer({ WireMessage.parse($0) }) else {
            Issue.record("\(bytes) parsed as a message")
            return
        }
        #expect(problem.message.hasPrefix("not valid JSON: "))
    }

    /// A session whose reader's limit is raised past ``DecodingOptions/maxDepthCeiling`` still
    /// stops there: a line nested deeper is malformed, and the next line is handled.
    @Test func aSessionWithARaisedLimitReportsADeepLineAsMalformedAndGoesOn() throws {
        let ceiling = DecodingOptions.maxDepthCeiling
        let router = Router()
        let token = router.on(FreeForm.self) { _ in }
        var session = WireSession(router: router, options: .init(reader: JSONReader(maxDepth: Int.max)))
        let deepArrays = String(repeating: "[", count: 300_000) + "0" + String(repeating: "]", count: 300_000)
        let deepObjects =
            String(repeating: #"{"a":"#, count: ceiling + 1) + "0" + String(repeating: "}", count: ceiling + 1)
        for deep in [deepArrays, deepObjects] {
            let line = Array(#"{"name":"freeForm","body":{"data":\#(deep)}}"#.utf8)
            let outcome = session.process(line: line, number: 1, source: nil)
            #expect(outcome?.kind == .malformed)
            #expect(outcome?.error?.message.contains("nested deeper than the limit of \(ceiling)") == true)
        }
        let fine = Array(#"{"name":"freeForm","body":{"data":[[1]]}}"#.utf8)
        #expect(session.process(line: fine, number: 2, source: nil)?.kind == .handled)
        withExtendedLifetime(token) {}
    }
}

/// A body whose one member is free-form JSON.
private struct FreeForm: Event {
    static let channel: Channel = "freeForm"
    let data: JSONValue
}
