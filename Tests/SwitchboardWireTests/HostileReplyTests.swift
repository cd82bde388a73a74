import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWire
import Testing

/// Where a reply keeps a container past its use.
private final class ReplyShelf: @unchecked Sendable {
    var keyed: KeyedEncodingContainer<ReplyKey>?
}

private struct ReplyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ stringValue: String) { self.stringValue = stringValue }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A reply whose member writes through the reply's own container before opening its own.
private struct ParentFirstReply: Encodable, Sendable {
    struct Child: Encodable {
        let shelf: ReplyShelf
        func encode(to encoder: any Encoder) throws {
            if var parent = shelf.keyed { try parent.encode(2, forKey: ReplyKey("b")) }
            var container = encoder.container(keyedBy: ReplyKey.self)
            try container.encode(1, forKey: ReplyKey("x"))
        }
    }
    let shelf = ReplyShelf()
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReplyKey.self)
        shelf.keyed = container
        try container.encode(Child(shelf: shelf), forKey: ReplyKey("a"))
    }
}

/// A reply of `depth` objects, each inside the one before, made as it is encoded.
private struct DeepReply: Encodable, Sendable {
    let depth: Int
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReplyKey.self)
        if depth > 1 { try container.encode(DeepReply(depth: depth - 1), forKey: ReplyKey("next")) }
    }
}

/// A reply that writes many members, then throws from a nested value.
private struct ThrowsLateReply: Encodable, Sendable {
    struct Failure: Error {}
    struct Thrower: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: ReplyKey.self)
            try container.encode("partial", forKey: ReplyKey("p"))
            throw Failure()
        }
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReplyKey.self)
        for index in 0..<100 { try container.encode(index, forKey: ReplyKey("k\(index)")) }
        try container.encode(Thrower(), forKey: ReplyKey("last"))
    }
}

private struct ParentFirstRequest: Request {
    static let channel: Channel = "parentFirst"
    typealias Reply = ParentFirstReply
}

private struct DeepRequest: Request {
    static let channel: Channel = "deep"
    typealias Reply = DeepReply
}

private struct ThrowsLateRequest: Request {
    static let channel: Channel = "throwsLate"
    typealias Reply = ThrowsLateReply
}

private struct PlainRequest: Request {
    static let channel: Channel = "plain"
    typealias Reply = [String: Int]
}

/// Hostile replies through `WireSession`: every outcome line is valid JSON, a reply that does not
/// encode is `failed` with its path, and nothing of it reaches the next line.
@Suite struct HostileReplyTests {
    @Test func hostileRepliesGiveValidOutcomeLinesAndLeaveTheNextOneClean() async throws {
        let router = Router()
        let tokens = [
            try router.respond(to: ParentFirstRequest.self) { _, reply in reply.succeed(ParentFirstReply()) },
            try router.respond(to: DeepRequest.self) { _, reply in reply.succeed(DeepReply(depth: 100_000)) },
            try router.respond(to: ThrowsLateRequest.self) { _, reply in reply.succeed(ThrowsLateReply()) },
            try router.respond(to: PlainRequest.self) { _, reply in reply.succeed(["ok": 1]) },
        ]
        let lines = await onDispatchThread { () -> [String] in
            var session = WireSession(router: router)
            var lines: [String] = []
            for (number, name) in ["parentFirst", "plain", "deep", "plain", "throwsLate", "plain"].enumerated() {
                let outcome = session.process(
                    line: Array(#"{"name":"\#(name)"}"#.utf8), number: number + 1, source: nil)
                lines.append(outcome?.jsonLine ?? "")
            }
            return lines
        }
        for line in lines {
            #expect(throws: Never.self, "valid JSON: \(line)") { try JSONReader().read(Array(line.utf8)) }
        }
        #expect(lines[0] == #"{"line":1,"name":"parentFirst","outcome":"replied","reply":{"b":2,"a":{"x":1}}}"# + "\n")
        let nested = "reply" + String(repeating: ".next", count: DecodingOptions.defaultMaxDepth)
        #expect(
            lines[2]
                == #"{"line":3,"name":"deep","outcome":"failed","error":{"kind":"failed","channel":"deep","message":"the reply could not be encoded: "#
                + nested + #": cannot encode a value nested more than 512 levels deep"}}"# + "\n")
        #expect(lines[4].contains(#""outcome":"failed""#) && lines[4].contains("reply.last: Failure()"))
        for (index, number) in [(1, 2), (3, 4), (5, 6)] {
            #expect(lines[index] == #"{"line":\#(number),"name":"plain","outcome":"replied","reply":{"ok":1}}"# + "\n")
        }
        for token in tokens { token.cancel() }
    }
}
