import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// One way to make each failure kind happen, set up on a fresh router.
private enum Scenario: String, CaseIterable, Sendable {
    case invalidChannel, noResponder, invalidBody, responderFailed, dropped, timedOut, stopped

    /// The router, the tokens that keep it set up, and the message name and body to send.
    func setUp() throws -> (Router, [Registration], String, Any?) {
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(20)))
        var tokens: [Registration] = []
        let handles = Locked<[Reply<String>]>([])
        switch self {
        case .invalidChannel:
            return (router, tokens, "bad\u{7}name", nil)
        case .noResponder:
            return (router, tokens, "echo", ["text": "x"])
        case .invalidBody:
            tokens.append(try router.respond(to: Echo.self) { _, reply in reply.succeed("unused") })
            return (router, tokens, "echo", ["text": 42])
        case .responderFailed:
            tokens.append(try router.respond(to: Echo.self) { _, reply in reply.fail(RouterTestError(text: "boom")) })
        case .dropped:
            tokens.append(try router.respond(to: Echo.self) { _, _ in })
        case .timedOut:
            tokens.append(try router.respond(to: Echo.self) { _, reply in handles.withLock { $0.append(reply) } })
        case .stopped:
            tokens.append(try router.respond(to: Echo.self) { _, reply in reply.succeed("unused") })
            tokens.append(router.use(Middleware { _, _ in .stopped(reason: "maintenance") }, name: "gate"))
        }
        return (router, tokens, "echo", ["text": "x"])
    }
}

@Suite struct RequestFailureTests {
    @Test(arguments: Scenario.allCases)
    fileprivate func eachFailureKindReachesTheAsyncCaller(_ scenario: Scenario) async throws {
        let (router, tokens, name, body) = try scenario.setUp()
        let result = await router.request(name: name, body: body)
        #expect(result.kind == scenario.rawValue)
        withExtendedLifetime(tokens) {}
    }

    @Test(arguments: Scenario.allCases)
    fileprivate func eachFailureKindReachesTheCallbackCallerOnce(_ scenario: Scenario) async throws {
        let (router, tokens, name, body) = try scenario.setUp()
        let calls = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        _ = router.receive(name: name, body: MessageBody(body), replyHandler: { calls.append($0) })
        #expect(await eventually { calls.count == 1 })
        #expect(calls.all.first?.kind == scenario.rawValue)
        try await Task.sleep(for: .milliseconds(30))  // past the deadline: nothing resolves it again
        #expect(calls.count == 1)
        withExtendedLifetime(tokens) {}
    }

    @Test(arguments: Scenario.allCases)
    fileprivate func eachFailureKindReachesTheCompletionAPI(_ scenario: Scenario) async throws {
        let (router, tokens, name, body) = try scenario.setUp()
        let calls = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        _ = router.receive(name: name, body: body, sender: .app) { calls.append($0) }
        #expect(await eventually { calls.count == 1 })
        #expect(calls.all.first?.kind == scenario.rawValue)
        withExtendedLifetime(tokens) {}
    }

    @Test(arguments: Scenario.allCases.filter { $0 != .invalidChannel })
    fileprivate func eachFailureKindIsThrownByTheTypedAPI(_ scenario: Scenario) async throws {
        let (router, tokens, _, _) = try scenario.setUp()
        if scenario == .invalidBody {
            // A typed request always encodes to a body its own type decodes; go through the name instead.
            #expect(await router.request(name: "echo", body: ["text": 42]).kind == "invalidBody")
            withExtendedLifetime(tokens) {}
            return
        }
        await #expect {
            _ = try await router.request(Echo(text: "x"))
        } throws: { error in
            (error as? RequestFailure)?.caseName == scenario.rawValue
        }
        withExtendedLifetime(tokens) {}
    }

    @Test func aRequestThatDoesNotEncodeIsUnencodableRequest() async throws {
        let router = Router()
        let token = try router.respond(to: Measure.self) { request, reply in reply.succeed(request.value) }
        await #expect {
            _ = try await router.request(Measure(value: .nan))
        } throws: { error in
            (error as? RequestFailure)?.caseName == "unencodableRequest"
        }
        withExtendedLifetime(token) {}
    }

    @Test func aReplyOfAnotherTypeThatDoesNotEncodeIsUnencodableReply() async throws {
        let router = Router()
        let token = router.use(Middleware { _, _ in .replied(ReplyValue(Double.infinity)) })
        await #expect {
            _ = try await router.request(Echo(text: "x"))
        } throws: { error in
            (error as? RequestFailure)?.caseName == "unencodableReply"
        }
        withExtendedLifetime(token) {}
    }

    @Test func failuresNameTheirChannelAndReadAsSentences() {
        let failures: [RequestFailure] = [
            .noResponder("echo"), .dropped("echo"), .timedOut("echo", after: .seconds(5)),
            .responderFailed("echo", message: "boom"), .stopped("echo", .unhandled),
            .unencodableReply("echo", BodyEncodingError(message: "nan")),
            .unencodableRequest("echo", BodyEncodingError(message: "nan")),
            .undecodableReply(
                "echo",
                BodyDecodingError(
                    .typeMismatch(Int.self, .init(codingPath: [], debugDescription: "Expected to decode Int")))),
        ]
        for failure in failures {
            #expect(failure.channel == "echo")
            #expect(failure.message.hasPrefix("echo: "))
            #expect(failure.description == failure.message)
            #expect(!failure.reason.isEmpty)
        }
        let invalid = RequestFailure.invalidChannel(name: "", .empty)
        #expect(invalid.channel == nil)
        #expect(invalid.caseName == "invalidChannel")
        #expect(invalid.kind == .invalid)
    }
}
