import Foundation
import Switchboard
import SwitchboardCommerce
import SwitchboardWire
import Testing

/// A page's hello on the wire: `{"hello":{"contracts":{…}}}` answered by a `hello` line listing the
/// channels whose contract differs, with one `contractSkew` diagnostic per differing channel.
@Suite struct WireHelloTests {
    /// Runs lines (no requests: nothing waits) through the reference router.
    func run(_ lines: [String], policy: OriginPolicy? = nil) throws -> (
        lines: [String], summary: WireSummary, skews: [String]
    ) {
        let router = Router(options: RouterOptions(originPolicy: policy))
        let commerce = try router.installReferenceCommerce()
        defer { withExtendedLifetime(commerce) {} }
        let skews = Locked<[String]>([])
        let observing = router.observeDiagnostics { diagnostic in
            if case .contractSkew(let channel, _, _) = diagnostic { skews.withLock { $0.append(channel.name) } }
        }
        defer { observing.cancel() }
        var session = WireSession(router: router)
        var results: [String] = []
        for (index, line) in lines.enumerated() {
            if let outcome = session.process(line: Array(line.utf8), number: index + 1, source: nil) {
                results.append(outcome.jsonLine)
            }
        }
        return (results, session.summary, skews.withLock { $0 })
    }

    /// The reference router's digest of a channel.
    func digest(_ name: String) throws -> String {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        defer { withExtendedLifetime(commerce) {} }
        return router.manifest.contracts[name] ?? "none"
    }

    @Test func aHelloIsAnsweredWithTheDifferingChannels() throws {
        let ready = try digest("sdkReady")
        let hello =
            #"{"hello":{"contracts":{"sdkReady":"\#(ready)","addCartLine":"sha256:old","giftWrap":"sha256:x"}},"id":"h1"}"#
        let (lines, summary, skews) = try run([hello, #"{"name":"sdkReady"}"#, #"{"name":"sdkReady"}"#])
        #expect(lines[0] == #"{"line":1,"id":"h1","outcome":"hello","differing":["addCartLine","giftWrap"]}"# + "\n")
        #expect(lines[1] == #"{"line":2,"name":"sdkReady","outcome":"handled"}"# + "\n")
        #expect(skews == ["addCartLine", "giftWrap"])  // once, for the hello; not per message
        #expect(summary[.hello] == 1)
        #expect(summary.exitStatus == 0)
        #expect(
            summary.description.hasPrefix(
                "3 messages: 2 handled, 0 replied, 0 failed, 0 invalid, 0 unhandled, 0 malformed, 1 hello"))
    }

    @Test func aHelloThatAgreesListsNothing() throws {
        let (lines, _, skews) = try run([#"{"hello":{"contracts":{}}}"#])
        #expect(lines == [#"{"line":1,"outcome":"hello","differing":[]}"# + "\n"])
        #expect(skews.isEmpty)
    }

    @Test func aSummaryWithoutHellosIsAsBefore() throws {
        let (_, summary, _) = try run([#"{"name":"sdkReady"}"#])
        #expect(
            summary.description.hasPrefix(
                "1 message: 1 handled, 0 replied, 0 failed, 0 invalid, 0 unhandled, 0 malformed ("))
    }

    @Test func aLineWithANameIsAMessageWhateverElseItHolds() throws {
        let (lines, summary, skews) = try run([#"{"name":"sdkReady","hello":{"contracts":{"addCartLine":"x"}}}"#])
        #expect(lines == [#"{"line":1,"name":"sdkReady","outcome":"handled"}"# + "\n"])
        #expect(summary[.hello] == 0)
        #expect(skews.isEmpty)
    }

    @Test func aBadHelloIsMalformed() throws {
        let (lines, summary, skews) = try run([
            #"{"hello":"hi"}"#,
            #"{"hello":{"contracts":{"addCartLine":1}},"id":7}"#,
            #"{"hello":{}}"#,
            #"{"hello":{"contracts":{}},"id":true}"#,
            #"{"hello":{"contracts":{}},"origin":3}"#,
        ])
        #expect(summary[.malformed] == 5)
        #expect(skews.isEmpty)
        #expect(
            lines[1]
                == #"{"line":2,"id":7,"outcome":"malformed","error":{"kind":"invalid","message":"\"hello\" must be {\"contracts\": {CHANNEL: DIGEST}}: hello.contracts.addCartLine: expected a string, found 1"}}"#
                + "\n")
        for line in lines { #expect(line.contains(#""outcome":"malformed""#), "\(line)") }
    }

    @Test func underAPolicyAHelloFromAnotherOriginLearnsNothing() throws {
        let policy = try OriginPolicy(allowing: ["https://shop.example.com"])
        let stale = #"{"contracts":{"addCartLine":"sha256:old"}}"#
        let (lines, _, skews) = try run(
            [
                #"{"hello":\#(stale),"origin":"https://ads.example.net","mainFrame":true}"#,
                #"{"hello":\#(stale),"origin":"https://shop.example.com","mainFrame":true}"#,
            ], policy: policy)
        #expect(lines[0] == #"{"line":1,"outcome":"hello","differing":[]}"# + "\n")
        #expect(lines[1] == #"{"line":2,"outcome":"hello","differing":["addCartLine"]}"# + "\n")
        #expect(skews == ["addCartLine"])
    }

    @Test func aHelloInAJSONArrayIsAnsweredInItsPlace() throws {
        let router = Router()
        let commerce = try router.installReferenceCommerce()
        defer { withExtendedLifetime(commerce) {} }
        var session = WireSession(router: router)
        let document = try JSONReader().read(Array(#"[{"name":"sdkReady"},{"hello":{"contracts":{"nope":"x"}}}]"#.utf8))
        guard case .array(let elements) = document else {
            Issue.record("not an array")
            return
        }
        let outcomes = elements.enumerated().map { session.process(value: $1, line: $0 + 1, source: "a.json") }
        #expect(outcomes.map(\.kind) == [.handled, .hello])
        #expect(outcomes[1].differing == ["nope"])
    }
}
