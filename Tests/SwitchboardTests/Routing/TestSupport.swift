import Foundation
import Switchboard
import SwitchboardTestSupport
import Testing

// Events and requests shared by the router test suites.

struct Ping: Event {
    static let channel: Channel = "ping"
    let count: Int
}

/// Another type on the `ping` channel, to show each type is decoded on its own.
struct PingText: Event {
    static let channel: Channel = "ping"
    let label: String
}

struct Ready: BodylessEvent { static let channel: Channel = "sdkReady" }

struct Echo: Request, Encodable {
    typealias Reply = String
    static let channel: Channel = "echo"
    let text: String
}

struct Measure: Request, Encodable {
    typealias Reply = Double
    static let channel: Channel = "measure"
    let value: Double
}

struct RouterTestError: Error, LocalizedError {
    let text: String
    var errorDescription: String? { text }
}

/// A thread-safe list of what a test saw, in the order it saw it.
final class RouterRecorder<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
    var count: Int { values.withLock { $0.count } }
}

extension Router {
    /// Records every diagnostic; keep the token for as long as you record.
    func recordDiagnostics() -> (RouterRecorder<Diagnostic>, Registration) {
        let recorder = RouterRecorder<Diagnostic>()
        let token = observeDiagnostics { recorder.append($0) }
        return (recorder, token)
    }
}

extension RouterRecorder<Diagnostic> {
    /// The kinds recorded, in order.
    var kinds: [String] { all.map(\.kind.rawValue) }
}

extension Result where Success == ReplyValue, Failure == RequestFailure {
    /// The failure's case name (`noResponder`, `invalidBody`, …), or `"success"`.
    var kind: String {
        switch self {
        case .success: return "success"
        case .failure(let failure): return failure.caseName
        }
    }

    /// The reply as `T`, when it succeeded with a `T`.
    func reply<T>(as type: T.Type) -> T? {
        (try? get())?.value(as: type)
    }
}

/// Sends a request through the callback API and waits for its single resolution,
/// recording how many times the handler ran.
func requestByCallback(
    _ router: Router, name: String, body: Any? = nil, calls: RouterRecorder<Result<ReplyValue, RequestFailure>>? = nil
) async -> (Outcome, Result<ReplyValue, RequestFailure>?) {
    let recorder = calls ?? RouterRecorder<Result<ReplyValue, RequestFailure>>()
    let outcome = router.receive(name: name, body: MessageBody(body), replyHandler: { recorder.append($0) })
    await eventually { recorder.count > 0 }
    return (outcome, recorder.all.first)
}

/// Runs `body` on `iterations` Dispatch worker threads at once and waits for it
/// without blocking a Swift concurrency thread (other tests' tasks keep running).
func concurrently(_ iterations: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: iterations, execute: body)
            continuation.resume()
        }
    }
}
