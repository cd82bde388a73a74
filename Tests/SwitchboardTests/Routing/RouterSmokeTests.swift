import Foundation
import Switchboard
import Testing

private struct Ping: Event {
    static let channel: Channel = "ping"
    let count: Int
}

private struct Ready: BodylessEvent { static let channel: Channel = "sdkReady" }

private struct Echo: Request, Encodable {
    typealias Reply = String
    static let channel: Channel = "echo"
    let text: String
}

private final class Box<T: Sendable>: @unchecked Sendable {
    let lock = NSLock()
    var value: T
    init(_ value: T) { self.value = value }
    func mutate(_ body: (inout T) -> Void) { lock.lock(); body(&value); lock.unlock() }
    var get: T { lock.lock(); defer { lock.unlock() }; return value }
}

@Suite struct RouterSmokeTests {
    @Test func deliversToHandlersInOrderAndReportsUnhandled() {
        let router = Router()
        let seen = Box<[String]>([])
        let a = router.on(Ping.self) { ping, _ in seen.mutate { $0.append("a\(ping.count)") } }
        let b = router.on(Ping.self) { ping in seen.mutate { $0.append("b\(ping.count)") } }
        let outcome = router.receive(name: "ping", body: ["count": 2])
        #expect(outcome.kind == "handled")
        #expect(seen.get == ["a2", "b2"])
        #expect(router.receive(name: "pong", body: nil).kind == "unhandled")
        a.cancel()
        b.cancel()
        #expect(router.receive(name: "ping", body: ["count": 2]).kind == "unhandled")
    }

    @Test func bodylessEventIgnoresBody() {
        let router = Router()
        let token = router.on(Ready.self) { _ in }
        #expect(router.receive(name: "sdkReady", body: nil).kind == "handled")
        withExtendedLifetime(token) {}
    }

    @Test func requestRepliesSynchronouslyAndAsync() async throws {
        let router = Router()
        let token = try router.respond(to: Echo.self) { request, reply in reply(.success(request.text)) }
        let outcome = router.receive(name: "echo", body: ["text": "hi"])
        #expect(outcome.kind == "replied")
        let result = await router.request(name: "echo", body: ["text": "yo"])
        #expect((try? result.get())?.value(as: String.self) == "yo")
        let typed = try await router.request(Echo(text: "typed"))
        #expect(typed == "typed")
        #expect(throws: RegistrationError.self) { _ = try router.respond(to: Echo.self) { _, _ in } }
        token.cancel()
        let none = await router.request(name: "echo", body: ["text": "x"])
        guard case .failure(.noResponder) = none else { Issue.record("expected noResponder, got \(none)"); return }
    }

    @Test func droppedHandleAndDeadlineAreDistinct() async throws {
        let router = Router()
        let dropped = try router.respond(to: Echo.self) { _, _ in }
        let first = await router.request(name: "echo", body: ["text": "x"])
        guard case .failure(.dropped) = first else { Issue.record("expected dropped, got \(first)"); return }
        let held = Box<[Reply<String>]>([])
        let slow = router.replaceResponder(of: Echo.self, deadline: .milliseconds(20)) { _, reply in
            held.mutate { $0.append(reply) }
        }
        let second = await router.request(name: "echo", body: ["text": "x"])
        guard case .failure(.timedOut) = second else { Issue.record("expected timedOut, got \(second)"); return }
        #expect(held.get.first?.succeed("late") == false)
        withExtendedLifetime((dropped, slow)) {}
    }
}
