import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardWire
import Testing

/// docs/wire-format.md, "Piping through your own router": an app's own router and
/// handlers, its own sink, and `NDJSONOutput` writing what the CLI writes.
@Suite struct OwnRouterPipingTests {
    struct SDKReady: BodylessEvent {
        static let channel: Channel = "sdkReady"
    }

    struct AddToBasket: Event {
        static let channel: Channel = "addToBasket"
        let sku: String
        let quantity: Int
    }

    struct Price: Request {
        static let channel: Channel = "price"
        typealias Reply = [String: Int]
        let sku: String
    }

    struct Cafe: BodylessEvent {
        static let channel: Channel = "caf\u{E9}"
    }

    struct TooFew: Error, CustomStringConvertible {
        var description: String { "a quantity below 1" }
    }

    /// Keeps the outcome lines of the messages that were not handled or replied to.
    struct FailuresOnly: WireOutcomeSink {
        var lines: [String] = []
        var flushes = 0
        mutating func emit(_ outcome: WireOutcome) throws(WireIOError) {
            if !outcome.kind.isSuccess { lines.append(outcome.jsonLine) }
        }
        mutating func flush() throws(WireIOError) { flushes += 1 }
    }

    /// The app: two events and a request on a router of its own.
    final class App: Sendable {
        let router = Router(options: .init(defaultDeadline: .patient))
        let basket = Locked<[String: Int]>([:])
        private let tokens: [Registration]

        init() throws {
            let basket = basket
            tokens = [
                router.on(SDKReady.self) { _ in },
                router.on(AddToBasket.self) { item in
                    guard item.quantity > 0 else { throw TooFew() }
                    basket.withLock { $0[item.sku, default: 0] += item.quantity }
                },
                try router.respond(to: Price.self) { request in ["cents": request.sku.count * 100] },
            ]
        }
    }

    static let input = """
        {"name":"sdkReady"}
        {"name":"addToBasket","body":{"sku":"A1","quantity":2}}
        {"name":"addToBasket","body":{"sku":"A1","quantity":0}}
        {"name":"addToBasket","body":{"quantity":1}}
        {"name":"price","body":{"sku":"A1"},"id":"p"}
        {"name":"nobody"}
        not json

        """

    @Test func aCustomSinkSeesEveryOutcomeOfTheAppsOwnHandlersInOrder() async throws {
        let app = try App()
        let (lines, flushes, summary) = try await onDispatchThread { () throws -> ([String], Int, WireSummary) in
            var session = WireSession(router: app.router)
            var sink = FailuresOnly()
            try WirePipeline().run([.bytes(Array(Self.input.utf8))], session: &session, into: &sink)
            return (sink.lines, sink.flushes, session.summary)
        }
        #expect(lines.count == 4)
        #expect(
            lines[0].hasPrefix(
                #"{"line":3,"name":"addToBasket","outcome":"failed","error":{"kind":"failed","channel":"addToBasket","message":""#
            ))
        #expect(lines[0].contains("a quantity below 1"))
        #expect(
            lines[1].hasPrefix(
                #"{"line":4,"name":"addToBasket","outcome":"invalid","error":{"kind":"invalid","channel":"addToBasket","path":"body.sku","#
            ))
        // jsonLine ends with its newline.
        #expect(lines[2] == #"{"line":6,"name":"nobody","outcome":"unhandled"}"# + "\n")
        #expect(
            lines[3].hasPrefix(#"{"line":7,"outcome":"malformed","error":{"kind":"invalid","message":"not valid JSON"#))
        #expect(flushes == 1)
        #expect(summary.total == 7)
        #expect(summary[.handled] == 2)
        #expect(summary[.replied] == 1)
        #expect(summary.exitStatus == 1)
        #expect(app.basket.withLock { $0 } == ["A1": 2])
    }

    @Test func ndjsonOutputWritesWhatTheCollectorHoldsToADescriptor() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("own-router-\(UUID()).ndjson").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let collected = try await onDispatchThread { () throws -> String in
            let app = try App()
            var session = WireSession(router: app.router)
            var collector = WireOutcomeCollector()
            try WirePipeline().run([.bytes(Array(Self.input.utf8))], session: &session, into: &collector)
            return collector.ndjson
        }
        try await onDispatchThread { () throws in
            let app = try App()
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
            defer { close(descriptor) }
            var session = WireSession(router: app.router)
            // A small buffer: the lines are written in several writes, and the last by the flush.
            var output = NDJSONOutput(descriptor: descriptor, name: path, bufferSize: 64)
            try WirePipeline().run([.bytes(Array(Self.input.utf8))], session: &session, into: &output)
        }
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == collected)
        #expect(written.split(separator: "\n").count == 7)
        #expect(written.contains(#"{"line":5,"id":"p","name":"price","outcome":"replied","reply":{"cents":200}}"#))
    }

    @Test func anOutcomeAndItsHandlerKeepTheLinesSpellingOfAChannelRegisteredInAnother() async throws {
        // "café" registered precomposed (NFC); lines name it decomposed (NFD) and precomposed.
        let router = Router(options: .init(defaultDeadline: .patient))
        let seen = Locked<[String]>([])
        let token = router.on(Cafe.self) { _, context in
            seen.withLock { $0.append(context.channel.name) }
        }
        let input =
            #"{"name":"cafe\u0301"}"# + "\n" + #"{"name":"caf\u00e9"}"# + "\n"
            + #"{"name":"cafe\u0301"}"# + "\n"
        let lines = try await onDispatchThread { () throws -> [String] in
            var session = WireSession(router: router)
            var collector = WireOutcomeCollector()
            try WirePipeline().run([.bytes(Array(input.utf8))], session: &session, into: &collector)
            return collector.ndjson.split(separator: "\n").map(String.init)
        }
        token.cancel()
        let decomposed = "cafe\u{301}"
        let precomposed = "caf\u{E9}"
        #expect(lines.count == 3)
        #expect(lines.map { $0.contains(#""outcome":"handled""#) } == [true, true, true])
        #expect(lines[0].utf8.elementsEqual(#"{"line":1,"name":"\#(decomposed)","outcome":"handled"}"#.utf8))
        #expect(lines[1].utf8.elementsEqual(#"{"line":2,"name":"\#(precomposed)","outcome":"handled"}"#.utf8))
        #expect(lines[2].utf8.elementsEqual(#"{"line":3,"name":"\#(decomposed)","outcome":"handled"}"#.utf8))
        let names = seen.withLock { $0 }
        #expect(names.count == 3)
        #expect(names.map { Array($0.utf8) } == [decomposed, precomposed, decomposed].map { Array($0.utf8) })
    }

    @Test func writingToAClosedDescriptorIsAWireIOErrorNamingTheOutput() throws {
        var output = NDJSONOutput(descriptor: -1, name: "nowhere", bufferSize: 1)
        let outcome = WireOutcome(line: 1, source: nil, id: nil, name: "sdkReady", kind: .handled)
        #expect(throws: WireIOError.self) { try output.emit(outcome) }
        do {
            try output.emit(outcome)
            Issue.record("a write to descriptor -1 succeeded")
        } catch {
            #expect(error.operation == "write")
            #expect(error.name == "nowhere")
            #expect(error.code == EBADF)
        }
    }
}
