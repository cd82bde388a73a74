import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// Handlers and responders isolated to the main actor: written `{ @MainActor line in … }` against a
/// `@MainActor` model, with no `assumeIsolated`, lock or task hop in the app's code. On the main
/// actor they run before `receive` returns; from another thread they run on the main actor later.
@Suite struct MainActorHandlerTests {
    @Test @MainActor func aMainActorHandlerRunsBeforeReceiveReturnsOnTheMainActor() {
        let model = CartModel()
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = router.on(CartLine.self) { @MainActor line in model.add(line) }
        let outcome = router.receive(name: "addCartLine", body: cartLineBody("m1"))
        #expect(model.lines == ["m1"])
        #expect(outcome.handledCount == 1)
        withExtendedLifetime(token) {}
    }

    @Test @MainActor func aMainActorHandlersErrorMakesTheOutcomeFailed() {
        let model = CartModel()
        let router = Router(options: .init(defaultDeadline: .patient))
        let refusing = router.on(CartLine.self) { @MainActor line in
            if line.sku == "bad" { throw CartLineRefused(sku: line.sku) }
            model.add(line)
        }
        let plain = router.on(CartLine.self) { _ in }
        let outcome = router.receive(name: "addCartLine", body: cartLineBody("bad"))
        guard case .failed(let failure) = outcome else {
            Issue.record("expected failed, got \(outcome)")
            return
        }
        #expect(failure.errors == ["refused bad"])
        #expect(failure.succeeded == 1)
        #expect(router.receive(name: "addCartLine", body: cartLineBody("ok")).handledCount == 2)
        #expect(model.lines == ["ok"])
        withExtendedLifetime((refusing, plain)) {}
    }

    @Test @MainActor func aMainActorHandlerWithContextSeesTheMessage() {
        let model = CartModel()
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = router.on(CartLine.self) { @MainActor line, context in
            #expect(context.channel == "addCartLine")
            model.add(line)
        }
        #expect(router.receive(name: "addCartLine", body: cartLineBody("m1")).handledCount == 1)
        #expect(model.lines == ["m1"])
        withExtendedLifetime(token) {}
    }

    @Test func aMainActorHandlerReachedFromAnotherThreadRunsOnTheMainActorInOrder() async {
        let model = CartModel()
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = router.on(CartLine.self) { @MainActor line in model.add(line) }
        let (outcomes, callerThread) = await Stress.offThePool { () -> ([Outcome], ObjectIdentifier) in
            let outcomes = (0..<50).map { router.receive(name: "addCartLine", body: cartLineBody("m\($0)")) }
            return (outcomes, ObjectIdentifier(Thread.current))
        }
        // Delivered to the main actor: counted as handled at once, run there later, in order.
        #expect(outcomes.allSatisfy { $0.handledCount == 1 })
        await model.waitForLines(50)
        #expect(await model.lines == (0..<50).map { "m\($0)" })
        #expect(await !model.threads.contains(callerThread))
        withExtendedLifetime(token) {}
    }

    @Test func aMainActorHandlersErrorFromAnotherThreadIsReported() async {
        let model = CartModel()
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observation) = router.recordDiagnostics()
        let token = router.on(CartLine.self) { @MainActor line in
            model.add(line)
            throw CartLineRefused(sku: line.sku)
        }
        let outcome = await Stress.offThePool { router.receive(name: "addCartLine", body: cartLineBody("m1")) }
        #expect(outcome.handledCount == 1)
        await model.waitForLines(1)
        #expect(await eventually { diagnostics.kinds.contains("handlerFailed") })
        withExtendedLifetime((token, observation)) {}
    }

    @Test func aHopCancelledBeforeItRunsCallsNothing() async {
        let model = CartModel()
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = router.on(CartLine.self) { @MainActor line in model.add(line) }
        // The main actor is busy (this task holds it) while another thread sends and cancels: the
        // hop can only run after `cancel()` has returned, so it calls nothing.
        let outcome = await MainActor.run {
            let sent = Locked<Outcome?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread {
                sent.withLock { $0 = router.receive(name: "addCartLine", body: cartLineBody("late")) }
                token.cancel()
                done.signal()
            }.start()
            done.wait()
            return sent.withLock { $0 }
        }
        #expect(outcome?.handledCount == 1)
        // A later main-actor handler sees its own message; the cancelled one saw nothing.
        let second = router.on(CartLine.self) { @MainActor line in model.add(line) }
        _ = await Stress.offThePool { router.receive(name: "addCartLine", body: cartLineBody("next")) }
        await model.waitForLines(1)
        #expect(await model.lines == ["next"])
        withExtendedLifetime(second) {}
    }

    // MARK: Responders

    @Test @MainActor func aMainActorResponderRepliesBeforeReceiveReturns() {
        let model = CartModel()
        model.lines = ["m1", "m2"]
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try? router.respond(to: CartLines.self) { @MainActor _ in model.lines }
        let outcome = router.receive(name: "productCartGetState", body: nil)
        #expect(outcome.reply(as: [String].self) == ["m1", "m2"])
        withExtendedLifetime(token) {}
    }

    @Test @MainActor func aMainActorRespondersErrorMakesTheOutcomeFailed() throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: CartLines.self) { @MainActor _ throws -> [String] in
            throw CartLineRefused(sku: "all")
        }
        let outcome = router.receive(name: "productCartGetState", body: nil)
        #expect(outcome.isFailed)
        withExtendedLifetime(token) {}
    }

    @Test @MainActor func aTypedRequestFromTheMainActorReachesAMainActorResponder() async throws {
        let model = CartModel()
        model.lines = ["m1"]
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: CartLines.self) { @MainActor _ in model.lines }
        #expect(try await router.request(CartLines()) == ["m1"])
        let untyped = await router.request(name: "productCartGetState")
        #expect((try? untyped.get())?.value(as: [String].self) == ["m1"])
        withExtendedLifetime(token) {}
    }

    @Test @MainActor func anAsyncMainActorResponderAnswers() async throws {
        let model = CartModel()
        model.lines = ["m1"]
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: CartLines.self) { @MainActor _ async throws in model.lines }
        #expect(try await router.request(CartLines()) == ["m1"])
        withExtendedLifetime(token) {}
    }

    @Test func aMainActorResponderReachedFromAnotherThreadAnswersLater() async throws {
        let model = CartModel()
        await MainActor.run { model.lines = ["m1"] }
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: CartLines.self) { @MainActor _ in model.lines }
        let reply = await Stress.offThePool { () -> (Outcome, Result<ReplyValue, RequestFailure>?) in
            let answered = DispatchSemaphore(value: 0)
            let result = Locked<Result<ReplyValue, RequestFailure>?>(nil)
            let outcome = router.receive(Message(channel: CartLines.channel)) { reply in
                result.withLock { $0 = reply }
                answered.signal()
            }
            _ = answered.wait(timeout: .now() + 10)
            return (outcome, result.withLock { $0 })
        }
        // Scheduled on the main actor: pending when `receive` returned, unless the main actor
        // answered before the caller's thread got there (then the outcome has the reply).
        switch reply.0 {
        case .awaitingReply, .replied: break
        default: Issue.record("expected awaitingReply or replied, got \(reply.0)")
        }
        #expect((try? reply.1?.get())?.value(as: [String].self) == ["m1"])
        withExtendedLifetime(token) {}
    }

    @Test @MainActor func replacingHandlersAndRespondersTakesMainActorClosures() async {
        let model = CartModel()
        let router = Router(options: .init(defaultDeadline: .patient))
        let first = router.on(CartLine.self) { _ in Issue.record("replaced handler called") }
        let handler = router.replaceHandlers(of: CartLine.self) { @MainActor line, _ in model.add(line) }
        let responder = router.replaceResponder(of: CartLines.self) { @MainActor _ in model.lines }
        #expect(router.receive(name: "addCartLine", body: cartLineBody("m1")).handledCount == 1)
        #expect(router.receive(name: "productCartGetState", body: nil).reply(as: [String].self) == ["m1"])
        withExtendedLifetime((first, handler, responder)) {}
    }
}
