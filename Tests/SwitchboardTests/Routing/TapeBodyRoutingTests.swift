import Foundation
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// Bodies read from JSON bytes (the scanner's tape, read in place) through the router: a handler
/// gets the decoded value or the message is invalid, and a decoder a handler keeps past its
/// decode stays usable after the router has let go of the body.
@Suite struct TapeBodyRoutingTests {
    @Test func theRouterDeliversTapeBodies() throws {
        struct Add: Event {
            static let channel: Channel = "addCartLine"
            let quantity: Int
        }
        let router = Router()
        let seen = Locked([Int]())
        let token = router.on(Add.self) { event in seen.withLock { $0.append(event.quantity) } }
        let good = router.receive(
            Message(channel: "addCartLine", body: try MessageBody(jsonBytes: Array(#"{"quantity":3}"#.utf8))))
        let bad = router.receive(
            Message(channel: "addCartLine", body: try MessageBody(jsonBytes: Array(#"{"quantity":"3"}"#.utf8))))
        #expect(seen.withLock { $0 } == [3])
        guard case .handled = good else {
            Issue.record("\(good)")
            return
        }
        guard case .invalid(let error) = bad else {
            Issue.record("\(bad)")
            return
        }
        #expect(error.description == "body.quantity: expected an integer, found a string")
        _ = token
    }

    @Test func aDecoderKeptByAHandlerThroughTheRouterStaysUsable() throws {
        let text = #"{"name":"first","tags":["a","b"]}"#
        do {
            let router = Router()
            let token = router.on(KeepsItsDecoder.self) { (_: KeepsItsDecoder) in }
            let outcome = router.receive(
                name: KeepsItsDecoder.channel.name, body: try MessageBody(jsonBytes: Array(text.utf8)),
                replyHandler: nil)
            #expect(outcome.kind == .handled)
            token.cancel()
        }
        let kept = try #require(KeepsItsDecoder.kept.withLock { $0 })
        KeepsItsDecoder.kept.withLock { $0 = nil }
        // Churn the heap so freed storage is reused before the kept decoder is read.
        var churn: [[UInt8]] = []
        for size in 1...64 { churn.append([UInt8](repeating: 0xEE, count: size * 24)) }
        _ = churn.count
        let whole = try kept.decoder.singleValueContainer().decode(JSONValue.self)
        #expect(whole == ["name": "first", "tags": ["a", "b"]])
        var tags = kept.tags
        #expect(try tags.decode(String.self) == "a")
        #expect(try tags.decode(String.self) == "b")
        let keyed = try kept.decoder.container(keyedBy: KeepsItsDecoder.CodingKeys.self)
        #expect(try keyed.decode(String.self, forKey: .name) == "first")
    }
}

/// An event that keeps its decoder and a container past `init(from:)` (legal Swift, if unusual).
private struct KeepsItsDecoder: Event {
    static let channel: Channel = "keepsItsDecoder"

    enum CodingKeys: String, CodingKey {
        case name, tags
    }

    struct Kept: @unchecked Sendable {
        // `@unchecked`: written by one decode, read by the test after it.
        let decoder: any Decoder
        let tags: any UnkeyedDecodingContainer
    }

    static let kept = Locked<Kept?>(nil)

    let name: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        let tags = try container.nestedUnkeyedContainer(forKey: .tags)
        KeepsItsDecoder.kept.withLock { $0 = Kept(decoder: decoder, tags: tags) }
    }
}
