import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// A LoyaltyLion-like hook: the SDK asks the host and falls back to its default
/// action when the host does not answer in time.
private struct ShouldHandleAddToCart: Request {
    typealias Reply = String
    static let channel: Channel = "shouldHandleAddToCart"
    let productId: String
}

private struct GetCartCount: Request, BodylessEvent, Encodable {
    typealias Reply = Int
    static let channel: Channel = "getCartCount"
}

@Suite struct ReplyTests {
    @Test func exactlyOneOfAHundredRacingRepliesWins() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        let handle = Locked<Reply<String>?>(nil)
        let responder = try router.respond(to: Echo.self) { _, reply in handle.withLock { $0 = reply } }
        let calls = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        let outcome = router.receive(name: "echo", body: MessageBody(["text": "x"]), replyHandler: { calls.append($0) })
        #expect(outcome.kind == .awaitingReply)
        let reply = try #require(handle.withLock { $0 })
        let wins = RouterRecorder<Int>()
        await concurrently(100) { index in
            if reply.succeed("reply \(index)") { wins.append(index) }
        }
        #expect(wins.count == 1)
        #expect(calls.count == 1)
        #expect(calls.all.first?.reply(as: String.self) == "reply \(wins.all.first ?? -1)")
        #expect(diagnostics.kinds.filter { $0 == "duplicateReply" }.count == 99)
        #expect(reply.isResolved)
        withExtendedLifetime((responder, observer)) {}
    }

    @Test func aReplyWithTheResultShapeOfInAppStoryCompletesTheCaller() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: Echo.self) { request, complete in
            complete(.success(request.text.uppercased()))
        }
        #expect(router.receive(name: "echo", body: ["text": "hi"]).kind == .replied)
        let result = await router.request(name: "echo", body: ["text": "yo"])
        #expect(result.reply(as: String.self) == "YO")
        withExtendedLifetime(token) {}
    }

    @Test func aReplyCanComeLaterFromAnotherThread() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: Echo.self) { request, reply in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(5)) { reply.succeed(request.text) }
        }
        let result = await router.request(name: "echo", body: ["text": "later"])
        #expect(result.reply(as: String.self) == "later")
        withExtendedLifetime(token) {}
    }

    @Test func aDroppedHandleResolvesTheCallerWithDropped() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        let token = try router.respond(to: Echo.self) { _, _ in }
        let asyncResult = await router.request(name: "echo", body: ["text": "x"])
        #expect(asyncResult.kind == "dropped")
        let (outcome, callbackResult) = await requestByCallback(router, name: "echo", body: ["text": "x"])
        #expect(callbackResult?.kind == "dropped")
        #expect(outcome.kind == .failed)
        #expect(diagnostics.kinds == ["replyDropped", "replyDropped"])
        withExtendedLifetime((token, observer)) {}
    }

    @Test func aHandleReleasedLaterOnAnotherThreadAlsoResolvesWithDropped() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: Echo.self) { _, reply in
            DispatchQueue.global().async { withExtendedLifetime(reply) {} }
        }
        let result = await router.request(name: "echo", body: ["text": "x"])
        #expect(result.kind == "dropped")
        withExtendedLifetime(token) {}
    }

    @Test func aPassedDeadlineTimesTheCallerOutAndALateReplyIsReported() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        let handle = Locked<Reply<String>?>(nil)
        let token = try router.respond(to: Echo.self, deadline: .milliseconds(20)) { _, reply in
            handle.withLock { $0 = reply }
        }
        let result = await router.request(name: "echo", body: ["text": "x"])
        guard case .failure(.timedOut(let channel, let after)) = result else {
            Issue.record("expected timedOut, got \(result)")
            return
        }
        #expect(channel == "echo")
        #expect(after == .milliseconds(20))
        #expect(handle.withLock { $0 }?.succeed("late") == false)
        #expect(diagnostics.kinds == ["deadlinePassed", "lateReply"])
        if case .deadlinePassed(_, _, let usedFallback) = diagnostics.all.first { #expect(!usedFallback) }
        withExtendedLifetime((token, observer)) {}
    }

    @Test func theRouterDefaultDeadlineAppliesWhenAChannelSetsNone() async throws {
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(20)))
        let handle = Locked<Reply<String>?>(nil)
        let token = try router.respond(to: Echo.self) { _, reply in handle.withLock { $0 = reply } }
        let (_, result) = await requestByCallback(router, name: "echo", body: ["text": "x"])
        #expect(result?.kind == "timedOut")
        withExtendedLifetime(token) {}
    }

    @Test func aFallbackAnswersWhenTheHookDoesNotReplyInTime() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        let handle = Locked<Reply<String>?>(nil)
        let hook = try router.respond(
            to: ShouldHandleAddToCart.self, deadline: .milliseconds(20), fallback: "defaultAction"
        ) { _, reply in handle.withLock { $0 = reply } }
        let result = await router.request(name: "shouldHandleAddToCart", body: ["productId": "p1"])
        #expect(result.reply(as: String.self) == "defaultAction")
        let (_, callback) = await requestByCallback(router, name: "shouldHandleAddToCart", body: ["productId": "p2"])
        #expect(callback?.reply(as: String.self) == "defaultAction")
        guard case .deadlinePassed(_, _, let usedFallback) = diagnostics.all.first else {
            Issue.record("expected deadlinePassed, got \(diagnostics.all)")
            return
        }
        #expect(usedFallback)
        withExtendedLifetime((hook, observer)) {}
    }

    @Test func aHookThatAnswersInTimeBeatsTheFallback() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let hook = try router.respond(
            to: ShouldHandleAddToCart.self, deadline: .seconds(5), fallback: "defaultAction"
        ) { request, reply in
            DispatchQueue.global().async { reply.succeed("handled \(request.productId)") }
        }
        let result = await router.request(name: "shouldHandleAddToCart", body: ["productId": "p1"])
        #expect(result.reply(as: String.self) == "handled p1")
        withExtendedLifetime(hook) {}
    }

    @Test func anAsyncResponderReturnsItsReply() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: GetCartCount.self) { _ async throws in
            try await Task.sleep(for: .milliseconds(1))
            return 3
        }
        #expect(router.receive(name: "getCartCount", body: nil).kind == .awaitingReply)
        let result = await router.request(name: "getCartCount")
        #expect(result.reply(as: Int.self) == 3)
        #expect(try await router.request(GetCartCount()) == 3)
        withExtendedLifetime(token) {}
    }

    @Test func anAsyncResponderThatThrowsFailsTheRequestWithItsMessage() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        let token = try router.respond(to: GetCartCount.self) { _ async throws -> Int in
            throw RouterTestError(text: "cart unavailable")
        }
        let result = await router.request(name: "getCartCount")
        guard case .failure(.responderFailed(_, let message, _)) = result else {
            Issue.record("expected responderFailed, got \(result)")
            return
        }
        #expect(message == "cart unavailable")
        #expect(diagnostics.kinds == ["responderFailed"])
        withExtendedLifetime((token, observer)) {}
    }

    @Test func anAsyncResponderPastItsDeadlineIsCancelled() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        let cancelled = RouterRecorder<Bool>()
        let token = try router.respond(to: GetCartCount.self, deadline: .milliseconds(20)) { _ async throws -> Int in
            do {
                try await Task.sleep(for: .seconds(10))
            } catch {
                cancelled.append(true)
                throw error
            }
            return 1
        }
        let result = await router.request(name: "getCartCount")
        #expect(result.kind == "timedOut")
        #expect(await eventually { cancelled.count == 1 })
        #expect(diagnostics.kinds == ["deadlinePassed"])
        withExtendedLifetime((token, observer)) {}
    }

    @Test func aSecondResponderIsAClearErrorAndReplacingIsExplicit() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let first = try router.respond(to: Echo.self) { _, reply in reply.succeed("first") }
        #expect(throws: RegistrationError.responderExists("echo")) {
            _ = try router.respond(to: Echo.self) { _, reply in reply.succeed("second") }
        }
        #expect(throws: RegistrationError.responderExists("echo")) {
            _ = try router.respond(to: Echo.self) { _ async throws in "async second" }
        }
        #expect(RegistrationError.responderExists("echo").description.contains("replaceResponder"))
        #expect(await router.request(name: "echo", body: ["text": ""]).reply(as: String.self) == "first")
        let replacement = router.replaceResponder(of: Echo.self) { _, reply in reply.succeed("replaced") }
        #expect(await router.request(name: "echo", body: ["text": ""]).reply(as: String.self) == "replaced")
        first.cancel()  // the replaced responder's token is inert
        #expect(await router.request(name: "echo", body: ["text": ""]).reply(as: String.self) == "replaced")
        let asyncReplacement = router.replaceResponder(of: Echo.self) { request async throws in "async \(request.text)"
        }
        #expect(await router.request(name: "echo", body: ["text": "x"]).reply(as: String.self) == "async x")
        asyncReplacement.cancel()
        #expect(await router.request(name: "echo", body: ["text": ""]).kind == "noResponder")
        withExtendedLifetime(replacement) {}
    }

    @Test func theTypedRequestReturnsTheTypedReply() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: Echo.self) { request, reply in reply.succeed("echo: \(request.text)") }
        let reply: String = try await router.request(Echo(text: "typed"))
        #expect(reply == "echo: typed")
        withExtendedLifetime(token) {}
    }

    @Test func theTypedRequestThrowsTheFailure() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        await #expect {
            _ = try await router.request(Echo(text: "nobody"))
        } throws: { error in
            (error as? RequestFailure)?.kind == .noResponder
        }
    }

    @Test func aHandleReportsItsChannel() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let channel = Locked<Channel?>(nil)
        let token = try router.respond(to: Echo.self) { _, reply in
            channel.withLock { $0 = reply.channel }
            reply.fail(RouterTestError(text: "no"))
        }
        _ = router.receive(name: "echo", body: ["text": ""])
        #expect(channel.withLock { $0 } == "echo")
        withExtendedLifetime(token) {}
    }

    @Test func aRequestOnAChannelWithOnlyEventHandlersGetsAnEmptyReply() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = router.on(Ping.self) { _ in }
        let result = await router.request(name: "ping", body: ["count": 1])
        let value = try result.get()
        #expect(try value.jsonBytes() == Array("null".utf8))
        withExtendedLifetime(token) {}
    }
}
