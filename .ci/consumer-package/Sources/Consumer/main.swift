// An app's use of every library product but SwitchboardTesting (the test target uses
// that one): its own event, the reference commerce handlers, the traffic recorder, and
// the wire format piping messages through the app's router into a sink.
import Switchboard
import SwitchboardCommerce
import SwitchboardWebKit
import SwitchboardWire

#if canImport(WebKit)
    import WebKit

    /// SwitchboardWebKit's entry point, compiled where WebKit exists.
    @MainActor func attach(_ router: Router, to controller: WKUserContentController) -> RouterBridge {
        RouterBridge(router: router, userContentController: controller)
    }
#endif

struct Ping: BodylessEvent {
    static let channel: Channel = "ping"
}

/// Counts the outcomes that succeeded.
struct Tally: WireOutcomeSink {
    var lines: [String] = []
    var succeeded = 0
    mutating func emit(_ outcome: WireOutcome) throws(WireIOError) {
        lines.append(outcome.jsonLine)
        if outcome.kind.isSuccess { succeeded += 1 }
    }
    mutating func flush() throws(WireIOError) {}
}

let router = Router()
let commerce = try router.installReferenceCommerce()
let recorder = TrafficRecorder(redacting: ["email"])
let recording = router.use(recorder, name: "recorder")
let ping = router.on(Ping.self) { _ in }

var session = WireSession(router: router)
var tally = Tally()
let input = #"{"name":"ping"}"# + "\n" + #"{"name":"productCartGetState","id":1}"# + "\n"
try WirePipeline(readsAhead: false).run([.bytes(Array(input.utf8))], session: &session, into: &tally)
print(tally.lines.joined(), terminator: "")
print(recorder.ndjson, terminator: "")
print("recorded \(recorder.lines.count), \(tally.succeeded) succeeded")
withExtendedLifetime((commerce, recording, ping)) {}
