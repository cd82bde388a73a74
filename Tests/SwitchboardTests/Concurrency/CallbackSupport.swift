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
/// suite. The stuck thread is left behind. The wait suspends the calling task
/// instead of blocking a thread of Swift's cooperative pool, so async responders
/// of other suites keep running meanwhile.
@discardableResult
func finishesWithoutDeadlock(
    _ what: String, timeout: Duration = .seconds(10), sourceLocation: SourceLocation = #_sourceLocation,
    _ action: @escaping @Sendable () -> Void
) async -> Bool {
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    let finished = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        // Whichever comes first, the thread's return or the timeout, resumes the task (once).
        let pending = Locked<CheckedContinuation<Bool, Never>?>(continuation)
        let resume: @Sendable (Bool) -> Void = { finished in
            let taken = pending.withLock { stored -> CheckedContinuation<Bool, Never>? in
                defer { stored = nil }
                return stored
            }
            taken?.resume(returning: finished)
        }
        let thread = Thread {
            action()
            resume(true)
        }
        thread.stackSize = 1 << 20
        thread.start()
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { resume(false) }
    }
    guard finished else {
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
