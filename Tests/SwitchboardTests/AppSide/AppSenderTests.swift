import Foundation
import Switchboard
import Testing

/// `MessageSender.app`: the app itself, admitted by every origin policy, the default sender of
/// `router.request`; no page's sender is the app.
@Suite struct AppSenderTests {
    static let shopOnly: OriginPolicy = {
        (try? OriginPolicy(allowing: ["https://shop.example.com"])) ?? OriginPolicy(allowed: [])
    }()

    @Test func theAppPassesEveryPolicy() {
        #expect(Self.shopOnly.admits(.app))
        #expect(OriginPolicy(allowed: []).admits(.app))
        #expect(!Self.shopOnly.admits(.unknown))
        #expect(Self.shopOnly.rejection(of: .app, on: "echo") == nil)
    }

    @Test func theAppIsNeitherUnknownNorAPage() {
        #expect(MessageSender.app.isApp)
        #expect(!MessageSender.app.isUnknown)
        #expect(MessageSender.app != .unknown)
        #expect(MessageSender.app.description == "the app")
        #expect(!MessageSender(originText: "app", isMainFrame: true).isApp)
        #expect(!MessageSender(originText: "the app", isMainFrame: nil).isApp)
        #expect(!MessageSender.unknown.isApp)
        var changed = MessageSender.app
        changed.isMainFrame = true
        #expect(!changed.isApp)
        #expect(!Self.shopOnly.admits(changed))
        #expect(Set([MessageSender.app, .unknown, .app]).count == 2)
    }

    @Test func theAppsOwnRequestsPassARoutersPolicy() async throws {
        let router = Router(options: RouterOptions(originPolicy: Self.shopOnly))
        let token = try router.respond(to: Echo.self) { request, reply in reply.succeed(request.text) }
        #expect(try await router.request(Echo(text: "hi")) == "hi")
        let untyped = await router.request(name: "echo", body: ["text": "yo"])
        #expect((try? untyped.get())?.value(as: String.self) == "yo")
        // A page's message (unknown sender) is still refused.
        guard case .rejected = router.receive(name: "echo", body: ["text": "page"]) else {
            Issue.record("expected a rejection")
            return
        }
        // Sent as a page would: refused.
        do {
            _ = try await router.request(Echo(text: "page"), sender: .unknown)
            Issue.record("expected a rejection")
        } catch {
            guard case .rejected = error else {
                Issue.record("expected rejected, got \(error)")
                return
            }
        }
        withExtendedLifetime(token) {}
    }

    @Test func theAppPassesAChannelsOwnPolicy() async throws {
        let router = Router()
        router.setOriginPolicy(OriginPolicy(allowed: []), for: "echo")
        let token = try router.respond(to: Echo.self) { request, reply in reply.succeed(request.text) }
        #expect(try await router.request(Echo(text: "hi")) == "hi")
        withExtendedLifetime(token) {}
    }
}
