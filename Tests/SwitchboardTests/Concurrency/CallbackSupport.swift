import Foundation
import Switchboard
import Testing

/// A user object whose `deinit` runs `action`: captured by a handler, a responder,
/// middleware, an observer or a message body, it calls back into the router at
/// the moment the router lets go of it. Under the router's lock, that deadlocks.
final class CallsBackOnDeinit: @unchecked Sendable {
    // `@unchecked`: `action` is set once, before the object is shared.
    private let action: @Sendable () -> Void
    private let ran: Locked<Bool>

    init(ran: Locked<Bool> = Locked(false), _ action: @escaping @Sendable () -> Void) {
        self.action = action
        self.ran = ran
    }

    deinit {
        action()
        ran.withLock { $0 = true }
    }

    func touch() {}
}

/// Runs `action` on a thread of its own and waits at most `timeout` for it: a
/// deadlock fails the test (with `what` in the message) instead of hanging the
/// suite. The stuck thread is left behind.
@discardableResult
func finishesWithoutDeadlock(
    _ what: String, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
    _ action: @escaping @Sendable () -> Void
) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        action()
        done.signal()
    }
    thread.stackSize = 1 << 20
    thread.start()
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    guard done.wait(timeout: .now() + seconds) == .success else {
        Issue.record("deadlock: \(what) did not finish within \(timeout)", sourceLocation: sourceLocation)
        return false
    }
    return true
}

/// A box a closure can capture and a test can empty, so the object inside is released when the router lets go.
final class Slot<Value: Sendable>: Sendable {
    let value: Locked<Value?>
    init(_ value: Value?) { self.value = Locked(value) }
    func take() -> Value? {
        value.withLock { stored in
            defer { stored = nil }
            return stored
        }
    }
}

struct Knock: Event {
    static let channel: Channel = "knock"
    let n: Int
}

struct Other: Event {
    static let channel: Channel = "otherKnock"
}

struct Ask: Request, Encodable {
    typealias Reply = Int
    static let channel: Channel = "ask"
    let n: Int
}
