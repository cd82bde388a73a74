import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// Once a request is resolved (its deadline passed), an error its cancelled `async` responder
/// throws afterwards (`CancellationError`, `URLError(.cancelled)`, anything) is no `lateReply`;
/// a late success still is.
@Suite struct LateErrorTests {
    /// Sends `echo` to an `async` responder that waits out a 20 ms deadline, then does `after`;
    /// returns the caller's result and the diagnostics reported once the responder has finished.
    static func afterTheDeadline(
        _ after: @escaping @Sendable () throws -> String
    ) async throws -> (Result<ReplyValue, RequestFailure>, RouterRecorder<Diagnostic>, Locked<Bool>) {
        let router = Router()
        let (diagnostics, observation) = router.recordDiagnostics()
        let finished = Locked(false)
        let token = try router.respond(to: Echo.self, deadline: .milliseconds(20)) { _ async throws -> String in
            // Cancelled when the deadline passes, as a network call would be.
            try? await Task.sleep(for: .seconds(60))
            defer { finished.withLock { $0 = true } }
            return try after()
        }
        let result = await router.request(name: "echo", body: ["text": "hi"])
        await eventually { finished.withLock { $0 } }
        withExtendedLifetime((token, observation)) {}
        return (result, diagnostics, finished)
    }

    static func isTimedOut(_ result: Result<ReplyValue, RequestFailure>) -> Bool {
        if case .failure(.timedOut) = result { return true }
        return false
    }

    @Test func urlErrorCancelledAfterTheDeadlineIsNoLateReply() async throws {
        let (result, diagnostics, _) = try await Self.afterTheDeadline { throw URLError(.cancelled) }
        #expect(Self.isTimedOut(result))
        // The responder has returned; its task reports (or not) right after: give it that moment.
        let late = await eventually(within: .milliseconds(300)) { diagnostics.kinds.contains("lateReply") }
        #expect(!late)
        #expect(diagnostics.kinds == ["deadlinePassed"])
    }

    @Test func cancellationErrorAndAnyOtherErrorAfterTheDeadlineAreNoLateReply() async throws {
        for error: any Error in [CancellationError(), RouterTestError(text: "offline")] {
            let (result, diagnostics, _) = try await Self.afterTheDeadline { throw error }
            #expect(Self.isTimedOut(result))
            let late = await eventually(within: .milliseconds(300)) {
                diagnostics.kinds.contains("lateReply")
            }
            #expect(!late)
        }
    }

    @Test func aSuccessAfterTheDeadlineIsStillALateReply() async throws {
        let (result, diagnostics, _) = try await Self.afterTheDeadline { "late" }
        #expect(Self.isTimedOut(result))
        #expect(await eventually { diagnostics.kinds.contains("lateReply") })
    }

    @Test func anErrorBeforeTheDeadlineStillFailsTheRequest() async throws {
        // Patient: a loaded test run can keep the responder's task waiting for a thread.
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: Echo.self) { _ async throws -> String in throw URLError(.cancelled) }
        let result = await router.request(name: "echo", body: ["text": "hi"])
        guard case .failure(.responderFailed) = result else {
            Issue.record("expected responderFailed, got \(result)")
            return
        }
        withExtendedLifetime(token) {}
    }
}
