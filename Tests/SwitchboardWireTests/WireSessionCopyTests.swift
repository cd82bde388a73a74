import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWire
import Testing

struct EchoNested: Request {
    static let channel: Channel = "echoNested"
    typealias Reply = String
    let text: String
}

struct EchoLater: Request {
    static let channel: Channel = "echoLater"
    typealias Reply = String
    let text: String
}

/// `WireSession` is a `Sendable` value: a copy is a session of its own, which may run on
/// another thread at the same time as the original, each message getting its own reply.
@Suite struct WireSessionCopyTests {
    @Test func copiesOfASessionRunningAtOnceEachGetTheirOwnReplies() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let responder = try router.respond(to: EchoLater.self) { request, reply in
            // Replied later, from another thread, after a short delay that varies with the text
            // (0 to 300 µs; the same on every run).
            let delay = request.text.unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) % 301 }
            DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(delay)) {
                reply.succeed(request.text)
            }
        }
        defer { withExtendedLifetime(responder) {} }
        let original = WireSession(router: router)
        let rounds = 300
        let copies = 3
        let results = try await withThrowingTaskGroup(of: (Int, [WireOutcome]).self) { group in
            for copy in 0..<copies {
                group.addTask {
                    let outcomes = await onDispatchThread { () -> [WireOutcome] in
                        var session = original
                        var outcomes: [WireOutcome] = []
                        for round in 1...rounds {
                            let line = #"{"name":"echoLater","body":{"text":"\#(copy)-\#(round)"}}"#
                            if let outcome = session.process(line: Array(line.utf8), number: round, source: nil) {
                                outcomes.append(outcome)
                            }
                        }
                        return outcomes
                    }
                    return (copy, outcomes)
                }
            }
            var all: [Int: [WireOutcome]] = [:]
            for try await (copy, outcomes) in group { all[copy] = outcomes }
            return all
        }
        for copy in 0..<copies {
            let outcomes = results[copy] ?? []
            #expect(outcomes.count == rounds)
            let wrong = outcomes.filter { outcome in
                outcome.kind != .replied || outcome.reply != .string("\(copy)-\(outcome.line)")
            }
            #expect(wrong.isEmpty, "copy \(copy): \(wrong.prefix(3).map(\.jsonLine))")
        }
    }

    /// A responder that, on the session's own thread, runs a copy of the session (made before
    /// the run) for a message of its own while its request's reply is pending: each gets its reply.
    @Test func aCopyRunInsideAResponderOnTheSameThreadGetsItsOwnReply() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let copy = Locked<WireSession?>(nil)
        let inner = Locked<WireOutcome?>(nil)
        let later = try router.respond(to: EchoLater.self) { request, reply in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { reply.succeed(request.text) }
        }
        let nested = try router.respond(to: EchoNested.self) { request, reply in
            // The outer reply comes first, while the copy waits for its own.
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { reply.succeed(request.text) }
            guard var session = copy.withLock({ $0 }) else { return }
            let line = #"{"name":"echoLater","body":{"text":"inner"}}"#
            inner.withLock { $0 = session.process(line: Array(line.utf8), number: 1, source: nil) }
        }
        defer { withExtendedLifetime((later, nested)) {} }
        let outer = await onDispatchThread { () -> WireOutcome? in
            var session = WireSession(router: router)
            copy.withLock { $0 = session }
            let line = #"{"name":"echoNested","body":{"text":"outer"}}"#
            return session.process(line: Array(line.utf8), number: 1, source: nil)
        }
        #expect(outer?.kind == .replied)
        #expect(outer?.reply == .string("outer"), "\(outer?.jsonLine ?? "none")")
        let innerOutcome = inner.withLock { $0 }
        #expect(innerOutcome?.reply == .string("inner"), "\(innerOutcome?.jsonLine ?? "none")")
    }
}
