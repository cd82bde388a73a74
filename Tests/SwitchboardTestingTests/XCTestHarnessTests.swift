import Switchboard
import SwitchboardTesting
import XCTest

/// The harness inside an XCTest test case: the automatic reporter takes the
/// XCTest path there (no Swift Testing test is running).
final class XCTestHarnessTests: XCTestCase {
    func testAPassingSessionReportsNothingUnderXCTest() async {
        let app = CountingApp()
        let harness = StrictHarness(router: app.router, replyTimeout: patientReplyTimeout)
        harness.send("sdkReady")
        harness.send("nobody", expecting: .unhandled)
        let count = await harness.request(GetCount())
        XCTAssertEqual(count, 0)
        await harness.finish()
    }

    func testFailuresGoToTheInjectedReporterUnderXCTest() async {
        let app = CountingApp()
        let log = FailureLog()
        let harness = StrictHarness(router: app.router, reporter: .capturing(into: log))
        harness.send("nobody")
        await harness.finish()
        XCTAssertEqual(log.messages, ["nobody: expected delivered, got unhandled"])
    }
}
