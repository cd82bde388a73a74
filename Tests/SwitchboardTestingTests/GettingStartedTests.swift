import Foundation
import Observation
import Switchboard
import Testing

// The code of Sources/Switchboard/Switchboard.docc/GettingStarted.md, verbatim:
// the declarations at file scope, the statements in the test below. When the
// article changes, change this file with it.

struct SDKReady: BodylessEvent {
    static let channel: Channel = "sdkReady"
}

struct AddCartLine: Event {
    static let channel: Channel = "addCartLine"
    let merchandiseId: String
    let productId: String
    let quantity: Int
    let attributes: [String: String]
}

struct CartCount: Request {
    static let channel: Channel = "cartCount"
    typealias Reply = Int
}

@Observable @MainActor final class CartModel {
    var lines: [AddCartLine] = []
    var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }
}

@Suite struct GettingStartedTests {
    // On the main actor, as the article's top-level code is.
    @Test @MainActor func theGettingStartedSnippetsBuildAndBehaveAsTheArticleSays() async throws {
        let router = Router()
        let model = CartModel()
        var tokens: Set<Registration> = []

        router.on(SDKReady.self) { _ in print("the SDK is ready") }.store(in: &tokens)
        router.on(AddCartLine.self) { @MainActor line in model.lines.append(line) }.store(in: &tokens)
        try router.respond(to: CartCount.self) { @MainActor _ in model.itemCount }.store(in: &tokens)

        let body: [String: Any] = [
            "merchandiseId": "gid://shopify/ProductVariant/1",
            "productId": "gid://shopify/Product/1",
            "quantity": 2,
            "attributes": ["__lion_sfp_id": "reward-1"],
        ]
        let outcome = router.receive(name: "addCartLine", body: body)
        // outcome: .handled(count: 1)

        let unknown = router.receive(name: "wishlistEntryUpdate", body: nil)
        // unknown: .unhandled, also reported to diagnostics

        let reply = await router.request(name: "cartCount")
        // reply: .success(ReplyValue(2)); try reply.get().value(as: Int.self) == 2

        let rewards = Feature("freeProductRewards", needs: "addCartLine", "removeCartLine")
        router.declare(rewards)
        let enabled = router.isEnabled(rewards)  // false: removeCartLine has no handler yet
        let live = router.manifest.channels  // ["addCartLine", "cartCount", "sdkReady"]

        router.observeDiagnostics { diagnostic in
            print("switchboard:", diagnostic)
        }.store(in: &tokens)

        // What the article's comments claim:
        guard case .handled(count: 1) = outcome else {
            Issue.record("expected handled by 1, got \(outcome)")
            return
        }
        guard case .unhandled = unknown else {
            Issue.record("expected unhandled, got \(unknown)")
            return
        }
        #expect(model.lines.map(\.quantity) == [2])
        #expect(try reply.get().value(as: Int.self) == 2)
        #expect(!enabled)
        #expect(live == ["addCartLine", "cartCount", "sdkReady"])
        #expect(router.manifest.features == ["freeProductRewards": false])
        #expect(tokens.count == 4)
    }

    @Test func everyLineOfTheArticlesSnippetsIsInThisFile() throws {
        let tests = URL(fileURLWithPath: #filePath)
        let root = tests.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = root.appendingPathComponent("Sources/Switchboard/Switchboard.docc/GettingStarted.md")
        let text = try String(contentsOf: article, encoding: .utf8)
        let code = try String(contentsOf: tests, encoding: .utf8)
        let lines = Set(code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var inSwift = false
        var checked = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inSwift = line == "```swift"
                continue
            }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard inSwift, !trimmed.isEmpty, trimmed != "import Switchboard" else { continue }
            #expect(lines.contains(trimmed), "GettingStarted.md line not in this test: \(trimmed)")
            checked += 1
        }
        #expect(checked > 40)
    }
}
