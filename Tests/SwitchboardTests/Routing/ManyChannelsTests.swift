import Foundation
import Switchboard
import Testing

/// An event whose channel is read from a variable when it registers, so one type
/// can register thousands of channels (the router reads `Event.channel` once, at registration).
struct NumberedEvent: Event {
    static let current = Locked<Channel>("numbered0")
    /// Held while one registration sets `current` and registers.
    static let registering = Locked(())
    static var channel: Channel { current.withLock { $0 } }
    let n: Int?
}

@Suite(.serialized) struct ManyChannelsTests {
    /// Registers `NumberedEvent` on `channel` (serialised: the channel is a shared variable).
    static func register(_ router: Router, on channel: Channel, _ handler: @escaping @Sendable (Channel) -> Void)
        -> Registration
    {
        NumberedEvent.registering.withLock { _ in
            NumberedEvent.current.withLock { $0 = channel }
            return router.on(NumberedEvent.self) { _, context in handler(context.channel) }
        }
    }

    @Test func thousandsOfChannelsRouteRegisterAndCancelIndependently() async throws {
        let router = Router()
        let count = 3_000
        let seen = Tally<String>()
        var tokens: [Registration] = []
        for index in 0..<count {
            if index % 100 == 0 { await Task.yield() }  // lets other suites' tasks run on the pool
            tokens.append(Self.register(router, on: try Channel(validating: "channel\(index)")) { seen.add($0.name) })
        }
        #expect(router.manifest.channels.count == count)
        await Task.yield()
        // Checked in one expectation each (an expectation per message would make the test slow).
        let unhandled = (0..<count).filter { router.receive(name: "channel\($0)", body: ["n": $0]).kind != .handled }
        #expect(unhandled.isEmpty)
        #expect(seen.all.count == count && seen.repeated.isEmpty)
        // Cancel every other one.
        await Task.yield()
        for index in stride(from: 0, to: count, by: 2) { tokens[index].cancel() }
        await Task.yield()
        let wrong = (0..<count).filter { index in
            let expected: Outcome.Kind = index % 2 == 0 ? .unhandled : .handled
            return router.receive(name: "channel\(index)", body: ["n": index]).kind != expected
        }
        #expect(wrong.isEmpty)
        let live = router.manifest.channels.map(\.name)
        #expect(live == (0..<count).filter { $0 % 2 == 1 }.map { "channel\($0)" }.sorted())
        tokens.removeAll()
        #expect(router.manifest.channels.isEmpty)
        #expect(router.receive(name: "channel1", body: ["n": 1]).kind == .unhandled)
    }

    @Test func aCanonicallyEquivalentNameReachesTheRegisteredChannel() {
        let router = Router()
        let seen = RouterRecorder<String>()
        // "é" precomposed, received decomposed; "K" received as the Kelvin sign.
        let first = Self.register(router, on: "caf\u{E9}") { seen.append($0.name) }
        let second = Self.register(router, on: "Kelvin") { seen.append($0.name) }
        #expect(router.receive(name: "cafe\u{301}", body: ["n": 1]).kind == .handled)
        #expect(router.receive(name: "\u{212A}elvin", body: ["n": 1]).kind == .handled)
        #expect(seen.count == 2)
        // Unicode 16 (Kirat Rai): U+16D63 U+16D67 is U+16D69 to `==`, which Foundation's NFC on Linux does not know.
        let third = Self.register(router, on: "kirat\u{16D69}") { seen.append($0.name) }
        if "kirat\u{16D63}\u{16D67}" == "kirat\u{16D69}" {
            #expect(router.receive(name: "kirat\u{16D63}\u{16D67}", body: ["n": 1]).kind == .handled)
            #expect(seen.count == 3)
        }
        withExtendedLifetime((first, second, third)) {}
    }

    @Test func receiveKeepsRoutingWhileAnotherThreadRegistersAndCancelsManyChannels() async {
        let router = Router()
        let handled = Locked(0)
        let anchor = router.on(StressPing.self) { _ in handled.withLock { $0 += 1 } }
        let stop = Locked(false)
        await Stress.onThreads(2) { thread in
            if thread == 0 {
                var tokens: [Registration] = []
                for index in 0..<(2_000 * Stress.scale) {
                    tokens.append(Self.register(router, on: Channel(stringLiteral: "churn\(index)")) { _ in })
                    if index % 3 == 0 { tokens.removeFirst().cancel() }
                }
                tokens.removeAll()
                stop.withLock { $0 = true }
            } else {
                while !stop.withLock({ $0 }) { _ = router.receive(name: "stressPing", body: ["seq": 1]) }
            }
        }
        #expect(handled.withLock { $0 } > 0)
        #expect(router.manifest.channels == [StressPing.channel])
        withExtendedLifetime(anchor) {}
    }
}

/// A ``MessageBody`` (or a ``JSONValue``) given where a loosely typed body is taken routes as itself.
@Suite struct BodyOverloadTests {
    @Test func aMessageBodyGivenToReceiveRoutesAsItself() throws {
        let router = Router()
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { seen.append($0.count) }
        let json = JSONValue.object(["count": 1])
        let body = MessageBody(json: json)
        #expect(router.receive(name: "ping", body: body).kind == .handled)
        let erased: Any = body
        #expect(router.receive(name: "ping", body: erased).kind == .handled)
        let optional: MessageBody? = body
        #expect(router.receive(name: "ping", body: optional).kind == .handled)
        #expect(router.receive(name: "ping", body: json as Any).kind == .handled)
        #expect(router.receive(Message(channel: "ping", body: erased as Any?)).kind == .handled)
        #expect(
            router.receive(name: "ping", body: try MessageBody(jsonBytes: Array(#"{"count":1}"#.utf8))).kind
                == .handled)
        #expect(MessageBody(erased).description == body.description)
        #expect(seen.all == [1, 1, 1, 1, 1, 1])
        withExtendedLifetime(token) {}
    }

    @Test func aMessageBodyGivenToRequestRoutesAsItself() async throws {
        let router = Router()
        let token = try router.respond(to: Echo.self) { request, reply in reply(.success(request.text)) }
        let body = MessageBody(json: .object(["text": "hi"]))
        let erased: Any = body
        #expect(try await router.request(name: "echo", body: erased).get().value(as: String.self) == "hi")
        #expect(try await router.request(name: "echo", body: body).get().value(as: String.self) == "hi")
        withExtendedLifetime(token) {}
    }
}

/// `BodyDecoder.decode(_:from:)` takes `Any?`: a ``MessageBody`` or ``JSONValue`` given there
/// decodes as itself, with the same errors, instead of failing as a value no type matches.
@Suite struct BodyDecoderWrappedBodyTests {
    @Test func aMessageBodyOrJSONValueGivenAsAnyDecodesAsItself() throws {
        let decoder = BodyDecoder()
        let bytes = try MessageBody(jsonBytes: Array(#"{"count":2,"inner":{"count":3}}"#.utf8))
        let json = JSONValue.object(["count": 4])
        #expect(try decoder.decode(Ping.self, from: bytes as Any?).count == 2)
        #expect(try decoder.decode(Ping.self, from: bytes as Any?, at: "inner").count == 3)
        #expect(try decoder.decode(Ping.self, from: json as Any?).count == 4)
        #expect(try decoder.decode(Ping.self, from: MessageBody(json: json) as Any?).count == 4)
        let wrong = MessageBody(json: .object(["count": "four"]))
        #expect {
            _ = try decoder.decode(Ping.self, from: wrong as Any?)
        } throws: { error in
            (error as? BodyDecodingError)?.path == "body.count"
        }
    }
}
