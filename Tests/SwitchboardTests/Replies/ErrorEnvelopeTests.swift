import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

/// A typed error a responder fails with; the page gets it as `data`.
struct OutOfStock: Error, Encodable {
    let code = "outOfStock"
    let sku: String
}

@Suite struct ErrorEnvelopeTests {
    @Test(arguments: [
        (RequestFailure.noResponder("c"), ErrorKind.noResponder),
        (.timedOut("c", after: .seconds(1)), .timedOut),
        (.dropped("c"), .dropped),
        (
            .rejected(
                "c",
                PolicyRejection(
                    channel: "c", sender: .unknown, reason: .unknownOrigin, policy: OriginPolicy(allowed: []))),
            .rejected
        ),
        (.responderFailed("c", message: "m"), .failed),
        (.stopped("c", .unhandled), .failed),
        (.invalidChannel(name: "", .empty), .invalid),
    ])
    func everyFailureHasTheKindThePageSwitchesOn(failure: RequestFailure, kind: ErrorKind) throws {
        #expect(failure.kind == kind)
        let envelope = ErrorEnvelope(failure)
        let decoded = try JSONDecoder().decode(ErrorEnvelope.self, from: Data(envelope.jsonText.utf8))
        #expect(decoded == envelope)
        #expect(decoded.message == failure.message)
    }

    @Test func aResponderFailingWithATypedErrorGivesThePageItsData() async throws {
        let router = Router()
        let token = try router.respond(to: Points.self) { _, reply in reply.fail(OutOfStock(sku: "A-1")) }
        let failure: RequestFailure
        do {
            let reply = try await router.request(Points())
            Issue.record("expected a failure, got \(reply)")
            return
        } catch {
            failure = error
        }
        #expect(failure.kind == .failed)
        #expect(failure.data == ["code": "outOfStock", "sku": "A-1"])
        let text = ErrorEnvelope(failure).jsonText
        #expect(text.hasPrefix(#"{"kind":"failed","channel":"points","message":"#))
        #expect(text.hasSuffix(#","data":{"code":"outOfStock","sku":"A-1"}}"#))
        _ = token
    }

    @Test func anAsyncResponderThrowingATypedErrorGivesThePageItsData() async throws {
        let router = Router(options: .init(defaultDeadline: .patient))
        let token = try router.respond(to: Points.self) { _ async throws -> Int in throw OutOfStock(sku: "B-2") }
        do {
            let reply = try await router.request(Points())
            Issue.record("expected a failure, got \(reply)")
        } catch {
            #expect(error.kind == .failed)
            #expect(error.data == ["code": "outOfStock", "sku": "B-2"])
        }
        _ = token
    }

    @Test func anErrorThatIsNotEncodableHasNoData() {
        struct Plain: Error {}
        let failure = RequestFailure.responderFailed("c", message: "plain")
        #expect(failure.data == nil)
        #expect(!ErrorEnvelope(failure).jsonText.contains("data"))
        _ = Plain()
    }
}
