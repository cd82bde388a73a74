import Foundation
import Switchboard
import Testing

/// Hammers one router from many threads at once and counts that nothing is lost:
/// every `receive` gets exactly one outcome and its reply handler runs exactly
/// once, every handler call is accounted for by an outcome, every request
/// resolves exactly once with its own reply, and every kept message is either
/// delivered once or reported. `.ci/run` runs these under ThreadSanitizer.
@Suite(.serialized) struct RouterStressTests {
    static let senders = 4
    static var messagesPerSender: Int { 300 * Stress.scale }

    @Test func everyMessageGetsOneOutcomeAndOneReplyWhileHandlersMiddlewareAndObserversChurn() async {
        let router = Router(options: RouterOptions(defaultDeadline: .seconds(30)))
        let perSender = Self.messagesPerSender
        let total = Self.senders * perSender

        let replies = Tally<Int>()  // seq → reply-handler calls
        let outcomes = Tally<String>()  // kind → count
        let accountedCalls = Tally<String>()  // what outcomes say ran, for the ping channel
        let handlerCalls = Tally<String>()  // what really ran
        let deliveries = Tally<String>()  // "handler id/seq", to catch a handler seeing a message twice
        let diagnostics = Tally<String>()
        let middlewareSeen = Tally<String>()
        let manifestsSeen = Tally<String>()
        let sendersDone = Locked(0)

        let diagnosticsToken = router.observeDiagnostics { diagnostics.add($0.kind.rawValue) }
        // One handler stays the whole time, so the channel is never without one for long.
        let anchor = router.on(StressPing.self) { ping in
            handlerCalls.add("ping")
            deliveries.add("anchor/\(ping.seq)")
        }

        await Stress.onThreads(Self.senders + 3) { thread in
            var random = SeededRandom(seed: UInt64(thread))
            if thread < Self.senders {
                // Senders: valid, invalid, unhandled and badly named messages, all with a reply handler.
                for index in 0..<perSender {
                    let seq = thread * perSender + index
                    let name: String
                    let body: MessageBody
                    switch random.below(10) {
                    case 0: (name, body) = ("stressPing", MessageBody(["seq": "not a number"]))
                    case 1: (name, body) = ("stressNobody", MessageBody(["seq": seq]))
                    case 2: (name, body) = (random.below(2) == 0 ? "" : "bad\u{7}name", MessageBody(["seq": seq]))
                    case 3:
                        (name, body) = (
                            "stressPing", MessageBody(json: .object(["seq": .number(JSONNumber(unchecked: "\(seq)"))]))
                        )
                    default: (name, body) = ("stressPing", MessageBody(["seq": seq]))
                    }
                    let outcome = router.receive(name: name, body: body, id: "\(seq)") { _ in replies.add(seq) }
                    outcomes.add(outcome.kind.rawValue)
                    if name == "stressPing" {
                        switch outcome {
                        case .handled(let count): accountedCalls.add("ping", count)
                        case .failed(let failure): accountedCalls.add("ping", failure.succeeded + failure.errors.count)
                        default: break
                        }
                    }
                }
                sendersDone.withLock { $0 += 1 }
                return
            }
            var tokens: [Registration] = []
            while sendersDone.withLock({ $0 }) < Self.senders {
                switch thread - Self.senders {
                case 0:
                    // Handlers come and go; some throw; some tokens are released on this thread, some cancelled.
                    let id = random.next()
                    let throwing = random.below(4) == 0
                    let handler: @Sendable (StressPing, MessageContext) throws -> Void = { ping, _ in
                        handlerCalls.add("ping")
                        deliveries.add("\(id)/\(ping.seq)")
                        if throwing { throw StressError(seq: ping.seq) }
                    }
                    if random.below(20) == 0 {
                        // Replacing drops every handler, the anchor too: put the anchor's twin back.
                        tokens.append(router.replaceHandlers(of: StressPing.self, with: handler))
                        tokens.append(
                            router.on(StressPing.self) { ping in
                                handlerCalls.add("ping")
                                deliveries.add("anchor-\(id)/\(ping.seq)")
                            })
                    } else {
                        tokens.append(router.on(StressPing.self, handler))
                    }
                    if tokens.count > 6 {
                        let victim = tokens.remove(at: random.below(tokens.count))
                        if random.below(2) == 0 { victim.cancel() }
                    }
                case 1:
                    // Middleware comes and goes; one of them rewrites nothing but looks at every message.
                    tokens.append(
                        router.use(
                            Middleware { message, next in
                                middlewareSeen.add(message.channel.name)
                                return next(message)
                            }, name: "counter"))
                    if tokens.count > 3 { tokens.removeFirst().cancel() }
                default:
                    // Manifest readers and observers, feature declarations.
                    _ = router.manifest
                    _ = router.isEnabled(featureNamed: "stressFeature")
                    _ = router.isHandled(StressPing.channel)
                    router.declare(Feature("stressFeature", needs: StressPing.channel, "stressNobody"))
                    tokens.append(
                        router.observeManifest { manifest in manifestsSeen.add("\(manifest.channels.count)") })
                    tokens.append(router.on(StressLate.self) { _ in })  // the manifest changes with it
                    while tokens.count > 4 { tokens.removeFirst().cancel() }
                }
            }
            tokens.removeAll()
        }

        // Outcomes: one per message, and the pings that ran are exactly the handler calls.
        #expect(outcomes.total == total)
        #expect(outcomes["awaitingReply"] == 0)
        #expect(accountedCalls["ping"] == handlerCalls["ping"])
        #expect(deliveries.repeated.isEmpty, "a handler saw a message twice: \(deliveries.repeated.prefix(5))")
        // Replies: every message's reply handler ran exactly once (they all resolve before `receive` returns).
        #expect(replies.all.count == total)
        #expect(replies.repeated.isEmpty, "reply handlers ran twice: \(replies.repeated.prefix(5))")
        // Diagnostics: each rejected message is reported once.
        #expect(diagnostics["unhandled"] == outcomes["unhandled"])
        #expect(diagnostics["invalidBody"] == outcomes["invalid"])
        #expect(diagnostics["invalidChannel"] == outcomes["invalidChannel"])
        #expect(outcomes["handled"] + outcomes["failed"] + outcomes["invalid"] > 0)
        withExtendedLifetime((anchor, diagnosticsToken)) {}
    }

    @Test func manifestObserversEndOnTheCurrentManifestWhateverTheInterleaving() async {
        let router = Router()
        let last = Locked<Manifest?>(nil)
        let observer = router.observeManifest { manifest in last.withLock { $0 = manifest } }
        let rounds = 100 * Stress.scale
        await Stress.onThreads(6) { thread in
            var random = SeededRandom(seed: UInt64(100 + thread))
            var tokens: [Registration] = []
            for round in 0..<rounds {
                switch random.below(4) {
                case 0: tokens.append(router.on(StressPing.self) { _ in })
                case 1: tokens.append(router.on(StressLate.self) { _ in })
                case 2:
                    tokens.append(
                        router.replaceResponder(of: StressEcho.self) { request, reply in reply(.success(request.seq)) })
                default: router.declare(Feature("f\(round % 3)", needs: StressPing.channel, StressEcho.channel))
                }
                if tokens.count > 3 || random.below(3) == 0, !tokens.isEmpty {
                    tokens.remove(at: random.below(tokens.count)).cancel()
                }
            }
            if thread % 2 == 0 { tokens.removeAll() }  // the others keep theirs until the thread ends
        }
        // Every thread has returned and released its tokens: the observer's last manifest is the router's.
        let current = router.manifest
        #expect(last.withLock { $0 } == current)
        #expect(current.channels.isEmpty)
        withExtendedLifetime(observer) {}
    }
}
