import Foundation
import Switchboard
import Testing

/// A middleware that records what it sees before and after the rest of the chain.
private struct Tracing: MessageMiddleware {
    let name: String
    let log: RouterRecorder<String>

    func handle(_ message: Message, next: MiddlewareNext) -> Outcome {
        log.append("\(name)>")
        let outcome = next(message)
        log.append("<\(name) \(outcome.kind)")
        return outcome
    }
}

@Suite struct MiddlewareTests {
    @Test func middlewareRunsInRegistrationOrderBeforeAndAfterDelivery() {
        let router = Router()
        let log = RouterRecorder<String>()
        let tokens = ["a", "b", "c"].map { router.use(Tracing(name: $0, log: log)) }
        let handler = router.on(Ping.self) { _ in log.append("handler") }
        _ = router.receive(name: "ping", body: ["count": 1])
        #expect(log.all == ["a>", "b>", "c>", "handler", "<c handled", "<b handled", "<a handled"])
        withExtendedLifetime((tokens, handler)) {}
    }

    @Test func middlewareSeesUnhandledAndInvalidMessagesToo() {
        let router = Router()
        let log = RouterRecorder<String>()
        let token = router.use(Tracing(name: "m", log: log))
        let handler = router.on(Ping.self) { _ in }
        _ = router.receive(name: "nobody", body: nil)
        _ = router.receive(name: "ping", body: ["count": "x"])
        #expect(log.all == ["m>", "<m unhandled", "m>", "<m invalid"])
        withExtendedLifetime((token, handler)) {}
    }

    @Test func aMiddlewareCanStopAMessageWithAnOutcomeOfItsChoice() {
        let router = Router()
        let (diagnostics, observer) = router.recordDiagnostics()
        let log = RouterRecorder<String>()
        let outer = router.use(Tracing(name: "outer", log: log))
        let gate = router.use(
            Middleware { message, next in
                message.channel == "ping" ? .stopped(reason: "paused") : next(message)
            }, name: "gate")
        let handler = router.on(Ping.self) { _ in log.append("handler") }
        let outcome = router.receive(name: "ping", body: ["count": 1])
        guard case .stopped(let reason) = outcome else {
            Issue.record("expected stopped, got \(outcome)")
            return
        }
        #expect(reason == "paused")
        #expect(log.all == ["outer>", "<outer stopped"])
        // Reported once, naming the middleware that stopped it (not the one that passed the stop on).
        #expect(diagnostics.kinds == ["stopped"])
        guard case .stopped(let channel, let name, _) = diagnostics.all.first else { return }
        #expect(channel == "ping")
        #expect(name == "gate")
        withExtendedLifetime((outer, gate, handler, observer)) {}
    }

    @Test func eachMessagesStopIsReportedByTheMiddlewareThatStoppedIt() {
        // The first message is stopped by the gate and let through by the outer
        // middleware; the second is stopped by the outer middleware itself, with the
        // same reason. Both stops are reported, each naming its own middleware.
        let router = Router()
        let (diagnostics, observer) = router.recordDiagnostics()
        let outer = router.use(
            Middleware { message, next in
                if message.channel == "ping" {
                    _ = next(message)
                    return .handled(count: 0)
                }
                return .stopped(reason: "paused")
            }, name: "outer")
        let gate = router.use(Middleware { _, _ in .stopped(reason: "paused") }, name: "gate")
        _ = router.receive(name: "ping", body: ["count": 1])
        _ = router.receive(name: "pong", body: nil)
        let names = diagnostics.all.compactMap { diagnostic -> String? in
            guard case .stopped(_, let name, _) = diagnostic else { return nil }
            return name
        }
        #expect(names == ["gate", "outer"])
        withExtendedLifetime((observer, outer, gate)) {}
    }

    @Test func aMiddlewareCanSendAnotherMessageThroughTheSameRouterFromInsideTheChain() {
        let router = Router()
        let log = RouterRecorder<String>()
        let relay = router.use(
            Middleware { message, next in
                log.append("> \(message.channel)")
                if message.channel == "ping" {
                    let inner = router.receive(name: "pong", body: nil)
                    log.append("inner \(inner.kind)")
                }
                let outcome = next(message)
                log.append("< \(message.channel) \(outcome.kind)")
                return outcome
            })
        let handler = router.on(Ping.self) { ping in log.append("ping \(ping.count)") }
        for count in 1...2 {
            _ = router.receive(name: "ping", body: ["count": count])
        }
        #expect(
            log.all == [
                "> ping", "> pong", "< pong unhandled", "inner unhandled", "ping 1", "< ping handled",
                "> ping", "> pong", "< pong unhandled", "inner unhandled", "ping 2", "< ping handled",
            ])
        withExtendedLifetime((relay, handler)) {}
    }

    @Test func aMiddlewareCanStopWithAnyOutcomeSilently() {
        let router = Router()
        let (diagnostics, observer) = router.recordDiagnostics()
        let swallow = router.use(Middleware { _, _ in .handled(count: 0) })
        #expect(router.receive(name: "nobody", body: nil).kind == .handled)
        #expect(diagnostics.all.isEmpty)
        withExtendedLifetime((swallow, observer)) {}
    }

    @Test func aMiddlewareCanRewriteTheBody() {
        let router = Router()
        let seen = RouterRecorder<Int>()
        let doubler = router.use(
            Middleware { message, next in
                guard let ping = message.event(as: Ping.self) else { return next(message) }
                var rewritten = message
                rewritten.body = MessageBody(["count": ping.count * 2])
                return next(rewritten)
            })
        let handler = router.on(Ping.self) { ping in seen.append(ping.count) }
        _ = router.receive(name: "ping", body: ["count": 21])
        #expect(seen.all == [42])
        withExtendedLifetime((doubler, handler)) {}
    }

    @Test func aMiddlewareCanRewriteTheChannel() {
        let router = Router()
        let seen = RouterRecorder<Int>()
        let legacy = router.use(
            Middleware { message, next in
                guard message.channel == "legacyPing" else { return next(message) }
                var rewritten = message
                rewritten.channel = Ping.channel
                return next(rewritten)
            })
        let handler = router.on(Ping.self) { ping in seen.append(ping.count) }
        #expect(router.receive(name: "legacyPing", body: ["count": 1]).kind == .handled)
        #expect(router.receive(name: "ping", body: ["count": 2]).kind == .handled)
        #expect(seen.all == [1, 2])
        withExtendedLifetime((legacy, handler)) {}
    }

    @Test func aMiddlewareCanReadAndReplaceTheOutcomeOfWhatRanAfterIt() {
        let router = Router()
        let observed = RouterRecorder<String>()
        let softener = router.use(
            Middleware { message, next in
                let outcome = next(message)
                observed.append(outcome.kind.rawValue)
                if case .unhandled = outcome { return .handled(count: 0) }
                return outcome
            })
        #expect(router.receive(name: "nobody", body: nil).kind == .handled)
        #expect(observed.all == ["unhandled"])
        withExtendedLifetime(softener) {}
    }

    @Test func aMiddlewareCanMatchOnATypedEvent() {
        let router = Router()
        let matched = RouterRecorder<Int>()
        let matcher = router.use(
            Middleware { message, next in
                if let ping = message.event(as: Ping.self), ping.count > 10 { matched.append(ping.count) }
                // Another channel's event never matches, whatever its body.
                #expect(message.event(as: Ready.self) == nil || message.channel == Ready.channel)
                return next(message)
            })
        _ = router.receive(name: "ping", body: ["count": 5])
        _ = router.receive(name: "ping", body: ["count": 50])
        _ = router.receive(name: "ping", body: ["count": "not a number"])
        _ = router.receive(name: "other", body: ["count": 99])
        #expect(matched.all == [50])
        withExtendedLifetime(matcher) {}
    }

    @Test func removingAMiddlewareByItsTokenTakesItOutOfTheChain() {
        let router = Router()
        let log = RouterRecorder<String>()
        let a = router.use(Tracing(name: "a", log: log))
        let b = router.use(Tracing(name: "b", log: log))
        a.cancel()
        _ = router.receive(name: "x", body: nil)
        #expect(log.all == ["b>", "<b unhandled"])
        withExtendedLifetime(b) {}
    }

    @Test func callingNextTwiceDeliversAnEventTwice() {
        let router = Router()
        let seen = RouterRecorder<Int>()
        let fanOut = router.use(
            Middleware { message, next in
                _ = next(message)
                return next(message)
            })
        let handler = router.on(Ping.self) { ping in seen.append(ping.count) }
        _ = router.receive(name: "ping", body: ["count": 1])
        #expect(seen.all == [1, 1])
        withExtendedLifetime((fanOut, handler)) {}
    }

    @Test func aNextKeptBeyondItsMessageKeepsTheRouterAndRouteAliveAndStillDelivers() {
        let kept = Locked<MiddlewareNext?>(nil)
        let seen = RouterRecorder<Int>()
        weak var released: Router?
        let handler: Registration
        do {
            let router = Router()
            released = router
            let keeper = router.use(
                Middleware { message, next in
                    kept.withLock { $0 = next }
                    return next(message)
                })
            handler = router.on(Ping.self) { ping in seen.append(ping.count) }
            _ = router.receive(name: "ping", body: ["count": 1])
            _ = keeper
        }
        // The router's last owner is gone, but the kept `next` holds what delivery needs.
        #expect(released != nil)
        let outcome = kept.withLock { $0 }.map { next in next(Message(channel: "ping", body: ["count": 2])) }
        guard case .handled(let count)? = outcome else {
            Issue.record("expected handled, got \(String(describing: outcome))")
            return
        }
        #expect(count == 1)
        #expect(seen.all == [1, 2])
        // Letting go of the `next` (the middleware's closure kept it: a cycle) lets the router go.
        kept.withLock { $0 = nil }
        #expect(released == nil)
        withExtendedLifetime(handler) {}
    }

    @Test func aRouterWhoseMiddlewareKeepsNoNextIsReleasedWithItsLastOwner() {
        weak var released: Router?
        do {
            let router = Router()
            released = router
            let pass = router.use(Middleware { message, next in next(message) })
            let handler = router.on(Ping.self) { _ in }
            _ = router.receive(name: "ping", body: ["count": 1])
            withExtendedLifetime((pass, handler)) {}
        }
        #expect(released == nil)
    }

    @Test func callingNextTwiceNeverCallsAResponderTwice() async throws {
        let router = Router()
        let (diagnostics, observer) = router.recordDiagnostics()
        let calls = RouterRecorder<String>()
        let second = RouterRecorder<String>()
        let twice = router.use(
            Middleware { message, next in
                let first = next(message)
                second.append(next(message).kind.rawValue)
                return first
            }, name: "twice")
        let responder = try router.respond(to: Echo.self) { request, reply in
            calls.append(request.text)
            reply.succeed(request.text)
        }
        let result = await router.request(name: "echo", body: ["text": "once"])
        #expect(result.reply(as: String.self) == "once")
        #expect(calls.all == ["once"])
        #expect(second.all == ["stopped"])
        #expect(!diagnostics.kinds.contains("duplicateReply"))
        withExtendedLifetime((twice, responder, observer)) {}
    }

    @Test func middlewareAppliesToRequestsAndSeesTheirReply() async throws {
        let router = Router()
        let log = RouterRecorder<String>()
        let trace = router.use(Tracing(name: "m", log: log))
        let responder = try router.respond(to: Echo.self) { request, reply in reply.succeed(request.text) }
        let result = await router.request(name: "echo", body: ["text": "hi"])
        #expect(result.reply(as: String.self) == "hi")
        #expect(log.all == ["m>", "<m replied"])
        withExtendedLifetime((trace, responder)) {}
    }

    @Test func aMiddlewareCanAnswerARequestByStoppingItWithAReply() async throws {
        let router = Router()
        let cache = router.use(
            Middleware { message, next in
                message.event(as: Echo.self)?.text == "cached" ? .replied(ReplyValue("from cache")) : next(message)
            })
        let responder = try router.respond(to: Echo.self) { _, reply in reply.succeed("from responder") }
        #expect(await router.request(name: "echo", body: ["text": "cached"]).reply(as: String.self) == "from cache")
        #expect(await router.request(name: "echo", body: ["text": "other"]).reply(as: String.self) == "from responder")
        #expect(try await router.request(Echo(text: "cached")) == "from cache")
        withExtendedLifetime((cache, responder)) {}
    }

    @Test func aRequestStoppedWithAnotherOutcomeGivesTheCallerAStoppedFailure() async throws {
        let router = Router()
        let gate = router.use(Middleware { _, _ in .handled(count: 0) })
        let responder = try router.respond(to: Echo.self) { _, reply in reply.succeed("unreachable") }
        let result = await router.request(name: "echo", body: ["text": "x"])
        guard case .failure(.stopped(let channel, let outcome)) = result else {
            Issue.record("expected stopped, got \(result)")
            return
        }
        #expect(channel == "echo")
        #expect(outcome.kind == .handled)
        withExtendedLifetime((gate, responder)) {}
    }

    @Test func aMiddlewareCanRewriteARequest() async throws {
        let router = Router()
        let upper = router.use(
            Middleware { message, next in
                guard let echo = message.event(as: Echo.self) else { return next(message) }
                var rewritten = message
                rewritten.body = MessageBody(["text": echo.text.uppercased()])
                return next(rewritten)
            })
        let responder = try router.respond(to: Echo.self) { request, reply in reply.succeed(request.text) }
        #expect(await router.request(name: "echo", body: ["text": "loud"]).reply(as: String.self) == "LOUD")
        withExtendedLifetime((upper, responder)) {}
    }

    @Test func aRequestKeptBeforeItsResponderStaysPendingThroughMiddleware() async throws {
        let router = Router()
        router.setBufferPolicy(.keepLast, for: Echo.channel)
        let trace = router.use(Tracing(name: "m", log: RouterRecorder<String>()))
        let calls = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        #expect(
            router.receive(name: "echo", body: MessageBody(["text": "early"]), replyHandler: { calls.append($0) })
                .kind == .kept)
        #expect(calls.count == 0)
        let responder = try router.respond(to: Echo.self) { request, reply in reply.succeed(request.text) }
        #expect(calls.all.first?.reply(as: String.self) == "early")
        withExtendedLifetime((trace, responder)) {}
    }

    @Test func aMiddlewareIsNamedAfterItsTypeUnlessNamed() {
        let router = Router()
        let (diagnostics, observer) = router.recordDiagnostics()
        let stop = router.use(Middleware { _, _ in .stopped(reason: "no") })
        _ = router.receive(name: "x", body: nil)
        guard case .stopped(_, let name, _) = diagnostics.all.first else {
            Issue.record("expected a stopped diagnostic")
            return
        }
        #expect(name == "Middleware")
        withExtendedLifetime((stop, observer)) {}
    }
}
