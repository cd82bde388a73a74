import Foundation
import Switchboard
import Testing

/// A typed reply with a number and a nested member.
private struct CountTally: Codable, Sendable, Equatable {
    struct Detail: Codable, Sendable, Equatable {
        let count: Int
    }

    let total: Int
    let detail: Detail
}

/// A request whose typed reply is a ``CountTally``.
private struct CountRequest: Request, Encodable {
    typealias Reply = CountTally
    static let channel: Channel = "countRequest"
    let text: String
}

/// A middleware that stops every request with `reply` (a value of another type than
/// the request's reply), so `Router.request(_:)` converts it.
private func replying(_ reply: JSONValue) -> Middleware {
    let value = ReplyValue(reply)
    return Middleware { _, _ in .replied(value) }
}

/// `Router.request(_:)` converts a reply of another type with the router's own decoding
/// options (as it decodes bodies), and a reply that does not convert fails with
/// ``RequestFailure/undecodableReply(_:_:)``, naming the channel and the key path.
@Suite struct TypedReplyConversionTests {
    @Test func aReplyOfAnotherTypeDecodesWithTheRoutersLenientOption() async throws {
        let router = Router(options: RouterOptions(decoding: .lenient))
        let token = router.use(replying(["total": "3", "detail": ["count": "2"]]))
        let reply = try await router.request(CountRequest(text: "x"))
        #expect(reply == CountTally(total: 3, detail: .init(count: 2)))
        withExtendedLifetime(token) {}
    }

    @Test func aReplyOfAnotherTypeMeetsTheRoutersDepthLimit() async throws {
        let shallow = Router(options: RouterOptions(decoding: DecodingOptions(maxDepth: 1)))
        let token = shallow.use(replying(["total": 3, "detail": ["count": 2]]))
        await #expect {
            _ = try await shallow.request(CountRequest(text: "x"))
        } throws: { error in
            guard let failure = error as? RequestFailure, case .undecodableReply = failure else { return false }
            return failure.message.hasPrefix("countRequest: ") && failure.message.contains("reply.detail")
        }
        // The same reply within the default limit converts.
        let router = Router()
        let other = router.use(replying(["total": 3, "detail": ["count": 2]]))
        #expect(try await router.request(CountRequest(text: "x")) == CountTally(total: 3, detail: .init(count: 2)))
        withExtendedLifetime((token, other)) {}
    }

    @Test func aReplyThatDoesNotDecodeNamesTheChannelAndTheKeyPath() async throws {
        let router = Router()
        let token = router.use(replying(["total": 3, "detail": ["count": "many"]]))
        do throws(RequestFailure) {
            _ = try await router.request(CountRequest(text: "x"))
            Issue.record("expected a failure")
        } catch {
            #expect(error.caseName == "undecodableReply")
            #expect(error.channel == CountRequest.channel)
            guard case .undecodableReply(let channel, let decodingError) = error else {
                Issue.record("expected undecodableReply, got \(error)")
                return
            }
            #expect(channel == CountRequest.channel)
            #expect(decodingError.path == "body.detail.count")
            #expect(error.message.hasPrefix("countRequest: "))
            #expect(error.message.contains("reply.detail.count"), "\(error.message)")
        }
        withExtendedLifetime(token) {}
    }

    @Test func aMissingKeyOfTheReplyIsNamed() async throws {
        let router = Router()
        let token = router.use(replying(["total": 3]))
        do throws(RequestFailure) {
            _ = try await router.request(CountRequest(text: "x"))
            Issue.record("expected a failure")
        } catch {
            #expect(error.caseName == "undecodableReply")
            #expect(error.message.contains("reply.detail"), "\(error.message)")
        }
        withExtendedLifetime(token) {}
    }

    @Test func aReplyOfTheRequestsOwnTypeIsReturnedAsItIs() async throws {
        let router = Router()
        let token = try router.respond(to: CountRequest.self) { _, reply in
            reply.succeed(CountTally(total: 1, detail: .init(count: 1)))
        }
        #expect(try await router.request(CountRequest(text: "x")) == CountTally(total: 1, detail: .init(count: 1)))
        withExtendedLifetime(token) {}
    }
}
