import Foundation
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// An `async` responder whose token is cancelled before its task starts is never called: the
/// task resolves the request as unhandled. When the deadline passed first, that resolution
/// reports nothing (it is no `lateReply`: the user made no reply).
@Suite struct CancelledResponderReplyTests {
    /// A claimed request whose deadline passed, and the diagnostics its router would report.
    private func timedOutRequest() -> (ReplyState, Locked<[Diagnostic]>) {
        let seen = Locked<[Diagnostic]>([])
        let sink = DiagnosticSink()
        sink.add(.init(id: 1, cancelled: CancelFlag()) { diagnostic in seen.withLock { $0.append(diagnostic) } })
        let state = ReplyState(channel: "getCount", completion: { _ in })
        #expect(state.claimForResponder(fallback: nil, report: sink))
        state.deadlinePassed(after: .milliseconds(5))
        seen.withLock { $0.removeAll() }
        return (state, seen)
    }

    @Test func aCancelledResponderAfterTheDeadlineReportsNoLateReply() {
        let (state, seen) = timedOutRequest()
        #expect(!state.reply(.failure(.noResponder("getCount")), reportUnhandled: true))
        #expect(seen.withLock { $0 }.isEmpty)
    }

    @Test func aResponderReplyingAfterTheDeadlineIsStillALateReply() {
        let (state, seen) = timedOutRequest()
        #expect(!state.reply(.success(.none)))
        #expect(seen.withLock { $0 }.map(\.description) == [Diagnostic.lateReply("getCount").description])
    }

    @Test func aCancelledResponderBeforeTheDeadlineIsUnhandled() {
        let seen = Locked<[Diagnostic]>([])
        let sink = DiagnosticSink()
        sink.add(.init(id: 1, cancelled: CancelFlag()) { diagnostic in seen.withLock { $0.append(diagnostic) } })
        let answered = Locked<[Result<ReplyValue, RequestFailure>]>([])
        let state = ReplyState(channel: "getCount", completion: { result in answered.withLock { $0.append(result) } })
        #expect(state.claimForResponder(fallback: nil, report: sink))
        #expect(state.reply(.failure(.noResponder("getCount")), reportUnhandled: true))
        #expect(seen.withLock { $0 }.map(\.description) == [Diagnostic.unhandled("getCount").description])
        #expect(answered.withLock { $0.count } == 1)
    }
}
