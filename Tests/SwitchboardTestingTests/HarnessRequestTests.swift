import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardTesting
import Testing

/// A typed reply the harness converts from a reply of another type.
private struct Stock: Codable, Sendable, Equatable {
    let count: Int
}

private struct StockRequest: Request, Encodable {
    typealias Reply = Stock
    static let channel: Channel = "stockRequest"
}

/// Counts how many of its instances have been freed.
private final class Freed: Sendable, Encodable {
    let counter: Locked<Int>
    init(_ counter: Locked<Int>) { self.counter = counter }
    deinit { counter.withLock { $0 += 1 } }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(1)
    }
}

/// `StrictHarness.request(_:)` converts a reply of another type as `Router.request(_:)`
/// does (the router's decoding options; a failure names the channel and the key path),
/// and a reply it waited for is not kept until its timeout.
@Suite struct HarnessRequestTests {
    func harness(_ router: Router) -> (StrictHarness, FailureLog) {
        let log = FailureLog()
        return (StrictHarness(router: router, replyTimeout: .seconds(60), reporter: .capturing(into: log)), log)
    }

    @Test func aReplyOfAnotherTypeIsConvertedWithTheRoutersOptions() async {
        let router = Router(options: RouterOptions(decoding: .lenient))
        let value = ReplyValue(["count": "4"] as JSONValue)
        let token = router.use(Middleware { _, _ in .replied(value) })
        let (harness, log) = harness(router)
        #expect(await harness.request(StockRequest()) == Stock(count: 4))
        #expect(log.messages == [])
        withExtendedLifetime(token) {}
    }

    @Test func aReplyThatDoesNotConvertIsReportedWithTheChannelAndKeyPath() async {
        let router = Router()
        let value = ReplyValue(["count": "many"] as JSONValue)
        let token = router.use(Middleware { _, _ in .replied(value) })
        let (harness, log) = harness(router)
        #expect(await harness.request(StockRequest()) == nil)
        #expect(log.messages.count == 1)
        let message = log.messages.first ?? ""
        #expect(message.hasPrefix("stockRequest: "), "\(message)")
        #expect(message.contains("reply.count"), "\(message)")
        withExtendedLifetime(token) {}
    }

    @Test func aReplyTheHarnessWaitedForIsFreedBeforeItsTimeout() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let freed = Locked(0)
        let token = try router.respond(to: CanaryHolderRequest.self) { _, reply in
            // Answered a moment later, so the harness waits (with its 60-second timeout).
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
                reply.succeed(CanaryHolder(freed: Freed(freed)))
            }
        }
        let (harness, log) = harness(router)
        for _ in 0..<20 {
            let result = await harness.request("canaryHolderRequest", timeout: .seconds(60))
            #expect(result != nil)
            _ = consume result
        }
        let all = await eventually { freed.withLock { $0 } == 20 }
        #expect(all, "\(freed.withLock { $0 }) of 20 replies freed after they were read")
        #expect(log.messages == [])
        withExtendedLifetime(token) {}
    }
}

private struct CanaryHolder: Encodable, Sendable {
    let freed: Freed
}

private struct CanaryHolderRequest: Request {
    typealias Reply = CanaryHolder
    static let channel: Channel = "canaryHolderRequest"
}
