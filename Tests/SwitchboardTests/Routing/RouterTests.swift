import Foundation
import Switchboard
import Testing

@Suite struct RouterTests {
    @Test func aMessagePrintsItsChannelBodyAndId() throws {
        let json = Message(channel: "addCartLine", body: MessageBody(json: .object(["quantity": 1])), id: "a-1")
        #expect(json.description == #"Message(channel: addCartLine, body: {"quantity":1}, id: "a-1")"#)
        let tape = try Message(channel: "sdkReady", body: MessageBody(jsonBytes: Array("[true,null]".utf8)))
        #expect(tape.description == "Message(channel: sdkReady, body: [true,null], id: nil)")
        #expect(Message(channel: "sdkReady").description == "Message(channel: sdkReady, body: absent, id: nil)")
        let labels = Mirror(reflecting: json).children.compactMap(\.label)
        #expect(labels == ["channel", "body", "id"])
        var dumped = ""
        dump(Message(channel: "ping", body: ["count": 1]), to: &dumped)
        #expect(dumped.contains("count"))
    }

    @Test func aMessageIsAValueChangingACopyLeavesTheOriginalAlone() {
        let original = Message(channel: "ping", body: ["count": 1], id: "a-1")
        var copy = original
        copy.channel = "pong"
        copy.id = nil
        copy.body = .absent
        #expect(original.channel == "ping")
        #expect(original.id == "a-1")
        #expect(original.event(as: Ping.self)?.count == 1)
        #expect(copy.channel == "pong")
        #expect(copy.id == nil)
        #expect(copy.body.isAbsent)
    }

    @Test func handlersRunInRegistrationOrder() {
        let router = Router()
        let seen = RouterRecorder<String>()
        let tokens = ["a", "b", "c"].map { name in
            router.on(Ping.self) { ping, _ in seen.append("\(name)\(ping.count)") }
        }
        let outcome = router.receive(name: "ping", body: ["count": 1])
        guard case .handled(let count) = outcome else {
            Issue.record("expected handled, got \(outcome)")
            return
        }
        #expect(count == 3)
        #expect(seen.all == ["a1", "b1", "c1"])
        withExtendedLifetime(tokens) {}
    }

    @Test func messagesOnOneChannelArriveInReceiveOrder() {
        let router = Router()
        let seen = RouterRecorder<Int>()
        let token = router.on(Ping.self) { ping in seen.append(ping.count) }
        for count in 0..<50 { _ = router.receive(name: "ping", body: ["count": count]) }
        #expect(seen.all == Array(0..<50))
        withExtendedLifetime(token) {}
    }

    @Test func aMessageWithNoHandlerIsUnhandledAndReported() {
        let router = Router()
        let (diagnostics, token) = router.recordDiagnostics()
        #expect(router.receive(name: "nobody", body: ["x": 1]).kind == .unhandled)
        #expect(diagnostics.kinds == ["unhandled"])
        #expect(diagnostics.all.first?.channel == "nobody")
        withExtendedLifetime(token) {}
    }

    @Test func aBodyThatDoesNotDecodeRunsNoHandlerAndIsReported() {
        let router = Router()
        let (diagnostics, observer) = router.recordDiagnostics()
        let ran = RouterRecorder<Int>()
        let token = router.on(Ping.self) { ping in ran.append(ping.count) }
        let outcome = router.receive(name: "ping", body: ["count": "many"])
        guard case .invalid = outcome else {
            Issue.record("expected invalid, got \(outcome)")
            return
        }
        #expect(ran.count == 0)
        #expect(diagnostics.kinds == ["invalidBody"])
        withExtendedLifetime((token, observer)) {}
    }

    @Test func aThrowingHandlerFailsTheOutcomeWhileTheOthersStillRun() {
        let router = Router()
        let (diagnostics, observer) = router.recordDiagnostics()
        let ran = RouterRecorder<String>()
        let first = router.on(Ping.self) { _ in ran.append("first") }
        let failing = router.on(Ping.self) { _ in throw RouterTestError(text: "out of stock") }
        let last = router.on(Ping.self) { _ in ran.append("last") }
        let outcome = router.receive(name: "ping", body: ["count": 1])
        guard case .failed(let failure) = outcome else {
            Issue.record("expected failed, got \(outcome)")
            return
        }
        #expect(failure.errors == ["out of stock"])
        #expect(failure.succeeded == 2)
        #expect(ran.all == ["first", "last"])
        #expect(diagnostics.kinds == ["handlerFailed"])
        withExtendedLifetime((first, failing, last, observer)) {}
    }

    @Test func handlersOfDifferentTypesOnOneChannelEachDecodeTheBody() {
        let router = Router()
        let seen = RouterRecorder<String>()
        let number = router.on(Ping.self) { ping in seen.append("count \(ping.count)") }
        let text = router.on(PingText.self) { ping in seen.append("label \(ping.label)") }
        let again = router.on(Ping.self) { ping in seen.append("again \(ping.count)") }
        #expect(router.receive(name: "ping", body: ["count": 2, "label": "two"]).kind == .handled)
        #expect(seen.all == ["count 2", "label two", "again 2"])
        // One type failing to decode means no handler runs at all.
        #expect(router.receive(name: "ping", body: ["count": 3]).kind == .invalid)
        #expect(seen.count == 3)
        withExtendedLifetime((number, text, again)) {}
    }

    @Test func aBodylessEventIgnoresWhateverBodyComes() {
        let router = Router()
        let token = router.on(Ready.self) { _ in }
        #expect(router.receive(name: "sdkReady", body: nil).kind == .handled)
        #expect(router.receive(name: "sdkReady", body: ["unexpected": true]).kind == .handled)
        withExtendedLifetime(token) {}
    }

    @Test func anInvalidChannelNameIsRejectedAndReported() {
        let router = Router()
        let (diagnostics, observer) = router.recordDiagnostics()
        let outcome = router.receive(name: "bad\nname", body: nil)
        guard case .invalidChannel(.controlCharacter(let scalar, let offset)) = outcome else {
            Issue.record("expected invalidChannel, got \(outcome)")
            return
        }
        #expect(scalar == 0x0A)
        #expect(offset == 3)
        #expect(router.receive(name: "", body: nil).kind == .invalidChannel)
        #expect(diagnostics.kinds == ["invalidChannel", "invalidChannel"])
        withExtendedLifetime(observer) {}
    }

    @Test func aHandlerReachesCustomDataItsEventDoesNotDeclare() throws {
        struct CustomData: Decodable, Sendable { let isPersonalisable: Bool }
        let router = Router()
        let seen = RouterRecorder<Bool?>()
        let missing = RouterRecorder<Bool>()
        let token = router.on(Ping.self) { _, context in
            seen.append(try context.decode(CustomData.self, at: "customData").isPersonalisable)
            missing.append(try context.decode(CustomData?.self, at: "absentKey") == nil)
        }
        let outcome = router.receive(
            name: "ping", body: ["count": 1, "customData": ["isPersonalisable": true]])
        #expect(outcome.kind == .handled)
        #expect(seen.all == [true])
        #expect(missing.all == [true])
        // The raw body stays reachable as well.
        let raw = RouterRecorder<Int>()
        let rawToken = router.on(Ping.self) { _, context in
            raw.append(((context.body.foundationValue as? [String: Any])?["count"] as? Int) ?? -1)
        }
        _ = router.receive(name: "ping", body: ["count": 7, "customData": ["isPersonalisable": false]])
        #expect(raw.all == [7])
        withExtendedLifetime((token, rawToken)) {}
    }

    @Test func aBadCustomDataPayloadFailsOnlyTheHandlerThatAskedForIt() {
        struct CustomData: Decodable, Sendable { let isPersonalisable: Bool }
        let router = Router()
        let ran = RouterRecorder<String>()
        let strict = router.on(Ping.self) { _, context in
            _ = try context.decode(CustomData.self, at: "customData")
        }
        let plain = router.on(Ping.self) { _ in ran.append("plain") }
        let outcome = router.receive(name: "ping", body: ["count": 1, "customData": ["isPersonalisable": "yes"]])
        #expect(outcome.kind == .failed)
        #expect(ran.all == ["plain"])
        withExtendedLifetime((strict, plain)) {}
    }
}

@Suite struct RegistrationTests {
    @Test func cancellingATokenUnregistersItsHandler() {
        let router = Router()
        let token = router.on(Ping.self) { _ in }
        #expect(router.isHandled(Ping.channel))
        token.cancel()
        #expect(token.isCancelled)
        #expect(!router.isHandled(Ping.channel))
        #expect(router.receive(name: "ping", body: ["count": 1]).kind == .unhandled)
        token.cancel()  // a second cancel does nothing
    }

    @Test func releasingTheLastReferenceToATokenUnregisters() {
        let router = Router()
        do {
            let token = router.on(Ping.self) { _ in }
            #expect(router.isHandled(Ping.channel))
            withExtendedLifetime(token) {}
        }
        #expect(!router.isHandled(Ping.channel))
    }

    @Test func tokensStoredInASetKeepTheirRegistrations() {
        let router = Router()
        var tokens = Set<Registration>()
        router.on(Ping.self) { _ in }.store(in: &tokens)
        router.on(Ready.self) { _ in }.store(in: &tokens)
        #expect(tokens.count == 2)
        #expect(router.manifest.channels == ["ping", "sdkReady"])
        tokens.removeAll()
        #expect(router.manifest.channels.isEmpty)
    }

    @Test func cancellingOneTokenLeavesTheOtherHandlersOfTheChannel() {
        let router = Router()
        let seen = RouterRecorder<String>()
        let a = router.on(Ping.self) { _ in seen.append("a") }
        let b = router.on(Ping.self) { _ in seen.append("b") }
        a.cancel()
        _ = router.receive(name: "ping", body: ["count": 1])
        #expect(seen.all == ["b"])
        withExtendedLifetime(b) {}
    }

    @Test func replacingHandlersTakesOneLineAndMakesTheOldTokensInert() {
        let router = Router()
        let seen = RouterRecorder<String>()
        let old1 = router.on(Ping.self) { _ in seen.append("old1") }
        let old2 = router.on(Ping.self) { _ in seen.append("old2") }
        let custom = router.replaceHandlers(of: Ping.self) { _, _ in seen.append("custom") }
        _ = router.receive(name: "ping", body: ["count": 1])
        #expect(seen.all == ["custom"])
        old1.cancel()
        old2.cancel()
        _ = router.receive(name: "ping", body: ["count": 1])
        #expect(seen.all == ["custom", "custom"])
        withExtendedLifetime(custom) {}
    }

    @Test func aHandlerCanCancelItsOwnTokenWhileRunning() {
        let router = Router()
        let seen = RouterRecorder<Int>()
        let slot = Locked<Registration?>(nil)
        let token = router.on(Ping.self) { ping in
            seen.append(ping.count)
            slot.withLock { $0 }?.cancel()
        }
        slot.withLock { $0 = token }
        _ = router.receive(name: "ping", body: ["count": 1])
        #expect(router.receive(name: "ping", body: ["count": 2]).kind == .unhandled)
        #expect(seen.all == [1])
    }

    @Test func aHandlerCanCancelAnotherHandlerForTheNextMessages() {
        let router = Router()
        let seen = RouterRecorder<String>()
        let victim = Locked<Registration?>(nil)
        let killer = router.on(Ping.self) { _ in
            seen.append("killer")
            victim.withLock { $0 }?.cancel()
        }
        victim.withLock { $0 = router.on(Ping.self) { _ in seen.append("victim") } }
        _ = router.receive(name: "ping", body: ["count": 1])
        _ = router.receive(name: "ping", body: ["count": 2])
        // Delivery works on a snapshot: the message being delivered may still reach it, no later one does.
        #expect(seen.all.suffix(1) == ["killer"])
        #expect(seen.all.filter { $0 == "victim" }.count <= 1)
        withExtendedLifetime(killer) {}
    }

    @Test func aHandlerCanRegisterAnotherHandlerWhileRunning() {
        let router = Router()
        let added = Locked<[Registration]>([])
        let seen = RouterRecorder<String>()
        let token = router.on(Ping.self) { _ in
            added.withLock { $0.append(router.on(Ready.self) { _ in seen.append("ready") }) }
        }
        _ = router.receive(name: "ping", body: ["count": 1])
        _ = router.receive(name: "sdkReady", body: nil)
        #expect(seen.all == ["ready"])
        withExtendedLifetime(token) {}
    }

    @Test func aTokenOutlivingItsRouterCancelsHarmlessly() {
        var router: Router? = Router()
        let token = router?.on(Ping.self) { _ in }
        router = nil
        token?.cancel()
        #expect(token?.isCancelled == true)
    }
}
