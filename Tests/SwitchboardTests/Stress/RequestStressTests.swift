import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// Requests from many threads (callback, async and typed APIs) while the responder
/// is replaced with ones that reply at once, from other threads, asynchronously,
/// twice, never (deadline), with a fallback, by failing or by dropping the handle.
/// Every request must resolve exactly once, with its own reply or a failure.
@Suite(.serialized) struct RequestStressTests {
    @Test func everyRequestResolvesExactlyOnceWithItsOwnReplyWhileTheResponderIsReplaced() async {
        let router = Router(options: RouterOptions(defaultDeadline: .seconds(30)))
        let senders = 3
        let perSender = 200 * Stress.scale
        let asyncRequests = 60 * Stress.scale
        let total = senders * perSender + asyncRequests

        let resolutions = Tally<Int>()  // seq → times resolved
        let wrongReplies = Tally<String>()  // a reply that belongs to another request
        let failures = Tally<String>()  // kind → count
        let wins = Tally<Int>()  // seq → completions that resolved the caller (at most one)
        let handles = SharedStack<PendingReply>()  // handles another thread answers
        let parked = SharedStack<Reply<Int>>()  // handles nobody answers (deadline or fallback)
        let done = Locked(0)
        let fallbackValue = -1

        let record: @Sendable (Int, Result<ReplyValue, RequestFailure>) -> Void = { seq, result in
            resolutions.add(seq)
            switch result {
            case .success(let value):
                let reply = value.value(as: Int.self)
                if reply != seq && reply != fallbackValue {
                    wrongReplies.add("\(seq) got \(String(describing: reply))")
                }
            case .failure(let failure):
                failures.add(failure.caseName)
            }
        }

        let token = router.replaceResponder(of: StressEcho.self) { request, reply in reply(.success(request.seq)) }

        let workers = Task {
            await Stress.onThreads(senders + 3) { thread in
                var random = SeededRandom(seed: UInt64(1_000 + thread))
                if thread < senders {
                    for index in 0..<perSender {
                        let seq = thread * perSender + index
                        _ = router.receive(name: "stressEcho", body: ["seq": seq], sender: .app) { record(seq, $0) }
                    }
                    done.withLock { $0 += 1 }
                    return
                }
                if thread == senders {
                    // The responder changes style all the time.
                    var tokens: [Registration] = []
                    var lastDrain = ContinuousClock.now
                    while done.withLock({ $0 }) < senders {
                        let style = random.below(9)
                        let registration: Registration
                        switch style {
                        case 0:
                            registration = router.replaceResponder(of: StressEcho.self) { request, reply in
                                wins.add(request.seq, reply(.success(request.seq)) ? 1 : 0)
                            }
                        case 1:
                            registration = router.replaceResponder(of: StressEcho.self) { request, reply in
                                handles.push(PendingReply(seq: request.seq, reply: reply))
                            }
                        case 2:
                            registration = router.replaceResponder(of: StressEcho.self) { request async throws -> Int in
                                if request.seq % 5 == 0 { throw StressError(seq: request.seq) }
                                return request.seq
                            }
                        case 3:
                            registration = router.replaceResponder(of: StressEcho.self) { request, reply in
                                reply(.failure(StressError(seq: request.seq)))
                            }
                        case 4:
                            registration = router.replaceResponder(of: StressEcho.self) { _, _ in }  // drops the handle
                        case 5:
                            registration = router.replaceResponder(of: StressEcho.self, deadline: .milliseconds(20)) {
                                _, reply in parked.push(reply)
                            }
                        case 6:
                            registration = router.replaceResponder(
                                of: StressEcho.self, deadline: .milliseconds(20), fallback: fallbackValue
                            ) { _, reply in parked.push(reply) }
                        case 7:
                            // Two threads race to answer the same handle.
                            registration = router.replaceResponder(of: StressEcho.self) { request, reply in
                                handles.push(PendingReply(seq: request.seq, reply: reply))
                                handles.push(PendingReply(seq: request.seq, reply: reply))
                            }
                        default:
                            tokens.removeAll()  // no responder for a moment
                            token.cancel()
                            continue
                        }
                        tokens.append(registration)
                        if tokens.count > 2 { tokens.removeFirst() }
                        if ContinuousClock.now - lastDrain > .milliseconds(50) {
                            _ = parked.drain()  // released after their deadline, mostly
                            lastDrain = .now
                        }
                    }
                    tokens.removeAll()
                    return
                }
                // Repliers: answer handles from other threads, sometimes twice.
                while done.withLock({ $0 }) < senders || !handles.isEmpty {
                    guard let pending = handles.pop() else {
                        Thread.sleep(forTimeInterval: 0.000_1)
                        continue
                    }
                    wins.add(pending.seq, pending.reply.succeed(pending.seq) ? 1 : 0)
                }
            }
        }

        // Meanwhile, async callers on the cooperative pool: untyped and typed.
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<asyncRequests {
                let seq = senders * perSender + index
                group.addTask {
                    if index % 2 == 0 {
                        record(seq, await router.request(name: "stressEcho", body: ["seq": seq]))
                    } else {
                        do throws(RequestFailure) {
                            let reply = try await router.request(StressEcho(seq: seq))
                            record(seq, .success(ReplyValue(reply)))
                        } catch {
                            record(seq, .failure(error))
                        }
                    }
                }
            }
        }
        await workers.value

        let allResolved = await eventually { resolutions.all.count == total }
        _ = parked.drain()
        _ = handles.drain()
        #expect(allResolved, "\(total - resolutions.all.count) requests never resolved")
        #expect(resolutions.repeated.isEmpty, "resolved twice: \(resolutions.repeated.prefix(5))")
        #expect(wrongReplies.all.isEmpty, "replies crossed: \(wrongReplies.all.keys.prefix(5))")
        #expect(wins.repeated.isEmpty)
        let known: Set<String> = ["noResponder", "responderFailed", "dropped", "timedOut"]
        #expect(Set(failures.all.keys).isSubset(of: known), "unexpected failures: \(failures.all)")
        withExtendedLifetime(token) {}
    }
}

/// A reply handle waiting for another thread, with the request's `seq`.
struct PendingReply: Sendable {
    let seq: Int
    let reply: Reply<Int>
}
