import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// No user code runs under the router's lock, by construction: what the router
/// lets go of (a handler, responder, middleware, observer, reply handle or kept
/// body) is released after it unlocks, so a `deinit` that calls back into the
/// router works. Each test here would deadlock otherwise (the watchdog turns that into a failure).
@Suite struct NoUserCodeUnderLockTests {
    @Test func cancellingAHandlerWhoseObjectCancelsAnotherRegistration() async {
        let router = Router()
        let other = router.on(Other.self) { _ in }
        let ran = Locked(false)
        let probe = CallsBackOnDeinit(ran: ran) { other.cancel() }
        let token = router.on(Knock.self) { [probe] _ in probe.touch() }
        _ = consume probe
        guard await finishesWithoutDeadlock("cancel", { token.cancel() }) else { return }
        #expect(ran.withLock { $0 })
        #expect(!router.isHandled(Other.channel))
    }

    @Test func releasingATokenWhoseHandlerRegistersAgainInItsDeinit() async {
        let router = Router()
        let again = Slot<Registration>(nil)
        let probe = CallsBackOnDeinit { again.value.withLock { $0 = router.on(Other.self) { _ in } } }
        let token = Slot(router.on(Knock.self) { [probe] _ in probe.touch() })
        _ = consume probe
        guard await finishesWithoutDeadlock("release of the token", { _ = token.take() }) else { return }
        #expect(router.isHandled(Other.channel))
        #expect(!router.isHandled(Knock.channel))
    }

    @Test func anObjectOwningItsTokensIsFreedWhenItsHandlerIsReplaced() async {
        final class Owner: @unchecked Sendable {
            var tokens: [Registration] = []  // set once, before sharing
        }
        let router = Router()
        var owner: Owner? = Owner()
        let first = router.on(Knock.self) { [owner] _ in _ = owner }
        owner?.tokens = [first, router.on(Other.self) { _ in }]
        owner = nil  // now only the first handler holds the owner (and so its tokens)
        guard
            await finishesWithoutDeadlock("replaceHandlers", { _ = router.replaceHandlers(of: Knock.self) { _, _ in } })
        else { return }
        #expect(!router.isHandled(Other.channel))
    }

    @Test func replacingAResponderWhoseObjectReceivesAMessage() async throws {
        let router = Router()
        let received = RouterRecorder<Outcome>()
        _ = router.on(Other.self) { _ in }
        let probe = CallsBackOnDeinit { received.append(router.receive(name: "otherKnock", body: nil)) }
        let first = try router.respond(to: Ask.self) { [probe] request, reply in
            probe.touch()
            reply(.success(request.n))
        }
        _ = consume probe
        guard
            await finishesWithoutDeadlock(
                "replaceResponder",
                {
                    let second = router.replaceResponder(of: Ask.self) { request, reply in reply(.success(-request.n)) }
                    withExtendedLifetime(second) {}
                })
        else { return }
        #expect(received.count == 1)
        withExtendedLifetime(first) {}
    }

    @Test func aResponderReplacedWhileItHoldsAPendingReplyAnswersItsCallerOutsideTheLock() async throws {
        let router = Router()
        let results = RouterRecorder<String>()
        let first: Registration
        do {
            // Only the responder's closure holds the box where it keeps its reply handle.
            let box = Slot<Reply<Int>>(nil)
            first = try router.respond(to: Ask.self) { [box] _, reply in box.value.withLock { $0 = reply } }
        }
        // The caller's completion calls back into the router.
        _ = router.receive(Message(channel: Ask.channel, body: ["n": 1])) { result in
            if case .failure(let failure) = result { results.append(failure.caseName) }
            _ = router.isHandled(Ask.channel)
            _ = router.on(Other.self) { _ in }
        }
        #expect(results.count == 0)
        guard
            await finishesWithoutDeadlock(
                "replaceResponder dropping a pending reply",
                {
                    let second = router.replaceResponder(of: Ask.self) { request, reply in reply(.success(request.n)) }
                    withExtendedLifetime(second) {}
                })
        else { return }
        #expect(results.all == ["dropped"])
        withExtendedLifetime(first) {}
    }

    @Test func cancellingMiddlewareWhoseObjectAddsMiddleware() async {
        let router = Router()
        let added = Slot<Registration>(nil)
        let probe = CallsBackOnDeinit { added.value.withLock { $0 = router.use(Middleware { $1($0) }) } }
        let token = router.use(
            Middleware { [probe] message, next in
                probe.touch()
                return next(message)
            })
        _ = consume probe
        guard await finishesWithoutDeadlock("cancel of middleware", { token.cancel() }) else { return }
        #expect(added.value.withLock { $0 != nil })
    }

    @Test func cancellingAManifestObserverWhoseObjectObservesAgain() async {
        let router = Router()
        let again = Slot<Registration>(nil)
        let probe = CallsBackOnDeinit { again.value.withLock { $0 = router.observeManifest { _ in } } }
        let token = router.observeManifest { [probe] _ in probe.touch() }
        _ = consume probe
        guard await finishesWithoutDeadlock("cancel of a manifest observer", { token.cancel() }) else { return }
        #expect(again.value.withLock { $0 != nil })
    }

    @Test func cancellingADiagnosticsObserverWhoseObjectObservesAgain() async {
        let router = Router()
        let again = Slot<Registration>(nil)
        let probe = CallsBackOnDeinit { again.value.withLock { $0 = router.observeDiagnostics { _ in } } }
        let token = router.observeDiagnostics { [probe] _ in probe.touch() }
        _ = consume probe
        guard await finishesWithoutDeadlock("cancel of a diagnostics observer", { token.cancel() }) else { return }
        #expect(again.value.withLock { $0 != nil })
    }

    @Test func aKeptRequestWhoseDeadlinePassesIsAnsweredAndItsBodyFreedOutsideTheLock() async {
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(50)))
        router.setBufferPolicy(.keep(max: 5, for: .seconds(60)), for: Ask.channel)
        let freed = Locked(false)
        let results = RouterRecorder<String>()
        do {
            let probe = CallsBackOnDeinit(ran: freed) { _ = router.keptCount(for: Ask.channel) }
            let outcome = router.receive(Message(channel: Ask.channel, body: ["n": 1, "probe": probe])) { result in
                if case .failure(let failure) = result { results.append(failure.caseName) }
            }
            #expect(outcome.kind == .kept)
        }
        let answered = await eventually(within: .seconds(10)) { results.count == 1 }
        #expect(answered, "the kept request's caller was never answered")
        guard answered else { return }  // the router's lock is held by a stuck thread: touch nothing
        #expect(results.all == ["timedOut"])
        #expect(await eventually(within: .seconds(10)) { freed.withLock { $0 } })
        #expect(router.keptCount(for: Ask.channel) == 0)
    }

    @Test func expiredOverflowingAndTrimmedKeptBodiesAreFreedOutsideTheLock() async {
        let router = Router()
        let calls = Locked(0)
        @Sendable func probe() -> CallsBackOnDeinit {
            CallsBackOnDeinit {
                _ = router.keptTotal
                calls.withLock { $0 += 1 }
            }
        }
        // Overflow: keepLast pushes the first message out.
        router.setBufferPolicy(.keepLast, for: Knock.channel)
        _ = router.receive(Message(channel: Knock.channel, body: ["n": 1, "probe": probe()]))
        guard
            await finishesWithoutDeadlock(
                "overflow",
                {
                    _ = router.receive(Message(channel: Knock.channel, body: ["n": 2, "probe": probe()]))
                })
        else { return }
        // Shrinking: switching to drop discards the kept one.
        guard await finishesWithoutDeadlock("setBufferPolicy", { router.setBufferPolicy(.drop, for: Knock.channel) })
        else {
            return
        }
        // Expiry.
        router.setBufferPolicy(.keep(max: 5, for: .milliseconds(1)), for: Other.channel)
        _ = router.receive(Message(channel: Other.channel, body: ["probe": probe()]))
        try? await Task.sleep(for: .milliseconds(20))
        guard await finishesWithoutDeadlock("discardExpiredMessages", { router.discardExpiredMessages() }) else {
            return
        }
        #expect(await eventually(within: .seconds(10)) { calls.withLock { $0 } == 3 })
    }

    @Test func aRouterFreedWithKeptRequestsAndHandlersThatHoldItsTokens() async {
        let results = RouterRecorder<String>()
        guard
            await finishesWithoutDeadlock(
                "router deinit",
                {
                    var router: Router? = Router(options: RouterOptions(defaultDeadline: .milliseconds(20)))
                    router?.setBufferPolicy(.keep(max: 5, for: .seconds(60)), for: Ask.channel)
                    _ = router?.receive(Message(channel: Ask.channel, body: ["n": 1])) { result in
                        if case .failure(let failure) = result { results.append(failure.caseName) }
                    }
                    let token = Slot(router?.on(Other.self) { _ in })
                    // A handler holding the router's own token: freed with the router, it cancels it.
                    var knock = router?.on(Knock.self) { [token] _ in _ = token }
                    router = nil
                    knock = nil
                    _ = knock
                })
        else { return }
        // The kept request's caller is answered once, whatever happens first (its deadline, or its release).
        #expect(await eventually(within: .seconds(10)) { results.count == 1 })
        try? await Task.sleep(for: .milliseconds(50))
        #expect(results.count == 1)
    }
}
