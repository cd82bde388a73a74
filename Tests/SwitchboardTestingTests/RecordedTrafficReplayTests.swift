import Foundation
import Switchboard
import SwitchboardTesting
import SwitchboardWire
import Testing

/// Traffic recorded with ``TrafficRecorder`` (SwitchboardWire) becomes a fixture
/// that replays to the outcomes the live traffic had.
@Suite struct RecordedTrafficReplayTests {
    @Test func recordedTrafficReplaysToTheSameOutcomes() async throws {
        // Live traffic through the app's router, recorded with redaction.
        let live = CountingApp()
        let recorder = TrafficRecorder(redacting: ["email"])
        let token = live.router.use(recorder, name: "recorder")
        let liveOutcomes = await live.router.replay(
            [
                FixtureMessage(name: "sdkReady"),
                FixtureMessage(name: "addCartLine", body: MessageBody(line(2)), id: "a1"),
                FixtureMessage(name: "addCartLine", body: MessageBody(["quantity": "2"])),
                FixtureMessage(name: "addCartLine", body: MessageBody(line(-1))),
                FixtureMessage(name: "removeCartLine", body: MessageBody([:] as [String: Any])),
                FixtureMessage(name: "getCount", id: "7"),
            ], replyTimeout: patientReplyTimeout)
        token.cancel()

        // Tomorrow's test: the recorded NDJSON replayed through a fresh app.
        let fixture = Fixture(ndjson: Data(recorder.ndjson.utf8))
        #expect(fixture.malformed.isEmpty)
        #expect(!recorder.ndjson.contains("a@example.com"))
        let fresh = CountingApp()
        let replayed = await fresh.router.replay(fixture, replyTimeout: patientReplyTimeout)

        #expect(replayed.map(\.kind) == liveOutcomes.map(\.kind))
        #expect(replayed.map(\.kind) == [.handled, .handled, .invalid, .failed, .unhandled, .replied])
        #expect(replayed.map(\.message.id) == [nil, "a1", nil, nil, nil, "7"])
        #expect(replayed.last?.replyValue?.value(as: Int.self) == 2)
        #expect(replayed.last?.replyValue?.value(as: Int.self) == liveOutcomes.last?.replyValue?.value(as: Int.self))
    }
}
