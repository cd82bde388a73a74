import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

@Suite struct BufferPolicyTests {
    @Test func dropIsTheDefaultAndReportsTheMessage() {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        #expect(router.bufferPolicy(for: Ping.channel) == .drop)
        #expect(router.receive(name: "ping", body: ["count": 1]).kind == .unhandled)
        #expect(diagnostics.kinds == ["unhandled"])
        #expect(router.keptCount(for: Ping.channel) == 0)
        withExtendedLifetime(observer) {}
    }

    @Test func keepLastKeepsTheNewestAndReportsTheOneItReplaces() {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        router.setBufferPolicy(.keepLast, for: Ping.channel)
        #expect(router.receive(name: "ping", body: ["count": 1]).kind == .kept)
        #expect(router.receive(name: "ping", body: ["count": 2]).kind == .kept)
        #expect(router.keptCount(for: Ping.channel) == 1)
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { ping in seen.append(ping.count) }
        #expect(seen.all == [2])
        #expect(diagnostics.kinds == ["kept", "keptOverflow", "kept", "keptDelivered"])
        #expect(router.keptTotal == 0)
        withExtendedLifetime((token, observer)) {}
    }

    @Test func keptMessagesAreDeliveredInArrivalOrderWhenAHandlerRegisters() {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        router.setBufferPolicy(.keep(max: 3, for: .seconds(60)), for: Ping.channel)
        for count in 1...5 { _ = router.receive(name: "ping", body: ["count": count]) }
        #expect(router.keptCount(for: Ping.channel) == 3)
        #expect(diagnostics.kinds.filter { $0 == "keptOverflow" }.count == 2)
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { ping in seen.append(ping.count) }
        #expect(seen.all == [3, 4, 5])
        guard case .keptDelivered(_, let count) = diagnostics.all.last else {
            Issue.record("expected keptDelivered last, got \(diagnostics.kinds)")
            return
        }
        #expect(count == 3)
        // Once delivered, nothing is kept and new messages go straight to the handler.
        #expect(router.keptCount(for: Ping.channel) == 0)
        #expect(router.receive(name: "ping", body: ["count": 6]).kind == .handled)
        #expect(seen.all == [3, 4, 5, 6])
        withExtendedLifetime((token, observer)) {}
    }

    @Test func keptMessagesThatWaitTooLongExpireAndAreReported() async {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        router.setBufferPolicy(.keep(max: 10, for: .milliseconds(20)), for: Ping.channel)
        _ = router.receive(name: "ping", body: ["count": 1])
        _ = router.receive(name: "ping", body: ["count": 2])
        #expect(await eventually { diagnostics.kinds.filter { $0 == "keptExpired" }.count == 2 })
        #expect(router.keptCount(for: Ping.channel) == 0)
        #expect(router.keptTotal == 0)
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { ping in seen.append(ping.count) }
        #expect(seen.all.isEmpty)
        withExtendedLifetime((token, observer)) {}
    }

    @Test func expiredMessagesAreNotDeliveredEvenIfTheTimerHasNotRunYet() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        router.setBufferPolicy(.keep(max: 10, for: .milliseconds(5)), for: Ping.channel)
        _ = router.receive(name: "ping", body: ["count": 1])
        try await Task.sleep(for: .milliseconds(10))
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { ping in seen.append(ping.count) }
        _ = router.receive(name: "ping", body: ["count": 2])
        #expect(seen.all == [2])
        #expect(await eventually { diagnostics.kinds.contains("keptExpired") })
        withExtendedLifetime((token, observer)) {}
    }

    @Test func aKeptRequestIsAnsweredOnceAResponderRegisters() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        router.setBufferPolicy(.keep(max: 5, for: .seconds(60)), for: Echo.channel)
        let calls = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        #expect(
            router.receive(name: "echo", body: MessageBody(["text": "first"]), replyHandler: { calls.append($0) })
                .kind == .kept)
        let pending = Task { await router.request(name: "echo", body: ["text": "second"]) }
        #expect(await eventually { router.keptCount(for: Echo.channel) == 2 })
        let token = try router.respond(to: Echo.self) { request, reply in reply.succeed("re: \(request.text)") }
        #expect(calls.all.map { $0.reply(as: String.self) } == ["re: first"])
        #expect(await pending.value.reply(as: String.self) == "re: second")
        withExtendedLifetime(token) {}
    }

    @Test func aKeptRequestTimesOutWhenNoResponderComesInTime() async {
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(20)))
        let (diagnostics, observer) = router.recordDiagnostics()
        router.setBufferPolicy(.keepLast, for: Echo.channel)
        let result = await router.request(name: "echo", body: ["text": "x"])
        #expect(result.kind == "timedOut")
        #expect(diagnostics.kinds == ["kept", "deadlinePassed"])
        #expect(router.keptCount(for: Echo.channel) == 0)  // it no longer takes a place in the buffer
        withExtendedLifetime(observer) {}
    }

    @Test func aKeptRequestDeliveredToAResponderGetsTheResponderDeadlineAndFallback() async throws {
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(30)))
        router.setBufferPolicy(.keepLast, for: Echo.channel)
        let calls = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        _ = router.receive(name: "echo", body: MessageBody(["text": "x"]), replyHandler: { calls.append($0) })
        let held = Locked<[Reply<String>]>([])
        let token = try router.respond(to: Echo.self, deadline: .milliseconds(60), fallback: "fallback") { _, reply in
            held.withLock { $0.append(reply) }
        }
        #expect(await eventually { calls.count == 1 })
        #expect(calls.all.first?.reply(as: String.self) == "fallback")
        withExtendedLifetime(token) {}
    }

    @Test func aDiscardedKeptRequestGetsNoResponder() async {
        let router = Router(options: .init(defaultDeadline: .patient))
        router.setBufferPolicy(.keepLast, for: Echo.channel)
        let calls = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        _ = router.receive(name: "echo", body: MessageBody(["text": "a"]), replyHandler: { calls.append($0) })
        _ = router.receive(name: "echo", body: MessageBody(["text": "b"]), replyHandler: { calls.append($0) })
        #expect(calls.all.map(\.kind) == ["noResponder"])  // "a" overflowed
        router.setBufferPolicy(.drop, for: Echo.channel)  // "b" is discarded
        #expect(calls.all.map(\.kind) == ["noResponder", "noResponder"])
        #expect(router.keptTotal == 0)
    }

    @Test func switchingToDropDiscardsWhatWasKeptAndReportsIt() {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        router.setBufferPolicy(.keep(max: 5, for: .seconds(60)), for: Ping.channel)
        _ = router.receive(name: "ping", body: ["count": 1])
        _ = router.receive(name: "ping", body: ["count": 2])
        router.setBufferPolicy(.drop, for: Ping.channel)
        #expect(router.keptCount(for: Ping.channel) == 0)
        #expect(diagnostics.kinds == ["kept", "kept", "unhandled", "unhandled"])
        #expect(router.receive(name: "ping", body: ["count": 3]).kind == .unhandled)
        withExtendedLifetime(observer) {}
    }

    @Test func shrinkingTheBufferDiscardsTheOldestAsOverflow() {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        router.setBufferPolicy(.keep(max: 5, for: .seconds(60)), for: Ping.channel)
        for count in 1...4 { _ = router.receive(name: "ping", body: ["count": count]) }
        router.setBufferPolicy(.keepLast, for: Ping.channel)
        #expect(router.keptCount(for: Ping.channel) == 1)
        #expect(diagnostics.kinds.filter { $0 == "keptOverflow" }.count == 3)
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { ping in seen.append(ping.count) }
        #expect(seen.all == [4])
        withExtendedLifetime((token, observer)) {}
    }

    @Test func aBufferOfSizeZeroKeepsNothingAndSaysSo() {
        let router = Router(options: .init(defaultDeadline: .patient))
        let (diagnostics, observer) = router.recordDiagnostics()
        router.setBufferPolicy(.keep(max: 0, for: .seconds(1)), for: Ping.channel)
        #expect(router.receive(name: "ping", body: ["count": 1]).kind == .unhandled)
        #expect(diagnostics.kinds == ["keptOverflow"])
        #expect(router.keptTotal == 0)
        withExtendedLifetime(observer) {}
    }

    @Test func theTotalLimitBoundsWhatIsKeptOnAllChannels() {
        let router = Router(
            options: RouterOptions(defaultBufferPolicy: .keep(max: 10, for: .seconds(60)), maxKeptTotal: 3))
        let (diagnostics, observer) = router.recordDiagnostics()
        _ = router.receive(name: "a", body: nil)
        _ = router.receive(name: "a", body: nil)
        _ = router.receive(name: "b", body: nil)
        #expect(router.keptTotal == 3)
        // Past the total, the channel that grows loses its oldest message.
        #expect(router.receive(name: "b", body: nil).kind == .kept)
        #expect(router.keptTotal == 3)
        #expect(router.keptCount(for: "a") == 2)
        #expect(router.keptCount(for: "b") == 1)
        // A channel with nothing kept yet cannot push others out: its message is refused.
        #expect(router.receive(name: "c", body: nil).kind == .unhandled)
        #expect(router.keptTotal == 3)
        #expect(diagnostics.kinds.filter { $0 == "keptOverflow" }.count == 2)
        let token = router.on(Ready.self) { _ in }  // unrelated channel: nothing changes
        #expect(router.keptTotal == 3)
        withExtendedLifetime((token, observer)) {}
    }

    @Test func thePerChannelLimitCapsAnyPolicy() {
        let router = Router(options: RouterOptions(maxKeptPerChannel: 2))
        router.setBufferPolicy(.keep(max: 100, for: .seconds(60)), for: Ping.channel)
        for count in 1...5 { _ = router.receive(name: "ping", body: ["count": count]) }
        #expect(router.keptCount(for: Ping.channel) == 2)
    }

    @Test func aResponderRegisteringAlsoReceivesKeptEvents() throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        router.setBufferPolicy(.keepLast, for: Echo.channel)
        _ = router.receive(name: "echo", body: ["text": "early"])
        let seen = RouterRecorder<String>()
        let token = try router.respond(to: Echo.self) { request, reply in
            seen.append(request.text)
            reply.succeed(request.text)
        }
        #expect(seen.all == ["early"])
        withExtendedLifetime(token) {}
    }

    @Test func policiesDescribeThemselves() {
        #expect(BufferPolicy.drop.description == "drop")
        #expect(BufferPolicy.keepLast.description == "keepLast")
        #expect(BufferPolicy.keep(max: 3, for: .seconds(2)).description == "keep(max: 3, for: 2.0 seconds)")
    }
}
