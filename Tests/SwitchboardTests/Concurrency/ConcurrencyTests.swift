import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

private struct Tick: Event {
    static let channel: Channel = "tick"
    let thread: Int
}

@Suite(.serialized) struct ConcurrencyTests {
    @Test func manyThreadsReceivingWhileOthersRegisterAndCancel() async {
        let router = Router()
        let delivered = RouterRecorder<Int>()
        let permanent = router.on(Tick.self) { tick in delivered.append(tick.thread) }
        let middleware = router.use(Middleware { message, next in next(message) })
        let perThread = 200
        await concurrently(8) { thread in
            for index in 0..<perThread {
                if thread % 2 == 0 {
                    _ = router.receive(name: "tick", body: ["thread": thread])
                } else {
                    // Register and cancel on other channels and on the same one.
                    let channel = Channel(stringLiteral: "ch\(thread)-\(index % 5)")
                    let extra = router.on(Tick.self) { _ in }
                    router.setBufferPolicy(index % 2 == 0 ? .keepLast : .drop, for: channel)
                    _ = router.receive(Message(channel: channel, body: nil))
                    extra.cancel()
                }
            }
        }
        #expect(delivered.count == 4 * perThread)
        for thread in [0, 2, 4, 6] {
            #expect(delivered.all.filter { $0 == thread }.count == perThread)
        }
        #expect(router.manifest.channels == ["tick"])
        withExtendedLifetime((permanent, middleware)) {}
    }

    @Test func concurrentRegistrationsLeaveObserversWithTheFinalManifest() async {
        let router = Router()
        let last = Locked<Manifest?>(nil)
        let observer = router.observeManifest { manifest in last.withLock { $0 = manifest } }
        let tokens = Locked<[Registration]>([])
        await concurrently(16) { index in
            let token = router.on(Tick.self) { _ in }
            if index % 3 == 0 {
                token.cancel()
            } else {
                tokens.withLock { $0.append(token) }
            }
        }
        #expect(last.withLock { $0 } == router.manifest)
        #expect(router.manifest.channels == ["tick"])
        tokens.withLock { $0.removeAll() }
        #expect(last.withLock { $0 } == router.manifest)
        #expect(router.manifest.channels.isEmpty)
        withExtendedLifetime(observer) {}
    }

    @Test func concurrentRequestsEachGetTheirOwnReply() async throws {
        let router = Router()
        let responder = try router.respond(to: Echo.self) { request, reply in
            if request.text.hasSuffix("0") {
                DispatchQueue.global().async { reply.succeed(request.text) }
            } else {
                reply.succeed(request.text)
            }
        }
        let results = RouterRecorder<Bool>()
        await concurrently(200) { index in
            _ = router.receive(
                name: "echo", body: MessageBody(["text": "r\(index)"]),
                replyHandler: { result in results.append(result.reply(as: String.self) == "r\(index)") })
        }
        #expect(await eventually { results.count == 200 })
        #expect(results.all.allSatisfy { $0 })
        withExtendedLifetime(responder) {}
    }

    @Test func keptMessagesAreNeitherLostNorDuplicatedWhenAHandlerRegistersMidStream() async {
        let router = Router(options: RouterOptions(maxKeptPerChannel: 10_000, maxKeptTotal: 10_000))
        router.setBufferPolicy(.keep(max: 10_000, for: .seconds(60)), for: Tick.channel)
        let delivered = RouterRecorder<Int>()
        let token = Locked<Registration?>(nil)
        await concurrently(4) { thread in
            for index in 0..<250 {
                if thread == 0 && index == 100 {
                    token.withLock { $0 = router.on(Tick.self) { tick in delivered.append(tick.thread) } }
                }
                _ = router.receive(name: "tick", body: ["thread": thread])
            }
        }
        #expect(delivered.count == 1000)
        #expect(router.keptTotal == 0)
        withExtendedLifetime(token) {}
    }
}
