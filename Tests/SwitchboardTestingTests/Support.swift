import Foundation
import Switchboard
import SwitchboardTestSupport
import SwitchboardTesting

struct TestReady: BodylessEvent { static let channel: Channel = "sdkReady" }

struct TestCartLine: Event, Encodable {
    static let channel: Channel = "addCartLine"
    let merchandiseId: String
    let productId: String
    let quantity: Int
    let attributes: [String: String]
}

struct GetCount: Request, Encodable {
    static let channel: Channel = "getCount"
    typealias Reply = Int
}

struct SlowCount: Request {
    static let channel: Channel = "slowCount"
    typealias Reply = Int
}

struct RejectError: Error, CustomStringConvertible {
    var description: String { "rejected" }
}

/// The reply timeout of tests that expect a reply from `CountingApp`'s `async`
/// responder. It bounds only a failing test: a passing one resumes as soon as the
/// reply comes. The responder runs in a `Task` on Swift's cooperative pool, which
/// Swift Testing fills with the other suites' tests (two threads on a 2-core CI
/// machine), so on a loaded machine a reply can take seconds to start; a few
/// seconds here would fail those tests now and then without anything being wrong.
let patientReplyTimeout: Duration = .seconds(60)

/// A small app under test: a counter of cart lines.
final class CountingApp: Sendable {
    let router: Router
    private let count = Locked(0)
    private let tokens: [Registration]

    init(router: Router = Router(options: .init(defaultDeadline: .patient))) {
        self.router = router
        let count = count
        var tokens: [Registration] = []
        tokens.append(
            router.on(TestCartLine.self) { line in
                if line.quantity < 0 { throw RejectError() }
                count.withLock { $0 += line.quantity }
            })
        tokens.append(router.on(TestReady.self) { _ in })
        if let responder = try? router.respond(to: GetCount.self, { _ async throws in count.withLock { $0 } }) {
            tokens.append(responder)
        }
        self.tokens = tokens
    }

    var total: Int { count.withLock { $0 } }
}

func line(_ quantity: Int, email: String = "a@example.com") -> [String: Any] {
    [
        "merchandiseId": "m1", "productId": "p1", "quantity": quantity,
        "attributes": ["email": email, "source": "web"],
    ]
}

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("switchboard-testing-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
