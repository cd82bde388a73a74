import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

@Suite struct DiagnosticTests {
    static let allKinds: Set<String> = [
        "unhandled", "invalidChannel", "invalidBody", "handlerFailed", "responderFailed", "kept", "keptOverflow",
        "keptExpired", "keptDelivered", "duplicateReply", "lateReply", "replyDropped", "deadlinePassed", "stopped",
    ]

    @Test func everyDiagnosticHappensAndReachesTheObserver() async throws {
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(20)))
        let (diagnostics, observer) = router.recordDiagnostics()
        var tokens: [Registration] = []

        _ = router.receive(name: "nobody", body: nil)  // unhandled
        _ = router.receive(name: "", body: nil)  // invalidChannel
        tokens.append(router.on(Ping.self) { ping in if ping.count < 0 { throw RouterTestError(text: "negative") } })
        _ = router.receive(name: "ping", body: ["count": "x"])  // invalidBody
        _ = router.receive(name: "ping", body: ["count": -1])  // handlerFailed

        router.setBufferPolicy(.keepLast, for: Ready.channel)
        _ = router.receive(name: "sdkReady", body: nil)  // kept
        _ = router.receive(name: "sdkReady", body: nil)  // keptOverflow (+ kept)
        tokens.append(router.on(Ready.self) { _ in })  // keptDelivered
        router.setBufferPolicy(.keep(max: 1, for: .milliseconds(1)), for: "expiring")
        _ = router.receive(name: "expiring", body: nil)  // keptExpired, soon

        let held = Locked<[Reply<String>]>([])
        tokens.append(
            try router.respond(to: Echo.self) { request, reply in
                switch request.text {
                case "fail": reply.fail(RouterTestError(text: "boom"))  // responderFailed
                case "twice":
                    reply.succeed("one")
                    reply.succeed("two")  // duplicateReply
                case "drop": break  // replyDropped
                default: held.withLock { $0.append(reply) }  // deadlinePassed, then lateReply
                }
            })
        for text in ["fail", "twice", "drop"] { _ = await router.request(name: "echo", body: ["text": text]) }
        _ = await router.request(name: "echo", body: ["text": "slow"])
        _ = held.withLock { $0 }.first?.succeed("late")
        tokens.append(
            router.use(
                Middleware { message, next in
                    message.channel == "blocked" ? .stopped(reason: "blocked") : next(message)
                }))
        _ = router.receive(name: "blocked", body: nil)  // stopped

        #expect(await eventually { Set(diagnostics.kinds) == DiagnosticTests.allKinds })
        withExtendedLifetime((tokens, observer)) {}
    }

    @Test func everyDiagnosticNamesItsChannelKindAndWhatHappened() {
        let decodingError = BodyDecodingError(
            DecodingError.typeMismatch(Int.self, .init(codingPath: [], debugDescription: "Expected Int")))
        let cases: [Diagnostic] = [
            .unhandled("c"), .invalidBody("c", decodingError), .handlerFailed("c", message: "m"),
            .responderFailed("c", message: "m"), .kept("c", count: 1), .keptOverflow("c"), .keptExpired("c"),
            .keptDelivered("c", count: 2), .duplicateReply("c"), .lateReply("c"), .replyDropped("c"),
            .deadlinePassed("c", after: .seconds(1), usedFallback: true), .stopped("c", by: "gate", .unhandled),
        ]
        for diagnostic in cases {
            #expect(diagnostic.channel == "c")
            #expect(diagnostic.description.hasPrefix("c: "))
        }
        let invalid = Diagnostic.invalidChannel(name: "bad\u{0}", .controlCharacter(scalar: 0, offset: 3))
        #expect(invalid.channel == nil)
        #expect(Set((cases + [invalid]).map(\.kind.rawValue)) == DiagnosticTests.allKinds)
    }

    @Test func aDiagnosticsKindIsItsCaseWithoutItsValues() throws {
        let ads = MessageSender(originText: "https://ads.example.net", isMainFrame: true)
        let rejection = try #require(
            try OriginPolicy(allowing: ["https://shop.example.com"]).rejection(of: ads, on: "c"))
        let cases: [Diagnostic] = [
            .unhandled("c"), .invalidChannel(name: "", .empty),
            .invalidBody("c", BodyDecodingError(.valueNotFound(Int.self, .init(codingPath: [], debugDescription: "")))),
            .handlerFailed("c", message: "m"), .responderFailed("c", message: "m"), .kept("c", count: 1),
            .keptOverflow("c"), .keptExpired("c"), .keptDelivered("c", count: 2), .eventsOverflow("c"),
            .duplicateReply("c"), .lateReply("c"), .replyDropped("c"),
            .deadlinePassed("c", after: .seconds(1), usedFallback: false), .stopped("c", by: "gate", .unhandled),
            .rejected(rejection), .contractSkew("c", page: "sha256:aa", app: nil),
        ]
        #expect(cases.map(\.kind) == Diagnostic.Kind.allCases)
        for diagnostic in cases {
            #expect(Mirror(reflecting: diagnostic).children.first?.label == diagnostic.kind.rawValue)
            #expect(diagnostic.kind.description == diagnostic.kind.rawValue)
        }
    }

    @Test func observersRunInRegistrationOrderAndStopWhenCancelled() {
        let router = Router()
        let order = RouterRecorder<String>()
        let first = router.observeDiagnostics { _ in order.append("first") }
        let second = router.observeDiagnostics { _ in order.append("second") }
        _ = router.receive(name: "x", body: nil)
        first.cancel()
        _ = router.receive(name: "x", body: nil)
        #expect(order.all == ["first", "second", "second"])
        withExtendedLifetime(second) {}
    }
}
