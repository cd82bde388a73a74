import Foundation
import Switchboard

// Events, requests and a main-actor model shared by the app-side suites: what a SwiftUI app's
// `@Observable @MainActor` model looks like, without SwiftUI.

struct CartLine: Event, Encodable {
    static let channel: Channel = "addCartLine"
    let sku: String
}

struct CartLines: Request, Encodable {
    typealias Reply = [String]
    static let channel: Channel = "productCartGetState"
}

struct CartLineRefused: Error, LocalizedError {
    let sku: String
    var errorDescription: String? { "refused \(sku)" }
}

/// The app's cart model: main-actor state, no lock, no `@unchecked Sendable`.
@MainActor final class CartModel {
    var lines: [String] = []
    /// The threads the handlers ran on.
    var threads: [ObjectIdentifier] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    func add(_ line: CartLine) {
        MainActor.assertIsolated()
        lines.append(line.sku)
        threads.append(ObjectIdentifier(Thread.current))
        let ready = waiters.filter { $0.count <= lines.count }
        waiters.removeAll { $0.count <= lines.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns once the model holds `count` lines.
    func waitForLines(_ count: Int) async {
        if lines.count >= count { return }
        await withCheckedContinuation { continuation in waiters.append((count, continuation)) }
    }
}

/// The body of a cart line, as the page sends it.
func cartLineBody(_ sku: String) -> [String: Any] { ["sku": sku] }

extension Outcome {
    /// The count of `.handled(count:)`, `nil` for any other outcome.
    var handledCount: Int? {
        if case .handled(let count) = self { return count }
        return nil
    }

    var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }

    /// The reply of `.replied`, as a `T`.
    func reply<T>(as type: T.Type) -> T? {
        if case .replied(let value) = self { return value.value(as: T.self) }
        return nil
    }
}
