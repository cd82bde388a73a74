import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

private struct StressExpiring: Event {
    static let channel: Channel = "stressExpiring"
    let seq: Int
}

/// Messages sent to channels whose handlers come and go, with keep policies
/// that change under them, tight per-channel and total limits, and expiry
/// timers firing on other threads. Every message is delivered exactly once or
/// reported exactly once (overflow, expiry, dropped); every kept request
/// resolves exactly once.
@Suite(.serialized) struct BufferStressTests {
    @Test func everyKeptMessageIsDeliveredOnceOrReportedOnceWhileHandlersAndPoliciesChange() async {
        let router = Router(
            options: RouterOptions(defaultDeadline: .seconds(30), maxKeptPerChannel: 64, maxKeptTotal: 100))
        router.setBufferPolicy(.keep(max: 50, for: .seconds(60)), for: StressLate.channel)
        router.setBufferPolicy(.keep(max: 50, for: .seconds(60)), for: StressLateRequest.channel)
        router.setBufferPolicy(.keep(max: 10, for: .milliseconds(2)), for: StressExpiring.channel)
        let senders = 3
        let perSender = 200 * Stress.scale
        let channels: [Channel] = [StressLate.channel, StressLateRequest.channel, StressExpiring.channel]

        let delivered = Tally<String>()  // "channel/seq" → deliveries
        let fates = Tally<String>()  // "channel/diagnostic kind" → count
        let sent = Tally<String>()  // channel → messages sent
        let resolutions = Tally<Int>()  // seq → reply-handler calls (requests only)
        let wrongReplies = Tally<Int>()
        let outcomes = Tally<String>()
        let done = Locked(0)

        let observer = router.observeDiagnostics { diagnostic in
            guard let channel = diagnostic.channel else { return }
            fates.add("\(channel)/\(diagnostic.kind)")
        }

        await Stress.onThreads(senders + 2) { thread in
            var random = SeededRandom(seed: UInt64(2_000 + thread))
            if thread < senders {
                for index in 0..<perSender {
                    let seq = thread * perSender + index
                    let channel = channels[random.below(channels.count)]
                    sent.add(channel.name)
                    if channel == StressLateRequest.channel {
                        let outcome = router.receive(
                            Message(channel: channel, body: ["seq": seq], id: "\(seq)"),
                            replyHandler: { result in
                                resolutions.add(seq)
                                if case .success(let value) = result, value.value(as: Int.self) != seq {
                                    wrongReplies.add(seq)
                                }
                            })
                        outcomes.add(outcome.kind.rawValue)
                    } else {
                        outcomes.add(router.receive(Message(channel: channel, body: ["seq": seq])).kind.rawValue)
                    }
                }
                done.withLock { $0 += 1 }
                return
            }
            while done.withLock({ $0 }) < senders {
                if thread == senders {
                    // Handlers and responders come and go (at most one of each per channel at a time).
                    let late = router.on(StressLate.self) { delivered.add("\(StressLate.channel)/\($0.seq)") }
                    let expiring = router.on(StressExpiring.self) {
                        delivered.add("\(StressExpiring.channel)/\($0.seq)")
                    }
                    let responder = router.replaceResponder(of: StressLateRequest.self) { request, reply in
                        delivered.add("\(StressLateRequest.channel)/\(request.seq)")
                        if request.seq % 2 == 0 {
                            reply(.success(request.seq))
                        } else {
                            DispatchQueue.global().async { reply(.success(request.seq)) }
                        }
                    }
                    if random.below(2) == 0 { Thread.sleep(forTimeInterval: 0.000_2) }
                    late.cancel()
                    responder.cancel()
                    if random.below(2) == 0 { expiring.cancel() }  // or released at the end of the scope
                    Thread.sleep(forTimeInterval: 0.000_5)
                } else {
                    // Policies change under the senders; expiry is swept from here too.
                    let policies: [BufferPolicy] = [
                        .keep(max: 50, for: .seconds(60)), .keepLast, .keep(max: 5, for: .seconds(60)),
                        .keep(max: 200, for: .seconds(60)), .drop,
                    ]
                    let channel = random.below(2) == 0 ? StressLate.channel : StressLateRequest.channel
                    router.setBufferPolicy(policies[random.below(policies.count)], for: channel)
                    router.discardExpiredMessages()
                    _ = router.keptTotal
                    _ = router.keptCount(for: channel)
                    Thread.sleep(forTimeInterval: 0.000_3)
                }
            }
        }

        // Flush whatever is still kept, then wait for the last replies and expiry timers.
        router.setBufferPolicy(.keep(max: 50, for: .seconds(60)), for: StressLate.channel)
        router.setBufferPolicy(.keep(max: 50, for: .seconds(60)), for: StressLateRequest.channel)
        let lastLate = router.on(StressLate.self) { delivered.add("\(StressLate.channel)/\($0.seq)") }
        let lastResponder = router.replaceResponder(of: StressLateRequest.self) { request, reply in
            delivered.add("\(StressLateRequest.channel)/\(request.seq)")
            reply(.success(request.seq))
        }
        @Sendable func settled(_ channel: Channel) -> Bool {
            let deliveredCount = delivered.all.keys.filter { $0.hasPrefix("\(channel)/") }.count
            let reported = ["keptOverflow", "keptExpired", "unhandled"].map { fates["\(channel)/\($0)"] }.reduce(0, +)
            return deliveredCount + reported == sent[channel.name]
        }
        let requests = sent[StressLateRequest.channel.name]
        let allSettled = await eventually {
            settled(StressLate.channel) && settled(StressLateRequest.channel) && settled(StressExpiring.channel)
                && resolutions.all.count == requests
        }

        for channel in channels {
            let deliveredCount = delivered.all.keys.filter { $0.hasPrefix("\(channel)/") }.count
            let overflow = fates["\(channel)/keptOverflow"]
            let expired = fates["\(channel)/keptExpired"]
            let dropped = fates["\(channel)/unhandled"]
            #expect(
                deliveredCount + overflow + expired + dropped == sent[channel.name],
                "\(channel): sent \(sent[channel.name]), delivered \(deliveredCount), overflow \(overflow), expired \(expired), dropped \(dropped)"
            )
        }
        #expect(allSettled)
        #expect(delivered.repeated.isEmpty, "delivered twice: \(delivered.repeated.prefix(5))")
        #expect(resolutions.all.count == requests)
        #expect(resolutions.repeated.isEmpty, "resolved twice: \(resolutions.repeated.prefix(5))")
        #expect(wrongReplies.all.isEmpty)
        #expect(router.keptCount(for: StressLate.channel) == 0)
        #expect(router.keptCount(for: StressLateRequest.channel) == 0)
        #expect(outcomes["kept"] > 0, "the run never kept a message: \(outcomes.all)")
        withExtendedLifetime((observer, lastLate, lastResponder)) {}
    }
}
