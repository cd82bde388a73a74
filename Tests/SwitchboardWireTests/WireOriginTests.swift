import Foundation
import Switchboard
import SwitchboardCommerce
import SwitchboardTestSupport
import SwitchboardWire
import Testing

/// `"origin"` and `"mainFrame"` on the wire: read the same way by the tape path and the
/// slow path, malformed with another type, inert without a policy, `rejected` under one.
@Suite struct WireOriginTests {
    /// Runs the lines through a session on a Dispatch thread (a session may wait for a reply:
    /// never on the cooperative pool).
    func outcomes(_ lines: [String], policy: OriginPolicy?) async throws -> ([WireOutcome], WireSummary) {
        try await onDispatchThread { try outcomesBlocking(lines, policy: policy) }
    }

    func outcomesBlocking(_ lines: [String], policy: OriginPolicy?) throws -> ([WireOutcome], WireSummary) {
        let router = Router(options: RouterOptions(originPolicy: policy))
        let commerce = try router.installReferenceCommerce()
        defer { withExtendedLifetime(commerce) {} }
        var session = WireSession(router: router)
        var results: [WireOutcome] = []
        for (index, line) in lines.enumerated() {
            if let outcome = session.process(line: Array(line.utf8), number: index + 1, source: nil) {
                results.append(outcome)
            }
        }
        return (results, session.summary)
    }

    /// The slow path's reading of a line (`JSONReader` → `WireMessage.parse(value:)`).
    func slow(_ line: String) throws -> Result<WireMessage, WireMalformed> {
        WireMessage.parse(value: try JSONReader().read(Array(line.utf8)))
    }

    @Test func underAPolicyTheSummaryCountsRejectedEvenWhenNone() async throws {
        let shop = #"{"name":"sdkReady","origin":"https://shop.example.com","mainFrame":true}"#
        let policy = try OriginPolicy(allowing: ["https://shop.example.com"])
        let (_, none) = try await outcomes([shop], policy: policy)
        #expect(none[.rejected] == 0)
        #expect(
            none.description.hasPrefix(
                "1 message: 1 handled, 0 replied, 0 failed, 0 invalid, 0 unhandled, 0 malformed, 0 rejected ("))
        let (_, without) = try await outcomes([shop], policy: nil)
        #expect(
            without.description.hasPrefix(
                "1 message: 1 handled, 0 replied, 0 failed, 0 invalid, 0 unhandled, 0 malformed ("))
        var rejectedWithout = WireSummary()
        rejectedWithout.record(.rejected)
        #expect(rejectedWithout.description.contains("0 malformed, 1 rejected ("))
    }

    @Test func theFieldsGiveTheSender() throws {
        let message = try slow(#"{"name":"sdkReady","origin":"https://shop.example.com","mainFrame":false}"#).get()
        #expect(message.sender.origin == (try Origin(parsing: "https://shop.example.com")))
        #expect(message.sender.isMainFrame == false)
        #expect(message.message.sender == message.sender)
        #expect(try slow(#"{"name":"sdkReady"}"#).get().sender == .unknown)
        let invalid = try slow(#"{"name":"sdkReady","origin":"null"}"#).get()
        #expect(invalid.sender.origin == nil && invalid.sender.claimedOrigin == "null")
    }

    @Test func anOriginOrMainFrameOfAnotherTypeIsMalformedOnBothPaths() async throws {
        let cases: [(String, String)] = [
            (#"{"name":"sdkReady","origin":5}"#, #""origin" must be a string"#),
            (#"{"name":"sdkReady","origin":null}"#, #""origin" must be a string"#),
            (#"{"name":"sdkReady","origin":["https://shop.example.com"]}"#, #""origin" must be a string"#),
            (#"{"name":"sdkReady","origin":{"host":"shop.example.com"}}"#, #""origin" must be a string"#),
            (#"{"name":"sdkReady","mainFrame":"true"}"#, #""mainFrame" must be a boolean, found a string"#),
            (#"{"name":"sdkReady","mainFrame":1}"#, #""mainFrame" must be a boolean, found a number"#),
            (#"{"name":"sdkReady","mainFrame":null}"#, #""mainFrame" must be a boolean, found null"#),
            (#"{"name":"sdkReady","id":"x","orig\u0069n":true}"#, #""origin" must be a string"#),
        ]
        let (results, summary) = try await outcomes(cases.map(\.0), policy: nil)
        for ((line, expected), outcome) in zip(cases, results) {
            #expect(outcome.kind == .malformed, "\(line)")
            #expect(outcome.name == "sdkReady", "\(line)")
            #expect(outcome.error?.message.hasPrefix(expected) == true, "\(line): \(outcome.jsonLine)")
            guard case .failure(let problem) = try slow(line) else {
                Issue.record("the slow path took \(line)")
                continue
            }
            #expect(outcome.error?.message == problem.message, "\(line)")
        }
        #expect(results.last?.id == .string("x"))
        #expect(summary[.malformed] == cases.count)
    }

    @Test func withoutAPolicyTheFieldsChangeNothing() async throws {
        let lines = [
            #"{"name":"sdkReady","origin":"https://evil.example","mainFrame":false}"#,
            #"{"name":"sdkReady","origin":"null"}"#,
            #"{"name":"productCartGetState","id":"g","origin":"https://shop.example.com@evil.example","mainFrame":true}"#,
        ]
        let (results, summary) = try await outcomes(lines, policy: nil)
        #expect(results.map(\.kind) == [.handled, .handled, .replied])
        #expect(summary.exitStatus == 0)
        #expect(!summary.description.contains("rejected"))
    }

    @Test func underAPolicyARefusedMessageIsRejectedWithItsReason() async throws {
        let policy = try OriginPolicy(allowing: ["https://shop.example.com"])
        let lines = [
            #"{"name":"sdkReady","origin":"https://shop.example.com","mainFrame":true}"#,
            #"{"name":"productCartGetState","id":"r1","origin":"https://shop.example.com.evil.net","mainFrame":true}"#,
            #"{"name":"sdkReady","id":7,"orig\u0069n":"https://evil.example","mainFrame":true}"#,
            #"{"name":"sdkReady","origin":"https://shop.example.com","mainFrame":false}"#,
            #"{"name":"sdkReady","origin":"https://shop.example.com"}"#,
            #"{"name":"sdkReady","mainFrame":true}"#,
            #"{"name":"sdkReady","origin":"null","mainFrame":true}"#,
        ]
        let (results, summary) = try await outcomes(lines, policy: policy)
        #expect(results.map(\.kind) == [.handled] + Array(repeating: .rejected, count: 6))
        #expect(
            results[1].jsonLine
                == #"{"line":2,"id":"r1","name":"productCartGetState","outcome":"rejected","error":{"kind":"rejected","channel":"productCartGetState","message":"productCartGetState: rejected: origin https://shop.example.com.evil.net is not allowed (allowed: https://shop.example.com (main frame only))"}}"#
                + "\n")
        #expect(results[2].id == .number(JSONNumber(7)))
        #expect(results[2].error?.message.contains("https://evil.example") == true)
        #expect(results[3].error?.message.contains("sub-frame") == true)
        #expect(results[4].error?.message.contains("main frame") == true)
        #expect(results[5].error?.message.contains("unknown") == true)
        #expect(results[6].error?.message.contains(#""null" is not a valid origin"#) == true)
        #expect(summary[.rejected] == 6)
        #expect(summary.exitStatus == 1)
        #expect(
            summary.description.hasPrefix(
                "7 messages: 1 handled, 0 replied, 0 failed, 0 invalid, 0 unhandled, 0 malformed, 6 rejected ("))
    }

    @Test func theTapePathAndTheSlowPathReadTheSameSender() async throws {
        let policy = try OriginPolicy(allowing: ["https://*.example.com"], allowsSubframes: true)
        let lines = [
            #"{"name":"sdkReady","origin":"https://a.example.com","mainFrame":false}"#,
            #"{"name":"sdkReady","origin":"https:\/\/a.example.com","mainFrame":true}"#,
            #"{"name":"sdkReady","origin":"https://example.com","mainFrame":true}"#,
            #"{"mainFrame":true,"origin":"HTTPS://B.EXAMPLE.COM:443","name":"sdkReady"}"#,
        ]
        let (fast, _) = try await outcomes(lines, policy: policy)
        let router = Router(options: RouterOptions(originPolicy: policy))
        let commerce = try router.installReferenceCommerce()
        var session = WireSession(router: router)
        for (index, line) in lines.enumerated() {
            let outcome = session.process(value: try JSONReader().read(Array(line.utf8)), line: index + 1, source: nil)
            #expect(outcome == fast[index], "\(line)")
        }
        #expect(fast.map(\.kind) == [.handled, .handled, .rejected, .handled])
        withExtendedLifetime(commerce) {}
    }
}
