import Foundation
import SwitchboardTestSupport
import SwitchboardWire
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// `n` arrays nested in each other around a 0, as JSON text.
private func nestedArrays(_ depth: Int) -> [UInt8] {
    Array((String(repeating: "[", count: depth) + "0" + String(repeating: "]", count: depth)).utf8)
}

private struct Note: Event {
    static let channel: Channel = "note"
    let data: JSONValue
}

/// The limits that protect a host app, each at its default boundary
/// (docs/reliability.md lists them): one more than the limit is refused with
/// an error that names the limit, and the router goes on working.
@Suite struct LimitsTests {
    @Test func theDefaultsAreTheDocumentedOnes() {
        let options = RouterOptions()
        #expect(options.decoding.maxDepth == 512)
        #expect(options.defaultDeadline == .seconds(10))
        #expect(options.maxKeptPerChannel == 100)
        #expect(options.maxKeptTotal == 1_000)
        #expect(JSONReader().maxDepth == 512)
        #expect(MessageBody.defaultMaxJSONBytes == 1 << 20)
        #expect(WireSession.Options().maxLineBytes == 1 << 20)
        #expect(Channel.maxLength == 256)
    }

    @Test func jsonBytesUpToTheByteLimitAreReadAndOneMoreIsRefused() throws {
        let limit = 64
        let text = "[" + String(repeating: " ", count: limit - 3) + "1]"
        #expect(text.utf8.count == limit)
        let body = try MessageBody(jsonBytes: Array(text.utf8), maxBytes: limit)
        #expect(try body.decode([Int].self) == [1])
        do {
            _ = try MessageBody(jsonBytes: Array((text + " ").utf8), maxBytes: limit)
            Issue.record("a text one byte over the limit was read")
        } catch {
            #expect(error.kind == .tooLarge(limit: limit))
            #expect(error.description == "the text is 65 bytes long; the limit is 64 (maxBytes) at byte 64 (column 65)")
        }
    }

    @Test func jsonBytesHaveAOneMebibyteLimitByDefault() throws {
        var bytes = [UInt8](repeating: 0x20, count: MessageBody.defaultMaxJSONBytes)
        bytes[0] = UInt8(ascii: "0")
        #expect(try MessageBody(jsonBytes: bytes).decode(Int.self) == 0)
        bytes.append(0x20)
        #expect(throws: JSONReadError.self) { try MessageBody(jsonBytes: bytes) }
    }

    @Test func nestingUpToTheDepthLimitIsReadOnEveryPathAndOneMoreIsRefused() throws {
        let atLimit = nestedArrays(512)
        let overLimit = nestedArrays(513)
        // The strict reader, the tape (MessageBody from bytes) and the decoder over a Foundation tree.
        #expect(throws: Never.self) { try JSONReader().read(atLimit) }
        #expect(try MessageBody(jsonBytes: atLimit).decode(JSONValue.self) != .null)
        #expect(throws: Never.self) { try JSONValue(foundation: JSONSerialization.jsonObject(with: Data(atLimit))) }

        #expect(throws: JSONReadError.self) { try JSONReader().read(overLimit) }
        do {
            _ = try MessageBody(jsonBytes: overLimit)
            Issue.record("513 levels were read")
        } catch {
            #expect(error.kind == .nestingTooDeep(limit: 512))
        }
        // JSONSerialization itself stops at 512 levels; a tree built in code is stopped by the decoder.
        #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(overLimit)) }
        var tree: Any = 0
        for _ in 0..<513 { tree = [tree] }
        #expect(throws: BodyDecodingError.self) { try JSONValue(foundation: tree) }
    }

    @Test func aHundredThousandLevelsAreRefusedOnEveryByteAndTreePathWithoutRecursing() throws {
        let deep = nestedArrays(100_000)
        #expect(throws: JSONReadError.self) { try JSONReader().read(deep) }
        #expect(throws: JSONReadError.self) { try MessageBody(jsonBytes: deep) }
        #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: Data(deep)) }

        // The wire session: the deep line is malformed, the next one handled.
        let router = Router()
        let token = router.on(Ready.self) { _ in }
        var session = WireSession(router: router)
        let line = Array(#"{"name":"sdkReady","body":"#.utf8) + deep + Array("}".utf8)
        let outcome = session.process(line: line, number: 1, source: nil)
        #expect(outcome?.kind == .malformed)
        #expect(outcome?.error?.message.contains("nested deeper than the limit of 512") == true)
        #expect(session.process(line: Array(#"{"name":"sdkReady"}"#.utf8), number: 2, source: nil)?.kind == .handled)
        withExtendedLifetime(token) {}
    }

    @Test func aBodyNestedPastTheDecodersLimitIsInvalidAndTheNextMessageIsHandled() throws {
        let router = Router()
        let seen = Locked<[JSONValue]>([])
        let token = router.on(Note.self) { note in seen.withLock { $0.append(note.data) } }
        var deep: Any = 1
        for _ in 0..<600 { deep = [deep] }
        guard case .invalid(let error) = router.receive(name: "note", body: ["data": deep]) else {
            Issue.record("a 600-deep body was not invalid")
            return
        }
        #expect(error.message == "The value is nested more than 512 levels deep (DecodingOptions.maxDepth).")
        #expect(router.receive(name: "note", body: ["data": 2]).kind == .handled)
        #expect(seen.withLock { $0 } == [2])
        withExtendedLifetime(token) {}
    }

    @Test func keptMessagesStopAtThePerChannelAndTotalDefaults() {
        let router = Router()
        let keepMany = BufferPolicy.keep(max: 10_000, for: .seconds(600))
        router.setBufferPolicy(keepMany, for: "a")
        for count in 1...101 { _ = router.receive(name: "a", body: ["count": count]) }
        #expect(router.keptCount(for: "a") == 100, "maxKeptPerChannel caps even a larger policy")

        let all = Router(options: RouterOptions(defaultBufferPolicy: keepMany))
        for channel in 0..<11 {
            for count in 1...100 { _ = all.receive(name: "c\(channel)", body: ["count": count]) }
        }
        #expect(all.keptTotal == 1_000, "maxKeptTotal caps all channels together")
    }

    @Test func channelNamesUpToTheLengthLimitAreAcceptedAndOneByteMoreIsNot() async throws {
        #expect(throws: Never.self) { try Channel(validating: String(repeating: "c", count: 256)) }
        #expect(throws: Never.self) { try Channel(validating: String(repeating: "\u{20AC}", count: 85) + "c") }
        #expect(throws: ChannelNameError.self) { try Channel(validating: String(repeating: "c", count: 257)) }
        #expect(throws: ChannelNameError.self) { try Channel(validating: String(repeating: "\u{20AC}", count: 86)) }
        // Ten million characters: received off the cooperative pool, so other suites' tasks keep running.
        let kind = await Stress.offThePool {
            Router().receive(name: String(repeating: "c", count: 10_000_000), body: nil).kind
        }
        #expect(kind == .invalidChannel)
    }
}

/// A value at the default depth limit is the deepest any input can make: every
/// operation on one must fit in the smallest default thread stack a host app
/// runs handlers on (512 KiB, Apple platforms' secondary threads), even in a
/// debug build.
@Suite struct DepthLimitStackTests {
    /// 512 KiB; 2 MiB under AddressSanitizer, whose redzones make every frame
    /// several times larger than in the build a host app ships.
    static let stackSize = AddressSanitizer.stackSize(512 << 10)

    /// Runs `work` on a new thread with a ``stackSize`` stack and waits for it.
    private func onSmallStack(_ work: @escaping @Sendable () -> Void) async {
        await onDispatchThread(stackSize: Self.stackSize, work)
    }

    /// 512 levels: objects and arrays alternating, objects only, arrays only (each kind of
    /// level recurses through other code, and a frame of one kind may be larger).
    static let shapes = [
        String(repeating: #"{"a":["#, count: 256) + "0" + String(repeating: "]}", count: 256),
        String(repeating: #"{"a":"#, count: 512) + "0" + String(repeating: "}", count: 512),
        String(repeating: "[", count: 512) + "0" + String(repeating: "]", count: 512),
    ]

    @Test(arguments: DepthLimitStackTests.shapes)
    func everyOperationOnAValueAtTheDepthLimitFitsInASmallThreadStack(_ text: String) async {
        let results = Locked<[String]>([])
        await onSmallStack {
            func note(_ line: String) { results.withLock { $0.append(line) } }
            do {
                let bytes = Array(text.utf8)
                let value = try JSONReader().read(bytes)
                note("read")
                let body = try MessageBody(jsonBytes: bytes)
                note("tape")
                let fromTape = try body.decode(JSONValue.self)
                note("decoded")
                note("equal \(value == fromTape)")
                var hasher = Hasher()
                value.hash(into: &hasher)
                _ = hasher.finalize()
                note("hashed")
                note("description \(String(describing: value) == text)")
                let foundation = value.foundationValue
                note("foundationValue")
                let back = try JSONValue(foundation: foundation)
                note("foundation round trip \(back == value)")
                let viaEncoder = try BodyEncoder().encodeJSON(value)
                note("BodyEncoder \(viaEncoder == Array(text.utf8))")
                var writer = JSONWriter()
                writer.write(value)
                note("JSONWriter \(writer.bytes == Array(text.utf8))")
                let router = Router()
                let seen = Locked(0)
                let token = router.on(DeepNote.self) { _ in seen.withLock { $0 += 1 } }
                note("routed \(router.receive(name: "deepNote", body: foundation).kind)")
                withExtendedLifetime(token) {}
            } catch {
                note("error \(error)")
            }
        }
        #expect(
            results.withLock { $0 } == [
                "read", "tape", "decoded", "equal true", "hashed", "description true", "foundationValue",
                "foundation round trip true", "BodyEncoder true", "JSONWriter true", "routed handled",
            ])
    }
}

/// An event whose whole body is free-form JSON.
private struct DeepNote: Event {
    static let channel: Channel = "deepNote"
    let data: JSONValue

    init(from decoder: any Decoder) throws {
        data = try JSONValue(from: decoder)
    }
}

@Suite struct DeepConversionPathTests {
    /// The decoder converts shallow trees to `JSONValue` by recursion and deep ones
    /// with a stack of its own: an error names the same kind of path either way.
    @Test(arguments: [3, 31, 32, 33, 100, 511])
    func aBadNumberDeepInsideAFreeFormBodyIsReportedAtItsPath(depth: Int) throws {
        var tree: Any = ["ok": 1, "bad": Double.infinity] as [String: Any]
        for _ in 0..<depth { tree = [tree] }
        do {
            _ = try JSONValue(foundation: tree)
            Issue.record("an infinite number converted")
        } catch {
            #expect(error.path == "body" + String(repeating: "[0]", count: depth) + ".bad")
            #expect(error.message == "Number inf is not representable in JSON.")
        }
    }
}
