import Foundation
import Switchboard
import Testing

/// A reply handler given with an event on a channel with only handlers (and no middleware) is
/// answered directly by the handlers' run: once, before `receive` returns, with the reply the
/// outcome implies, after the diagnostics of that run.
@Suite struct HandlerReplyTests {
    @Test func aHandledEventAnswersItsReplyHandlerOnceBeforeReceiveReturns() throws {
        let router = Router()
        let token = router.on(Ping.self) { _ in }
        let calls = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        let outcome = router.receive(Message(channel: "ping", body: ["count": 1])) { calls.append($0) }
        #expect(outcome.kind == .handled)
        #expect(calls.count == 1)
        #expect(try calls.all.first?.get().jsonBytes() == Array("null".utf8))
        withExtendedLifetime(token) {}
    }

    @Test func aThrowingHandlerAndABadBodyAnswerWithTheirFailuresAfterTheirDiagnostics() throws {
        let router = Router()
        let (diagnostics, observer) = router.recordDiagnostics()
        let token = router.on(Ping.self) { ping, _ in
            if ping.count < 0 { throw RouterTestError(text: "negative") }
        }
        let seen = RouterRecorder<(Result<ReplyValue, RequestFailure>, [String])>()
        let failed = router.receive(
            name: "ping", body: MessageBody(["count": -1]),
            replyHandler: {
                seen.append(($0, diagnostics.kinds))
            })
        #expect(failed.kind == .failed)
        let invalid = router.receive(
            name: "ping", body: MessageBody(["count": "one"]),
            replyHandler: {
                seen.append(($0, diagnostics.kinds))
            })
        #expect(invalid.kind == .invalid)
        #expect(seen.count == 2)
        guard seen.count == 2 else { return }
        if case .failure(.responderFailed(let channel, let message, _)) = seen.all[0].0 {
            #expect(channel == "ping")
            #expect(message == "negative")
        } else {
            Issue.record("expected responderFailed, got \(seen.all[0].0)")
        }
        #expect(seen.all[0].1 == ["handlerFailed"])
        if case .failure(.invalidBody(let channel, _)) = seen.all[1].0 {
            #expect(channel == "ping")
        } else {
            Issue.record("expected invalidBody, got \(seen.all[1].0)")
        }
        #expect(seen.all[1].1 == ["handlerFailed", "invalidBody"])
        withExtendedLifetime((token, observer)) {}
    }

    @Test func aHandlerCancelledWhileMessagesArriveStillAnswersEachCallerExactlyOnce() async throws {
        for _ in 0..<20 {
            let router = Router()
            let token = router.on(Ping.self) { _ in }
            let calls = RouterRecorder<Int>()
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for index in 0..<100 {
                        _ = router.receive(Message(channel: "ping", body: ["count": index])) { _ in calls.append(index)
                        }
                    }
                }
                group.addTask { token.cancel() }
            }
            #expect(calls.count == 100)
            #expect(Set(calls.all).count == 100)
        }
    }
}
