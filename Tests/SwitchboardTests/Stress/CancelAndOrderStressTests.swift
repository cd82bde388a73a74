import Foundation
import Switchboard
import Testing

/// Once `cancel()` (or a replacing call) has returned, what it registered is not
/// started again; kept messages reach a handler that registers on one thread
/// before messages that arrive on another meanwhile. Over many rounds, on several threads.
/// A gate that threads wait at, inside the router, between reading a route and
/// calling what it holds (in a body's decoding, or in an earlier middleware or
/// observer), while the test unregisters on another thread and then opens it.
final class Gate: Sendable {
    private let state = Locked((open: false, arrived: 0))

    /// The gate of the current round (the decoding of `GatedPing` and `GatedEcho` waits at it).
    static let current = Locked(Gate())

    static func pass() { current.withLock { $0 }.pass() }

    /// Waits (sleeping 50 µs at a time) until the gate opens.
    func pass() {
        state.withLock { $0.arrived += 1 }
        let end = ContinuousClock.now + .seconds(10)
        while !state.withLock({ $0.open }) && ContinuousClock.now < end { usleep(50) }
    }

    /// Waits (sleeping 50 µs at a time) until `count` threads wait at the gate, or a second has passed.
    func waitForArrivals(_ count: Int) {
        let end = ContinuousClock.now + .seconds(1)
        while state.withLock({ $0.arrived }) < count && ContinuousClock.now < end { usleep(50) }
    }

    func open() { state.withLock { $0.open = true } }
}

/// An event whose decoding waits at the current ``Gate``.
struct GatedPing: Event {
    static let channel: Channel = "stressGatedPing"
    let seq: Int

    init(from decoder: any Decoder) throws {
        Gate.pass()
        seq = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .seq)
    }

    private enum CodingKeys: String, CodingKey { case seq }
}

/// A request whose decoding waits at the current ``Gate``.
struct GatedEcho: Request {
    typealias Reply = Int
    static let channel: Channel = "stressGatedEcho"
    let seq: Int

    init(from decoder: any Decoder) throws {
        Gate.pass()
        seq = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .seq)
    }

    private enum CodingKeys: String, CodingKey { case seq }
}

@Suite(.serialized) struct CancelAndOrderStressTests {
    static var rounds: Int { 100 * Stress.scale }

    /// Over ``rounds`` rounds: registers with `register`; `senders` threads call `send`,
    /// which reads the registration's route and then waits at the round's ``Gate``;
    /// once `arrivals` of them wait there, another thread unregisters (`unregister`
    /// returns) and only then opens the gate. Every call of the registration after that
    /// started after unregistering returned: returns how many there were (all rounds).
    static func lateStarts(
        senders: Int = 3, arrivals: Int? = nil,
        register: @escaping @Sendable (_ onCall: @escaping @Sendable () -> Void) -> Registration,
        unregister: @escaping @Sendable (Registration) -> Void = { $0.cancel() },
        send: @escaping @Sendable (Int) -> Void
    ) async -> Int {
        var late = 0
        for _ in 0..<rounds {
            let gate = Gate()
            Gate.current.withLock { $0 = gate }
            let calls = Locked(0)
            let token = register { calls.withLock { $0 += 1 } }
            await Stress.onThreads(senders + 1) { thread in
                if thread == 0 {
                    gate.waitForArrivals(arrivals ?? senders)
                    unregister(token)
                    gate.open()
                } else {
                    send(thread)
                }
            }
            gate.open()
            late += calls.withLock { $0 }
            withExtendedLifetime(token) {}
        }
        Gate.current.withLock { $0 = Gate() }
        Gate.current.withLock { $0 }.open()
        return late
    }

    @Test func noHandlerStartsAfterCancelReturns() async {
        let router = Router()
        let late = await Self.lateStarts(
            register: { onCall in router.on(GatedPing.self) { _ in onCall() } },
            send: { seq in _ = router.receive(name: "stressGatedPing", body: ["seq": seq]) })
        #expect(late == 0, "\(late) handler calls started after cancel() returned")
    }

    @Test func noHandlerStartsAfterItsTokenIsReleased() async {
        let router = Router()
        let slot = Locked<Registration?>(nil)
        let late = await Self.lateStarts(
            register: { onCall in
                slot.withLock { $0 = router.on(GatedPing.self) { _ in onCall() } }
                return .inert
            },
            unregister: { _ in
                _ = slot.withLock { stored in
                    defer { stored = nil }
                    return stored
                }
            },
            send: { seq in _ = router.receive(name: "stressGatedPing", body: ["seq": seq]) })
        #expect(late == 0, "\(late) handler calls started after the token was released")
    }

    @Test func noReplacedHandlerStartsAfterReplaceReturns() async {
        let router = Router()
        let late = await Self.lateStarts(
            register: { onCall in router.replaceHandlers(of: GatedPing.self) { _, _ in onCall() } },
            unregister: { _ in _ = router.replaceHandlers(of: GatedPing.self) { _, _ in } },
            send: { seq in _ = router.receive(name: "stressGatedPing", body: ["seq": seq]) })
        #expect(late == 0, "\(late) replaced handler calls started after replaceHandlers returned")
    }

    @Test func noResponderStartsAfterCancelOrReplaceReturns() async {
        let router = Router()
        let replies = Tally<String>()
        for replacing in [false, true] {
            let late = await Self.lateStarts(
                register: { onCall in
                    router.replaceResponder(of: GatedEcho.self) { request, reply in
                        onCall()
                        reply(.success(request.seq))
                    }
                },
                unregister: { token in
                    if replacing {
                        _ = router.replaceResponder(of: GatedEcho.self) { request, reply in
                            reply(.success(-request.seq))
                        }
                    } else {
                        token.cancel()
                    }
                },
                send: { seq in
                    _ = router.receive(Message(channel: GatedEcho.channel, body: ["seq": seq])) { result in
                        replies.add((try? result.get()) == nil ? "failure" : "reply")
                    }
                })
            #expect(late == 0, "\(late) responder calls started after unregistering returned (replacing: \(replacing))")
        }
        // Every caller was answered once: by the replacement, or with a failure once there was none.
        #expect(replies.total == 2 * Self.rounds * 3)
    }

    @Test func noMiddlewareStartsAfterCancelReturns() async {
        let router = Router()
        let handler = router.on(StressPing.self) { _ in }
        let gateKeeper = router.use(
            Middleware { message, next in
                Gate.pass()
                return next(message)
            })
        let late = await Self.lateStarts(
            register: { onCall in
                router.use(
                    Middleware { message, next in
                        onCall()
                        return next(message)
                    })
            },
            send: { seq in _ = router.receive(name: "stressPing", body: ["seq": seq]) })
        #expect(late == 0, "\(late) middleware calls started after cancel() returned")
        withExtendedLifetime((handler, gateKeeper)) {}
    }

    @Test func noDiagnosticsObserverStartsAfterCancelReturns() async {
        let router = Router()
        let gateKeeper = router.observeDiagnostics { _ in Gate.pass() }
        let late = await Self.lateStarts(
            register: { onCall in router.observeDiagnostics { _ in onCall() } },
            send: { _ in _ = router.receive(name: "nobodyListens", body: nil) })
        #expect(late == 0, "\(late) diagnostics observer calls started after cancel() returned")
        withExtendedLifetime(gateKeeper) {}
    }

    @Test func noManifestObserverStartsAfterCancelReturns() async {
        let router = Router()
        let gateKeeper = router.observeManifest { _ in Gate.pass() }
        // One thread at a time tells observers: one sender reaches the gate, the others' changes queue.
        let late = await Self.lateStarts(
            arrivals: 1,
            register: { onCall in router.observeManifest { _ in onCall() } },
            send: { _ in router.on(StressPing.self) { _ in }.cancel() })
        #expect(late == 0, "\(late) manifest observer calls started after cancel() returned")
        withExtendedLifetime(gateKeeper) {}
    }

    @Test func keptMessagesComeFirstThenLaterOnesInReceiveOrder() async {
        let rounds = 40 * Stress.scale
        let kept = 50
        let later = 100
        var misordered = 0
        for _ in 0..<rounds {
            // Room for every message, so none is pushed out before the handler registers.
            let router = Router(options: RouterOptions(maxKeptPerChannel: 1_000, maxKeptTotal: 1_000))
            router.setBufferPolicy(.keep(max: 1_000, for: .seconds(60)), for: StressPing.channel)
            for seq in 0..<kept { _ = router.receive(name: "stressPing", body: ["seq": seq]) }
            let seen = RouterRecorder<Int>()
            let token = Locked<Registration?>(nil)
            await Stress.onThreads(2) { thread in
                if thread == 0 {
                    // A handler that takes a moment, so that delivering the kept messages takes a while.
                    let registration = router.on(StressPing.self) { ping in
                        seen.append(ping.seq)
                        usleep(20)
                    }
                    token.withLock { $0 = registration }
                } else {
                    for seq in kept..<(kept + later) { _ = router.receive(name: "stressPing", body: ["seq": seq]) }
                }
            }
            if seen.all != Array(0..<(kept + later)) { misordered += 1 }
            #expect(router.keptCount(for: StressPing.channel) == 0)
            withExtendedLifetime(token) {}
        }
        #expect(misordered == 0, "\(misordered) of \(rounds) rounds delivered out of receive order")
    }

    @Test func keptRequestsReachTheirResponderBeforeLaterOnesAndEveryCallerIsAnswered() async {
        let rounds = 20 * Stress.scale
        var misordered = 0
        for _ in 0..<rounds {
            let router = Router()
            router.setBufferPolicy(.keep(max: 100, for: .seconds(60)), for: StressEcho.channel)
            let answers = Tally<Int>()
            for seq in 0..<10 {
                _ = router.receive(Message(channel: StressEcho.channel, body: ["seq": seq])) { result in
                    if case .success(let value) = result, let seq = value.value(as: Int.self) { answers.add(seq) }
                }
            }
            let seen = RouterRecorder<Int>()
            let token = Locked<Registration?>(nil)
            await Stress.onThreads(2) { thread in
                if thread == 0 {
                    let registration = router.replaceResponder(of: StressEcho.self) { request, reply in
                        seen.append(request.seq)
                        reply(.success(request.seq))
                    }
                    token.withLock { $0 = registration }
                } else {
                    for seq in 10..<40 {
                        _ = router.receive(Message(channel: StressEcho.channel, body: ["seq": seq])) { result in
                            if case .success(let value) = result, let seq = value.value(as: Int.self) {
                                answers.add(seq)
                            }
                        }
                    }
                }
            }
            if seen.all != Array(0..<40) { misordered += 1 }
            #expect(answers.total == 40)
            withExtendedLifetime(token) {}
        }
        #expect(misordered == 0, "\(misordered) of \(rounds) rounds answered out of receive order")
    }
}
