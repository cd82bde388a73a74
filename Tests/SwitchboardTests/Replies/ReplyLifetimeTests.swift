import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// Counts how many of its instances have been freed.
final class FreedCanary: Sendable, Encodable {
    let freed: Locked<Int>

    init(_ freed: Locked<Int>) { self.freed = freed }

    deinit { freed.withLock { $0 += 1 } }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("canary")
    }
}

/// A reply that holds a ``FreedCanary``.
struct FreedCanaryReply: Encodable, Sendable {
    let canary: FreedCanary
}

/// A request whose reply holds a ``FreedCanary``.
struct FreedCanaryRequest: Request, Encodable {
    typealias Reply = FreedCanaryReply
    static let channel: Channel = "canaryRequest"
    let seq: Int
}

/// What a request holds (its reply, the caller's completion and what it captured) is freed
/// when the request is answered, not when its deadline would have passed: with a deadline
/// of a minute, many requests answered at once free everything at once. The deadline still
/// applies to requests nobody answers.
@Suite struct ReplyLifetimeTests {
    static let requests = 200
    static let longDeadline = Duration.seconds(60)

    /// Sends ``requests`` requests whose completions capture a canary each; returns how many
    /// completions ran.
    static func send(_ router: Router, freed: Locked<Int>) -> Locked<Int> {
        let completed = Locked(0)
        for seq in 0..<requests {
            let canary = FreedCanary(freed)
            _ = router.receive(Message(channel: FreedCanaryRequest.channel, body: ["seq": seq])) { _ in
                withExtendedLifetime(canary) {}
                completed.withLock { $0 += 1 }
            }
        }
        return completed
    }

    @Test func aRequestAnsweredLaterIsFreedAtItsAnswerNotAtItsDeadline() async throws {
        let router = Router(options: RouterOptions(defaultDeadline: Self.longDeadline))
        let handles = Locked<[Reply<FreedCanaryReply>]>([])
        let token = try router.respond(to: FreedCanaryRequest.self, deadline: Self.longDeadline) { _, reply in
            handles.withLock { $0.append(reply) }
        }
        let freed = Locked(0)
        let completed = Self.send(router, freed: freed)
        let pending = handles.withLock { handles -> [Reply<FreedCanaryReply>] in
            defer { handles = [] }
            return handles
        }
        #expect(pending.count == Self.requests)
        for reply in pending { reply.succeed(FreedCanaryReply(canary: FreedCanary(freed))) }
        _ = consume pending
        #expect(completed.withLock { $0 } == Self.requests)
        // Each completion's canary and each reply's: all freed now, a minute before the deadline.
        let all = await eventually(within: .seconds(5)) { freed.withLock { $0 } == 2 * Self.requests }
        #expect(all, "\(freed.withLock { $0 }) of \(2 * Self.requests) canaries freed after the answers")
        withExtendedLifetime(token) {}
    }

    @Test func anAsyncResponderRequestIsFreedAtItsAnswerNotAtItsDeadline() async throws {
        let router = Router(options: RouterOptions(defaultDeadline: Self.longDeadline))
        let freed = Locked(0)
        let token = try router.respond(to: FreedCanaryRequest.self, deadline: Self.longDeadline) {
            (_: FreedCanaryRequest) async throws -> FreedCanaryReply in
            FreedCanaryReply(canary: FreedCanary(freed))
        }
        let completed = Self.send(router, freed: freed)
        let answered = await eventually(within: .seconds(5)) { completed.withLock { $0 } == Self.requests }
        #expect(answered)
        let all = await eventually(within: .seconds(5)) { freed.withLock { $0 } == 2 * Self.requests }
        #expect(all, "\(freed.withLock { $0 }) of \(2 * Self.requests) canaries freed after the answers")
        withExtendedLifetime(token) {}
    }

    @Test func aKeptRequestIsFreedAtItsAnswerNotAtItsKeepDeadline() async throws {
        let router = Router(
            options: RouterOptions(defaultDeadline: Self.longDeadline, maxKeptPerChannel: 1_000, maxKeptTotal: 1_000))
        router.setBufferPolicy(.keep(max: 1_000, for: Self.longDeadline), for: FreedCanaryRequest.channel)
        let freed = Locked(0)
        let completed = Self.send(router, freed: freed)
        #expect(router.keptCount(for: FreedCanaryRequest.channel) == Self.requests)
        // The kept requests are delivered (and answered at once) as the responder registers.
        let token = try router.respond(to: FreedCanaryRequest.self) { _, reply in
            reply.succeed(FreedCanaryReply(canary: FreedCanary(freed)))
        }
        #expect(completed.withLock { $0 } == Self.requests)
        let all = await eventually(within: .seconds(5)) { freed.withLock { $0 } == 2 * Self.requests }
        #expect(all, "\(freed.withLock { $0 }) of \(2 * Self.requests) canaries freed after the answers")
        withExtendedLifetime(token) {}
    }

    @Test func aRequestNobodyAnswersStillTimesOutAtItsDeadline() async throws {
        let router = Router()
        let (diagnostics, observer) = router.recordDiagnostics()
        let handles = Locked<[Reply<FreedCanaryReply>]>([])
        let token = try router.respond(to: FreedCanaryRequest.self, deadline: .milliseconds(30)) { _, reply in
            handles.withLock { $0.append(reply) }
        }
        let results = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        for seq in 0..<10 {
            _ = router.receive(Message(channel: FreedCanaryRequest.channel, body: ["seq": seq])) { results.append($0) }
        }
        let timedOut = await eventually(within: .seconds(10)) { results.count == 10 }
        #expect(timedOut)
        let kinds = results.all.map { result -> String in
            guard case .failure(let failure) = result else { return "reply" }
            return failure.caseName
        }
        #expect(kinds == Array(repeating: "timedOut", count: 10))
        #expect(diagnostics.kinds.filter { $0 == "deadlinePassed" }.count == 10)
        withExtendedLifetime((token, observer, handles)) {}
    }

    @Test func aKeptRequestNobodyTakesStillTimesOut() async {
        let router = Router(options: RouterOptions(defaultDeadline: .milliseconds(30)))
        router.setBufferPolicy(.keep(max: 10, for: .seconds(60)), for: FreedCanaryRequest.channel)
        let (diagnostics, observer) = router.recordDiagnostics()
        let results = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        _ = router.receive(Message(channel: FreedCanaryRequest.channel, body: ["seq": 1])) { results.append($0) }
        let timedOut = await eventually(within: .seconds(10)) { results.count == 1 }
        #expect(timedOut)
        let kind: String? = if case .failure(let failure)? = results.all.first { failure.caseName } else { nil }
        #expect(kind == "timedOut")
        #expect(diagnostics.kinds.contains("deadlinePassed"))
        #expect(router.keptCount(for: FreedCanaryRequest.channel) == 0)
        withExtendedLifetime(observer) {}
    }

    /// The kept request's deadline timer holds it weakly: when the router goes away with the
    /// request still kept, nothing else holds it, and its caller gets `dropped` at once, not
    /// `timedOut` at the deadline.
    @Test func aKeptRequestOfARouterReleasedIsDroppedAtOnce() async {
        let results = RouterRecorder<Result<ReplyValue, RequestFailure>>()
        do {
            let router = Router(options: RouterOptions(defaultDeadline: Self.longDeadline))
            router.setBufferPolicy(.keep(max: 10, for: Self.longDeadline), for: FreedCanaryRequest.channel)
            _ = router.receive(Message(channel: FreedCanaryRequest.channel, body: ["seq": 1])) { results.append($0) }
            #expect(router.keptCount(for: FreedCanaryRequest.channel) == 1)
            #expect(results.count == 0)
        }
        let answered = await eventually(within: .seconds(10)) { results.count == 1 }
        #expect(answered)
        let kind: String? = if case .failure(let failure)? = results.all.first { failure.caseName } else { nil }
        #expect(kind == "dropped")
    }
}
