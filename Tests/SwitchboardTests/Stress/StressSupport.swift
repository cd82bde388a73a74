import Foundation
import Switchboard
import SwitchboardTestSupport

// Helpers for the stress suites: real threads (not the cooperative pool, so
// blocking and racing are real), counters, and the size of a run.

enum Stress {
    /// Multiplies every stress loop. The default (1) is a light run that keeps `swift test`
    /// quick and leaves the cores to the other suites running beside it; CI runs the
    /// stress suites on their own, at a larger scale, under ThreadSanitizer:
    /// `SWITCHBOARD_STRESS_SCALE=20 swift test --sanitize=thread --filter StressTests`.
    static let scale: Int = {
        let value = ProcessInfo.processInfo.environment["SWITCHBOARD_STRESS_SCALE"].flatMap { Int($0) } ?? 1
        return max(1, value)
    }()

    /// Runs `body(index)` on `count` new threads at once and waits (without
    /// blocking the caller's thread) until all of them return.
    static func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        let group = DispatchGroup()
        let start = DispatchSemaphore(value: 0)
        for index in 0..<count {
            group.enter()
            // The thread takes `body` out of the box and drops it before it signals the
            // group: once the caller resumes, no thread still holds what `body` captured
            // (a Thread object may outlive the test, and with it its closure).
            let box = Locked<(@Sendable (Int) -> Void)?>(body)
            let thread = Thread {
                start.wait()
                do {
                    let work = box.withLock { stored -> (@Sendable (Int) -> Void)? in
                        defer { stored = nil }
                        return stored
                    }
                    work?(index)
                }
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        // Release them together, so they really overlap.
        for _ in 0..<count { start.signal() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            group.notify(queue: .global()) { continuation.resume() }
        }
    }

    /// Runs `work` on a thread of its own and suspends (without blocking a thread of Swift's
    /// cooperative pool) until it returns: for long CPU-bound steps that cannot yield. On Linux,
    /// Dispatch's global threads are the pool's, so the thread is a new one.
    static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await onDispatchThread(stackSize: 1 << 20, work)
    }
}

/// Counts occurrences per key, from any thread.
final class Tally<Key: Hashable & Sendable>: Sendable {
    private let counts = Locked<[Key: Int]>([:])

    /// Adds one to `key`; returns the new count.
    @discardableResult
    func add(_ key: Key, _ amount: Int = 1) -> Int {
        counts.withLock { counts in
            counts[key, default: 0] += amount
            return counts[key] ?? 0
        }
    }

    subscript(key: Key) -> Int { counts.withLock { $0[key] ?? 0 } }

    var all: [Key: Int] { counts.withLock { $0 } }

    /// The sum of all counts.
    var total: Int { counts.withLock { $0.values.reduce(0, +) } }

    /// Keys counted more than once.
    var repeated: [Key: Int] { counts.withLock { $0.filter { $0.value > 1 } } }
}

/// A stack of values shared between threads (reply handles waiting for another thread to answer them).
final class SharedStack<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    func push(_ value: Value) { values.withLock { $0.append(value) } }
    func pop() -> Value? { values.withLock { $0.popLast() } }
    var isEmpty: Bool { values.withLock { $0.isEmpty } }
    func drain() -> [Value] {
        values.withLock { values in
            defer { values = [] }
            return values
        }
    }
}

// Events and requests of the stress suites (own channel names, so they never
// meet the other suites' types).

struct StressPing: Event {
    static let channel: Channel = "stressPing"
    let seq: Int
}

struct StressEcho: Request, Encodable {
    typealias Reply = Int
    static let channel: Channel = "stressEcho"
    let seq: Int
}

struct StressLate: Event {
    static let channel: Channel = "stressLate"
    let seq: Int
}

struct StressLateRequest: Request, Encodable {
    typealias Reply = Int
    static let channel: Channel = "stressLateRequest"
    let seq: Int
}

struct StressError: Error, CustomStringConvertible {
    let seq: Int
    var description: String { "stress failure \(seq)" }
}
