import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardTesting
import Testing

@Suite struct StrictHarnessTests {
    /// A harness whose failures are captured, so the failure path itself is asserted.
    func harness(_ router: Router, replyTimeout: Duration = patientReplyTimeout) -> (StrictHarness, FailureLog) {
        let log = FailureLog()
        return (StrictHarness(router: router, replyTimeout: replyTimeout, reporter: .capturing(into: log)), log)
    }

    // MARK: Passing

    @Test func aSessionWhereEverythingIsHandledPasses() async throws {
        let app = CountingApp()
        let (harness, log) = harness(app.router)
        harness.send("sdkReady")
        harness.send("addCartLine", body: line(2), expecting: .handled(by: 1))
        harness.send(TestCartLine(merchandiseId: "m1", productId: "p1", quantity: 1, attributes: [:]))
        let reply = await harness.request("getCount")
        #expect(try reply?.get().value(as: Int.self) == 3)
        #expect(await harness.request(GetCount()) == 3)
        await harness.finish()
        #expect(log.messages == [])
    }

    @Test func problemsTheTestExpectsDoNotFailIt() async {
        let app = CountingApp()
        let (harness, log) = harness(app.router)
        harness.send("removeCartLine", body: [:], expecting: .unhandled)
        harness.send("addCartLine", body: ["quantity": "two"], expecting: .invalid)
        harness.send("addCartLine", body: line(-1), expecting: .failed)
        harness.send("", expecting: .invalidChannel)
        await harness.request("nobody", expecting: .noResponder)
        await harness.finish()
        #expect(log.messages == [])
    }

    @Test func aFailureIsExpectedByTheKindThePageSees() async {
        let app = CountingApp()
        let (harness, log) = harness(app.router)
        await harness.request("nobody", expecting: .failure(.noResponder))
        await harness.request("", expecting: .failure(.invalid))
        #expect(log.messages == [])
        await harness.request("nobody", expecting: .failure(.timedOut))
        #expect(log.messages.count == 1)
        #expect(log.messages.first?.hasPrefix("nobody: expected a timedOut failure, got a noResponder failure") == true)
        await harness.request("getCount", expecting: .failure(.failed))
        #expect(log.messages.count == 2)
        #expect(log.messages.last?.hasPrefix("getCount: expected a failed failure, got the reply") == true)
        await harness.finish()
    }

    @Test func sendsCarryTheirSenderThroughTheRoutersOriginPolicy() async throws {
        let app = CountingApp()
        app.router.setDefaultOriginPolicy(try OriginPolicy(allowing: ["https://shop.example.com"]))
        let (harness, log) = harness(app.router)
        let shop = MessageSender(origin: try Origin(parsing: "https://shop.example.com"), isMainFrame: true)
        let ad = MessageSender(origin: try Origin(parsing: "https://ads.example.net"), isMainFrame: true)
        harness.send("addCartLine", body: line(2), sender: shop, expecting: .handled(by: 1))
        harness.send("addCartLine", body: line(2), sender: ad, expecting: .rejected)
        harness.send("addCartLine", body: line(2), expecting: .rejected)  // unknown sender: fail closed
        #expect(await harness.request("getCount", sender: shop).flatMap { try? $0.get().value(as: Int.self) } == 2)
        await harness.request("getCount", sender: ad, expecting: .failure)
        #expect(await harness.request(GetCount(), sender: shop) == 2)
        await harness.finish()
        #expect(log.messages == [])
    }

    @Test func aRejectedSendTheTestDidNotExpectFailsIt() async throws {
        let app = CountingApp()
        app.router.setDefaultOriginPolicy(try OriginPolicy(allowing: ["https://shop.example.com"]))
        let (harness, log) = harness(app.router)
        let lookAlike = MessageSender(
            origin: try Origin(parsing: "https://shop.example.com.evil.net"), isMainFrame: true)
        harness.send("addCartLine", body: line(2), sender: lookAlike)
        await harness.finish()
        #expect(log.messages.count == 1)
        #expect(log.messages.first?.hasPrefix("addCartLine: expected delivered, got rejected") == true)
    }

    // MARK: Failing, one case each

    @Test func anUnhandledMessageFailsAtTheSendThatCausedIt() async {
        let app = CountingApp()
        let (harness, log) = harness(app.router)
        let failingLine: UInt = #line + 1
        harness.send("removeCartLine", body: [:])
        await harness.finish()
        #expect(log.messages == ["removeCartLine: expected delivered, got unhandled"])
        #expect(log.failures.first?.line == failingLine)
        let fileID = log.failures.first.map { "\($0.fileID)" } ?? ""
        #expect(fileID.hasSuffix("StrictHarnessTests.swift"))
    }

    @Test func anInvalidMessageFails() async {
        let app = CountingApp()
        let (harness, log) = harness(app.router)
        harness.send("addCartLine", body: ["quantity": 1])
        await harness.finish()
        #expect(log.messages.count == 1)
        #expect(log.messages.first?.hasPrefix("addCartLine: expected delivered, got invalid: ") == true)
    }

    @Test func aHandlerThatThrowsFails() async {
        let app = CountingApp()
        let (harness, log) = harness(app.router)
        harness.send("addCartLine", body: line(-1))
        await harness.finish()
        #expect(log.messages == ["addCartLine: expected delivered, got failed: rejected"])
    }

    @Test func anOutcomeOtherThanTheExpectedOneFails() async {
        let app = CountingApp()
        let (harness, log) = harness(app.router)
        harness.send("addCartLine", body: line(1), expecting: .unhandled)
        harness.send("addCartLine", body: line(1), expecting: .handled(by: 2))
        await harness.finish()
        #expect(
            log.messages == [
                "addCartLine: expected unhandled, got handled by 1",
                "addCartLine: expected handled by 2, got handled by 1",
            ])
    }

    @Test func aMissingReplyFails() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let held = Locked<[Reply<Int>]>([])
        let token = try router.respond(to: SlowCount.self) { _, reply in held.withLock { $0.append(reply) } }
        let (harness, log) = harness(router, replyTimeout: .milliseconds(30))
        let reply = await harness.request("slowCount")
        #expect(reply == nil)
        #expect(log.messages == ["slowCount: no reply within 0.03 seconds (missing or late)"])
        held.withLock { $0.removeAll() }
        await harness.finish()
        _ = token
    }

    @Test func aReplyStillMissingAfterASendFailsAtFinish() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let held = Locked<[Reply<Int>]>([])
        let token = try router.respond(to: SlowCount.self) { _, reply in held.withLock { $0.append(reply) } }
        let (harness, log) = harness(router, replyTimeout: .milliseconds(30))
        harness.send("slowCount", expecting: .awaitingReply)
        #expect(log.messages.isEmpty)
        await harness.finish()
        #expect(log.messages == ["slowCount: no reply within 0.03 seconds (missing or late)"])
        _ = token
    }

    @Test func aReplyThatArrivesLaterAfterASendPasses() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: SlowCount.self) { _, reply in
            // Long enough that the reply cannot beat `receive` returning, even on a loaded machine.
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(150)) { reply(.success(1)) }
        }
        let (harness, log) = harness(router)
        harness.send("slowCount", expecting: .awaitingReply)
        await harness.finish()
        #expect(log.messages == [])
        _ = token
    }

    @Test func aLateReplyFailsThroughTheDeadlineDiagnostic() async throws {
        // The responder's deadline passes and its fallback is sent: a reply, but a late one.
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: SlowCount.self, deadline: .milliseconds(10), fallback: 0) { _, reply in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(40)) { reply(.success(1)) }
        }
        let (harness, log) = harness(router)
        let reply = await harness.request("slowCount")
        #expect(try reply?.get().value(as: Int.self) == 0)
        // Wait (bounded) for the responder's late reply to be reported.
        let end = ContinuousClock.now + .seconds(2)
        while harness.unconsumedDiagnostics.count < 2, ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(2))
        }
        await harness.finish()
        #expect(log.messages.count == 2)
        #expect(log.messages.contains { $0.hasPrefix("unexpected diagnostic: slowCount: no reply within") })
        #expect(log.messages.contains("unexpected diagnostic: slowCount: reply after the deadline ignored"))
        _ = token
    }

    @Test func aTimedOutRequestFailsUnlessExpected() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let held = Locked<[Reply<Int>]>([])
        let token = try router.respond(to: SlowCount.self, deadline: .milliseconds(10)) { _, reply in
            held.withLock { $0.append(reply) }
        }
        let (harness, log) = harness(router)
        await harness.request("slowCount")
        #expect(log.messages.first?.hasPrefix("slowCount: expected a reply, got a timedOut failure") == true)
        log.removeAll()
        await harness.request("slowCount", expecting: .timedOut)
        #expect(log.messages.isEmpty)
        harness.skipDiagnostics()  // the first time-out's diagnostic
        await harness.finish()
        #expect(log.messages.isEmpty)
        _ = token
    }

    @Test func keptMessagesNeverDeliveredFailAtFinish() async {
        let router = Router(options: .init(defaultDeadline: .patient))
        router.setBufferPolicy(.keep(max: 5, for: .seconds(30)), for: TestReady.channel)
        let (harness, log) = harness(router)
        harness.send("sdkReady", expecting: .kept)
        harness.send("sdkReady", expecting: .kept)
        await harness.finish()
        #expect(log.messages == ["sdkReady: 2 kept messages were never delivered"])
    }

    @Test func keptMessagesDeliveredLaterPass() async {
        let router = Router(options: .init(defaultDeadline: .patient))
        router.setBufferPolicy(.keepLast, for: TestReady.channel)
        let (harness, log) = harness(router)
        harness.send("sdkReady", expecting: .kept)
        let token = router.on(TestReady.self) { _ in }
        await harness.finish()
        #expect(log.messages == [])
        _ = token
    }

    @Test func keptMessagesMayStayUndeliveredWhenTheTestSaysSo() async {
        let router = Router(options: .init(defaultDeadline: .patient))
        router.setBufferPolicy(.keepLast, for: TestReady.channel)
        let (harness, log) = harness(router)
        harness.send("sdkReady", expecting: .kept)
        harness.expectKeptUndelivered(on: TestReady.channel)
        await harness.finish()
        #expect(log.messages == [])
    }

    @Test func problemsOutsideTheHarnessesSendsFailAtFinishUnlessConsumed() async {
        let app = CountingApp()
        let (harness, log) = harness(app.router)
        // Traffic that reaches the router another way (a web view bridge, the app itself).
        _ = app.router.receive(name: "wishlistEntryUpdate", body: [:])
        _ = app.router.receive(name: "addCartLine", body: ["quantity": true])
        await harness.expectDiagnostic(.unhandled, on: "wishlistEntryUpdate")
        #expect(harness.unconsumedDiagnostics.map(\.kind) == [.invalidBody])
        await harness.finish()
        #expect(log.messages.count == 1)
        #expect(log.messages.first?.hasPrefix("unexpected diagnostic: addCartLine: ") == true)
    }

    @Test func anExpectedDiagnosticThatNeverComesFails() async {
        let app = CountingApp()
        let (harness, log) = harness(app.router)
        await harness.expectDiagnostic(.keptExpired, on: "sdkReady", timeout: .milliseconds(10))
        await harness.finish()
        #expect(log.messages == ["expected a keptExpired diagnostic on sdkReady; none came"])
    }

    @Test func anExpiredKeptMessageCanBeExpected() async {
        let router = Router(options: .init(defaultDeadline: .patient))
        router.setBufferPolicy(.keep(max: 1, for: .milliseconds(10)), for: TestReady.channel)
        let (harness, log) = harness(router)
        harness.send("sdkReady", expecting: .kept)
        await harness.expectDiagnostic(.keptExpired, on: "sdkReady")
        await harness.finish()
        #expect(log.messages == [])
    }

    @Test func aHarnessReleasedWithoutFinishStillReports() async {
        let app = CountingApp()
        let log = FailureLog()
        do {
            let harness = StrictHarness(router: app.router, reporter: .capturing(into: log))
            _ = app.router.receive(name: "nobody", body: nil)
            _ = harness
        }
        #expect(log.messages == ["unexpected diagnostic: nobody: no handler; message dropped"])
    }

    @Test func theAutomaticReporterRecordsASwiftTestingIssue() async {
        let app = CountingApp()
        let harness = StrictHarness(router: app.router)
        withKnownIssue {
            harness.send("removeCartLine", body: [:])
        } matching: { issue in
            issue.comments.contains { $0.rawValue == "removeCartLine: expected delivered, got unhandled" }
        }
        await harness.finish()
    }
}
