import Foundation
import Switchboard
import Testing

/// A push the app sends the page in these tests.
struct PointsChanged: Push, Codable, Equatable {
    static let channel: Channel = "pointsChanged"
    let points: Int
    let tier: String?
}

/// An event the page sends in these tests.
struct Joined: Event {
    static let channel: Channel = "joined"
    let member: String
}

/// A request the page sends in these tests.
struct Points: Request, Encodable {
    typealias Reply = Int
    static let channel: Channel = "points"
}

@Suite struct PushTests {
    @Test func observersAreToldEveryPushInOrderOnThePushingThread() {
        let router = Router()
        let seen = Locked<[String]>([])
        let token = router.observePushes { push in seen.withLock { $0.append(push.description) } }
        #expect(router.isObservingPushes)
        #expect(router.push(PointsChanged(points: 120, tier: "gold")) == 1)
        #expect(router.push(PointsChanged(points: 80, tier: nil)) == 1)
        #expect(
            seen.withLock { $0 } == [
                #"pointsChanged {"points":120,"tier":"gold"}"#, #"pointsChanged {"points":80}"#,
            ])
        token.cancel()
        #expect(!router.isObservingPushes)
        #expect(router.push(PointsChanged(points: 1, tier: nil)) == 0)
        #expect(seen.withLock { $0.count } == 2)
    }

    @Test func aDeclaredPushIsInTheContractAndTheManifestWithItsOwnDigest() throws {
        let router = Router()
        let joined = router.on(Joined.self) { _ in }
        let points = try router.respond(to: Points.self) { _ in 7 }
        router.declare(push: PointsChanged.self)
        let contract = Contract(router: router)
        let entry = try #require(contract.channels["pointsChanged"])
        #expect(entry.kind == .push)
        #expect(entry.body?.json.objectValue?["required"] == ["points"])
        let manifest = router.manifest
        #expect(manifest.pushes == ["pointsChanged"])
        #expect(!manifest.channels.contains("pointsChanged"), "a push channel is not a channel the page posts to")
        // Each channel's digest is that of the contract narrowed to it, as the generated client states it.
        for name in ["joined", "points", "pointsChanged"] {
            let channel = try Channel(validating: name)
            #expect(manifest.contracts[name] == contract.restricted(to: [channel]).digest, "\(name)")
        }
        #expect(Set(manifest.contracts.keys) == ["joined", "points", "pointsChanged"])
        // Encoded with its new parts; decoded back.
        let json = String(decoding: try BodyEncoder().encodeJSON(manifest), as: UTF8.self)
        #expect(json.contains(#""pushes":["pointsChanged"]"#))
        #expect(json.contains(#""contracts":{"joined":"sha256:"#))
        let decoded = try JSONDecoder().decode(Manifest.self, from: Data(json.utf8))
        #expect(decoded.pushes == manifest.pushes && decoded.contracts == manifest.contracts)
        _ = (joined, points)
    }

    @Test func aFeatureThatIsOffDoesNotChangeTheOtherChannelsDigests() throws {
        let router = Router()
        let joined = router.on(Joined.self) { _ in }
        let before = router.manifest.contracts["joined"]
        let points = try router.respond(to: Points.self) { _ in 7 }
        #expect(router.manifest.contracts["joined"] == before)
        #expect(router.manifest.contract != nil)
        points.cancel()
        #expect(router.manifest.contracts["points"] == nil)
        _ = joined
    }

    @Test func theGeneratedClientStatesTheDigestsTheManifestCarries() throws {
        let router = Router()
        let joined = router.on(Joined.self) { _ in }
        let points = try router.respond(to: Points.self) { _ in 7 }
        router.declare(push: PointsChanged.self)
        let client = Contract(router: router).client
        for (name, digest) in router.manifest.contracts {
            #expect(client.javaScript.contains(#""\#(name)":{"kind":"#), "\(name)")
            #expect(client.javaScript.contains(digest), "\(name)")
        }
        #expect(client.javaScript.contains("export function connect(options)"))
        #expect(client.javaScript.contains(#""pointsChanged":{"kind":"push""#))
        #expect(client.typeScript.contains("pointsChanged: PointsChangedBody;"))
        #expect(client.typeScript.contains("points: [PointsBody, PointsReply];"))
        #expect(client.typeScript.contains("joined: JoinedBody;"))
        #expect(
            client.typeScript.contains(
                "export declare function connect(options?: ConnectOptions): Switchboard<Events, Requests, Pushes>;"))
        _ = (joined, points)
    }

    @Test func aChannelNameCannotBreakOutOfTheGeneratedModule() throws {
        let contract = Contract(types: [ScriptClosingEvent.self])
        let js = contract.client.javaScript
        #expect(!js.contains("</script>"))
        #expect(js.contains(#"\u003c/script\u003e"#))
    }
}

/// An event on a channel whose name would close a script element.
struct ScriptClosingEvent: Event {
    static let channel: Channel = "x</script><script>alert(1)//"
}
