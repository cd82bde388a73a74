import Foundation
import Switchboard
import Testing

/// The policy is enforced right after the name is validated, before anything runs.
@Suite struct OriginPolicyTests {
    static let shop = MessageSender(originText: "https://shop.example.com", isMainFrame: true)

    func shopPolicy(subframes: Bool = false) throws -> OriginPolicy {
        try OriginPolicy(
            allowing: ["https://shop.example.com", "https://*.cdn.example.net"], allowsSubframes: subframes)
    }

    func rejection(_ outcome: Outcome, sourceLocation: SourceLocation = #_sourceLocation) -> PolicyRejection? {
        guard case .rejected(let rejection) = outcome else {
            Issue.record("expected rejected, got \(outcome)", sourceLocation: sourceLocation)
            return nil
        }
        return rejection
    }

    @Test func withoutAPolicyEveryMessageIsAdmittedAsBefore() {
        let router = Router()
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { seen.append($0.count) }
        _ = router.receive(name: "ping", body: ["count": 1])
        _ = router.receive(name: "ping", body: MessageBody(["count": 2]), sender: .unknown, replyHandler: nil)
        let evil = MessageSender(originText: "https://evil.example", isMainFrame: false)
        _ = router.receive(name: "ping", body: MessageBody(["count": 3]), sender: evil, replyHandler: nil)
        #expect(seen.all == [1, 2, 3])
        #expect(router.originPolicy(for: "ping") == nil)
        withExtendedLifetime(token) {}
    }

    @Test func theAllowedOriginFromTheMainFrameIsHandled() throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { seen.append($0.count) }
        let outcome = router.receive(
            name: "ping", body: MessageBody(["count": 1]), sender: Self.shop, replyHandler: nil)
        guard case .handled = outcome else {
            Issue.record("\(outcome)")
            return
        }
        let cdn = MessageSender(originText: "https://static.cdn.example.net", isMainFrame: true)
        _ = router.receive(name: "ping", body: MessageBody(["count": 2]), sender: cdn, replyHandler: nil)
        #expect(seen.all == [1, 2])
        withExtendedLifetime(token) {}
    }

    @Test func anotherOriginIsRejectedWithAReasonNamingChannelOriginAndRule() throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { seen.append($0.count) }
        let (diagnostics, observing) = router.recordDiagnostics()
        let ads = MessageSender(originText: "https://ads.example.org", isMainFrame: true)
        let outcome = router.receive(name: "ping", body: MessageBody(["count": 1]), sender: ads, replyHandler: nil)
        let found = try #require(rejection(outcome))
        #expect(found.reason == .originNotAllowed)
        #expect(found.message.hasPrefix("ping: rejected: "))
        #expect(found.message.contains("https://ads.example.org"))
        #expect(found.message.contains("https://shop.example.com"))
        #expect(outcome.kind == .rejected && !outcome.isSuccess)
        #expect(seen.all.isEmpty)
        #expect(diagnostics.kinds == ["rejected"])
        #expect(diagnostics.all.first?.channel == "ping")
        withExtendedLifetime((token, observing)) {}
    }

    @Test func lookAlikeOriginsAreRejected() throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let token = router.on(Ping.self) { _ in Issue.record("a look-alike reached the handler") }
        for text in [
            "https://shop.example.com.evil.net", "https://evilshop.example.com", "https://shop.example.co",
            "https://cdn.example.net", "https://cdn.example.net.evil.io", "https://xcdn.example.net",
        ] {
            let sender = MessageSender(originText: text, isMainFrame: true)
            let outcome = router.receive(
                name: "ping", body: MessageBody(["count": 1]), sender: sender, replyHandler: nil)
            #expect(rejection(outcome)?.reason == .originNotAllowed, "\(text)")
        }
        withExtendedLifetime(token) {}
    }

    @Test func otherPortsAndSchemesAreRejected() throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let token = router.on(Ping.self) { _ in Issue.record("another port or scheme reached the handler") }
        for text in [
            "http://shop.example.com", "https://shop.example.com:8443", "wss://shop.example.com",
            "app://shop.example.com",
        ] {
            let sender = MessageSender(originText: text, isMainFrame: true)
            let outcome = router.receive(
                name: "ping", body: MessageBody(["count": 1]), sender: sender, replyHandler: nil)
            #expect(rejection(outcome)?.reason == .originNotAllowed, "\(text)")
        }
        withExtendedLifetime(token) {}
    }

    @Test func originTextsThatAreNotOriginsAreRejectedAsInvalid() throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let token = router.on(Ping.self) { _ in Issue.record("an invalid origin reached the handler") }
        for text in [
            "https://shop.example.com@evil.net", "https://shop.example.com.", "https://shop.example.com/",
            "null", "https://shop%2Eexample.com", " https://shop.example.com", "shop.example.com",
            "https://shop.example.com:0", "https://shöp.example.com",
        ] {
            let sender = MessageSender(originText: text, isMainFrame: true)
            #expect(sender.origin == nil && sender.claimedOrigin == text)
            let outcome = router.receive(
                name: "ping", body: MessageBody(["count": 1]), sender: sender, replyHandler: nil)
            let found = rejection(outcome)
            #expect(found?.reason == .invalidOrigin(text), "\(text)")
            #expect(found?.message.contains("not a valid origin") == true)
        }
        withExtendedLifetime(token) {}
    }

    @Test func aLongInvalidOriginIsJudgedByAllOfItsText() throws {
        // The first 200 characters parse as an origin; the userinfo comes after them.
        let host = String(repeating: String(repeating: "a", count: 62) + ".", count: 3) + "bbb"
        let text = "https://" + host + "@evil.com"
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let sender = MessageSender(originText: text, isMainFrame: true)
        #expect(sender.claimedOrigin?.count == 200)
        #expect(sender.invalidOriginReason?.contains("userinfo") == true)
        let found = rejection(
            router.receive(name: "ping", body: MessageBody(["count": 1]), sender: sender, replyHandler: nil))
        #expect(found?.message.contains("userinfo") == true, "\(found?.message ?? "")")
        #expect(found?.message.contains("parses") == false)
        var set = MessageSender(origin: nil, isMainFrame: true)
        set.claimedOrigin = text
        #expect(set.invalidOriginReason == sender.invalidOriginReason)
        set.isMainFrame = false
        #expect(set.invalidOriginReason == sender.invalidOriginReason)
        let webKit = MessageSender(
            securityOriginProtocol: "https", host: host + "@evil.com", port: 0, isMainFrame: true)
        #expect(webKit.claimedOrigin?.count == 200)
        #expect(webKit.invalidOriginReason?.contains("parses") == false)
        #expect(webKit.invalidOriginReason?.isEmpty == false)
    }

    @Test func anUnknownOriginIsRejected() throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy(subframes: true)))
        let token = router.on(Ping.self) { _ in Issue.record("an unknown origin reached the handler") }
        let outcome = router.receive(name: "ping", body: ["count": 1])
        #expect(rejection(outcome)?.reason == .unknownOrigin)
        let frameOnly = MessageSender(origin: nil, isMainFrame: true)
        let second = router.receive(name: "ping", body: MessageBody(["count": 1]), sender: frameOnly, replyHandler: nil)
        #expect(rejection(second)?.reason == .unknownOrigin)
        withExtendedLifetime(token) {}
    }

    @Test func anUnknownFrameIsRejectedEvenWhenSubframesMayCall() throws {
        for subframes in [false, true] {
            let router = Router(options: RouterOptions(originPolicy: try shopPolicy(subframes: subframes)))
            let token = router.on(Ping.self) { _ in Issue.record("an unknown frame reached the handler") }
            let sender = MessageSender(originText: "https://shop.example.com", isMainFrame: nil)
            let outcome = router.receive(
                name: "ping", body: MessageBody(["count": 1]), sender: sender, replyHandler: nil)
            #expect(rejection(outcome)?.reason == .unknownFrame)
            withExtendedLifetime(token) {}
        }
    }

    @Test func aSubframeIsRejectedUnlessThePolicyAdmitsSubframes() throws {
        let sender = MessageSender(originText: "https://shop.example.com", isMainFrame: false)
        let strict = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let strictToken = strict.on(Ping.self) { _ in Issue.record("a sub-frame reached the handler") }
        let outcome = strict.receive(name: "ping", body: MessageBody(["count": 1]), sender: sender, replyHandler: nil)
        #expect(rejection(outcome)?.reason == .subframe)
        #expect(rejection(outcome)?.message.contains("sub-frame") == true)

        let open = Router(options: RouterOptions(originPolicy: try shopPolicy(subframes: true)))
        let seen = RouterRecorder<Int>()
        let openToken = open.on(Ping.self) { seen.append($0.count) }
        _ = open.receive(name: "ping", body: MessageBody(["count": 7]), sender: sender, replyHandler: nil)
        #expect(seen.all == [7])
        withExtendedLifetime((strictToken, openToken)) {}
    }

    @Test func middlewareNeverSeesARejectedMessage() throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let seen = RouterRecorder<String>()
        let middleware = router.use(
            Middleware { message, next in
                seen.append(message.channel.name)
                return next(message)
            })
        let handler = router.on(Ping.self) { _ in }
        let evil = MessageSender(originText: "https://evil.example", isMainFrame: true)
        _ = router.receive(name: "ping", body: MessageBody(["count": 1]), sender: evil, replyHandler: nil)
        _ = router.receive(Message(channel: "ping", body: ["count": 1], sender: evil))
        #expect(seen.all.isEmpty)
        _ = router.receive(Message(channel: "ping", body: ["count": 1], sender: Self.shop))
        #expect(seen.all == ["ping"])
        withExtendedLifetime((middleware, handler)) {}
    }

    @Test func aRejectedMessageIsNeverKeptForALaterHandler() throws {
        let router = Router(
            options: RouterOptions(
                defaultBufferPolicy: .keep(max: 10, for: .seconds(60)), originPolicy: try shopPolicy()))
        let evil = MessageSender(originText: "https://evil.example", isMainFrame: true)
        let outcome = router.receive(name: "ping", body: MessageBody(["count": 1]), sender: evil, replyHandler: nil)
        #expect(rejection(outcome) != nil)
        #expect(router.keptCount(for: "ping") == 0)
        _ = router.receive(name: "ping", body: MessageBody(["count": 2]), sender: Self.shop, replyHandler: nil)
        #expect(router.keptCount(for: "ping") == 1)
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { seen.append($0.count) }
        #expect(seen.all == [2])
        withExtendedLifetime(token) {}
    }

    @Test func aRejectedMessageIsNotDecoded() throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let token = router.on(Ping.self) { _ in }
        let evil = MessageSender(originText: "https://evil.example", isMainFrame: true)
        let outcome = router.receive(
            name: "ping", body: MessageBody(["count": "not a number"]), sender: evil, replyHandler: nil)
        #expect(rejection(outcome) != nil)
        withExtendedLifetime(token) {}
    }

    @Test func anInvalidChannelNameIsReportedBeforeThePolicy() throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let evil = MessageSender(originText: "https://evil.example", isMainFrame: true)
        let outcome = router.receive(name: "bad\u{7}name", body: .absent, sender: evil, replyHandler: nil)
        guard case .invalidChannel = outcome else {
            Issue.record("\(outcome)")
            return
        }
    }

    @Test func aRejectedRequestFailsDistinctlyFromNoResponder() async throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let token = try router.respond(to: Echo.self) { request, reply in reply(.success(request.text)) }
        let evil = MessageSender(originText: "https://evil.example", isMainFrame: true)
        let refused = await router.request(name: "echo", body: ["text": "hi"], sender: evil)
        guard case .failure(let failure) = refused, case .rejected(let channel, let rejection) = failure else {
            Issue.record("\(refused)")
            return
        }
        #expect(channel == "echo" && failure.kind == .rejected)
        #expect(rejection.reason == .originNotAllowed)
        #expect(failure.message.hasPrefix("echo: rejected: "))
        #expect(failure.message != RequestFailure.noResponder("echo").message)
        let answered = await router.request(name: "echo", body: ["text": "hi"], sender: Self.shop)
        #expect((try? answered.get())?.value as? String == "hi")
        // From an unknown sender the policy refuses it too: fail closed. (Without a sender, the
        // request is the app's own, which every policy admits: `AppSenderTests`.)
        let unknown = await router.request(name: "echo", body: ["text": "hi"], sender: .unknown)
        guard case .failure(.rejected) = unknown else {
            Issue.record("\(unknown)")
            return
        }
        withExtendedLifetime(token) {}
    }

    @Test func aChannelsOwnPolicyReplacesTheDefault() throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let widget = try OriginPolicy(allowing: ["https://widget.example.io"], allowsSubframes: true)
        router.setOriginPolicy(widget, for: "ping")
        #expect(router.originPolicy(for: "ping") == widget)
        #expect(router.originPolicy(for: "echo") == (try shopPolicy()))
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { seen.append($0.count) }
        let frame = MessageSender(originText: "https://widget.example.io", isMainFrame: false)
        _ = router.receive(name: "ping", body: MessageBody(["count": 1]), sender: frame, replyHandler: nil)
        let shopOutcome = router.receive(
            name: "ping", body: MessageBody(["count": 2]), sender: Self.shop, replyHandler: nil)
        #expect(rejection(shopOutcome)?.reason == .originNotAllowed)
        router.setOriginPolicy(nil, for: "ping")
        _ = router.receive(name: "ping", body: MessageBody(["count": 3]), sender: Self.shop, replyHandler: nil)
        #expect(seen.all == [1, 3])
        withExtendedLifetime(token) {}
    }

    @Test func theDefaultPolicyCanBeChangedAndRemoved() throws {
        let router = Router()
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { seen.append($0.count) }
        router.setDefaultOriginPolicy(try shopPolicy())
        #expect(router.defaultOriginPolicy == (try shopPolicy()))
        #expect(rejection(router.receive(name: "ping", body: ["count": 1])) != nil)
        router.setDefaultOriginPolicy(nil)
        _ = router.receive(name: "ping", body: ["count": 2])
        #expect(seen.all == [2])
        withExtendedLifetime(token) {}
    }

    @Test func aPolicyWithNoPatternsAdmitsNobody() {
        let router = Router(options: RouterOptions(originPolicy: OriginPolicy(allowed: [], allowsSubframes: true)))
        let token = router.on(Ping.self) { _ in Issue.record("an empty policy admitted a message") }
        #expect(rejection(router.receive(Message(channel: "ping", body: ["count": 1], sender: Self.shop))) != nil)
        withExtendedLifetime(token) {}
    }

    @Test func aRejectedMessageChangesNoState() throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        let before = router.manifest
        let evil = MessageSender(originText: "https://evil.example", isMainFrame: true)
        for name in ["ping", "echo", "neverRegistered"] {
            _ = router.receive(name: name, body: MessageBody(["count": 1]), sender: evil, replyHandler: nil)
        }
        #expect(router.manifest == before)
        #expect(router.keptTotal == 0)
    }

    @Test func theManifestForASenderListsWhatItMayCall() throws {
        let router = Router(options: RouterOptions(originPolicy: try shopPolicy()))
        router.setOriginPolicy(
            try OriginPolicy(allowing: ["https://widget.example.io"], allowsSubframes: true), for: "echo")
        let ping = router.on(Ping.self) { _ in }
        let echo = try router.respond(to: Echo.self) { request, reply in reply(.success(request.text)) }
        router.declare(Feature("echoing", needs: ["echo"]))
        #expect(router.manifest.channels == ["echo", "ping"])
        let shop = router.manifest(for: Self.shop)
        #expect(shop.channels == ["ping"])
        #expect(shop.features["echoing"] == false)
        let widget = router.manifest(for: MessageSender(originText: "https://widget.example.io", isMainFrame: false))
        #expect(widget.channels == ["echo"])
        #expect(widget.features["echoing"] == true)
        #expect(router.manifest(for: .unknown).channels.isEmpty)
        withExtendedLifetime((ping, echo)) {}
    }
}

/// Policies change while messages flow: each message is checked against one policy or
/// the other, never a torn one, and nothing deadlocks.
@Suite struct OriginPolicyConcurrencyTests {
    @Test func changingPoliciesWhileReceivingGivesHandledOrRejectedOnly() async throws {
        let router = Router()
        let handled = Locked(0)
        let token = router.on(Ping.self) { _ in handled.withLock { $0 += 1 } }
        let shop = try OriginPolicy(allowing: ["https://shop.example.com"])
        let sender = MessageSender(originText: "https://evil.example", isMainFrame: true)
        let rejected = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<500 {
                    router.setDefaultOriginPolicy(round % 2 == 0 ? shop : nil)
                    router.setOriginPolicy(round % 3 == 0 ? shop : nil, for: "ping")
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    for count in 0..<500 {
                        let outcome = router.receive(
                            name: "ping", body: MessageBody(["count": count]), sender: sender, replyHandler: nil)
                        switch outcome {
                        case .handled: break
                        case .rejected: rejected.withLock { $0 += 1 }
                        default: Issue.record("unexpected \(outcome)")
                        }
                    }
                }
            }
        }
        #expect(handled.withLock { $0 } + rejected.withLock { $0 } == 1000)
        withExtendedLifetime(token) {}
    }
}

/// A typed in-process request is checked like one from the page.
@Suite struct TypedRequestPolicyTests {
    @Test func aTypedRequestCarriesItsSender() async throws {
        let router = Router(
            options: RouterOptions(originPolicy: try OriginPolicy(allowing: ["https://shop.example.com"])))
        let token = try router.respond(to: Echo.self) { request, reply in reply(.success("re: " + request.text)) }
        let shop = MessageSender(originText: "https://shop.example.com", isMainFrame: true)
        #expect(try await router.request(Echo(text: "hi"), sender: shop) == "re: hi")
        #expect(try await router.request(Echo(text: "hi")) == "re: hi")  // the app's own request
        do {
            _ = try await router.request(Echo(text: "hi"), sender: .unknown)
            Issue.record("an unknown sender was admitted")
        } catch {
            #expect(error.kind == .rejected)
        }
        withExtendedLifetime(token) {}
    }
}
