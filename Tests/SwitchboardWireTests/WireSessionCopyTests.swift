import Foundation
import Switchboard
import SwitchboardWire
import Testing

struct EchoLater: Request {
    static let channel: Channel = "echoLater"
    typealias Reply = String
    let text: String
}

/// `WireSession` is a `Sendable` value: a copy is a session of its own, which may run on
/// another thread at the same time as the original, each message getting its own reply.
@Suite struct WireSessionCopyTests {
    @Test func copiesOfASessionRunningAtOnceEachGetTheirOwnReplies() async throws {
        let router = Router()
        let responder = try router.respond(to: EchoLater.self) { request, reply in
            // Replied later, from another thread, after a short, varying delay.
            let delay = Int.random(in: 0...300)
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
                    let outcomes = try await onDispatchThread { () -> [WireOutcome] in
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
}
