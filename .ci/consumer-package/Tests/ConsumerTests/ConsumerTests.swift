import Foundation
import Switchboard
import SwitchboardTesting
import SwitchboardWire
import Testing

struct Ping: BodylessEvent {
    static let channel: Channel = "ping"
}

@Suite struct ConsumerTests {
    @Test func aFixtureReplaysThroughTheAppsRouter() async throws {
        let router = Router()
        let ping = router.on(Ping.self) { _ in }
        let fixture = Fixture(ndjson: Data("{\"name\":\"ping\"}\n{\"name\":\"nobody\"}\n".utf8))
        let results = await router.replay(fixture)
        #expect(results.map(\.kind) == [.handled, .unhandled])
        #expect(WireSession.Options().maxLineBytes > 0)
        withExtendedLifetime(ping) {}
    }
}
