import Foundation
import Switchboard

/// A middleware that writes the traffic it sees as NDJSON fixture lines, so real
/// traffic becomes tomorrow's test: `{"name": …, "body": …, "id": …}` per message,
/// with the values of named keys replaced by `"[redacted]"` at any depth.
///
/// ```swift
/// let recorder = TrafficRecorder(redacting: ["email", "customerId"])
/// let token = router.use(recorder, name: "recorder")
/// // … run the app, the page or a test …
/// try recorder.ndjson.write(to: url, atomically: true, encoding: .utf8)
/// // later: let results = await router.replay(contentsOf: url)
/// ```
///
/// The recorder passes every message on unchanged; it records the message as
/// it reaches the recorder (register it first to record what the web side sent).
/// A body value that is not JSON (an `NSDate` from WebKit, a non-finite number)
/// is written as a string, so every line is valid JSON. Replaying recorded lines
/// gives the same outcomes as long as the redacted keys do not decide them.
public final class TrafficRecorder: MessageMiddleware {
    /// The keys whose values are redacted (compared case-insensitively).
    public let redactedKeys: Set<String>

    private let lowercasedKeys: Set<String>
    private let output: (@Sendable (String) -> Void)?
    private let storage = Locked(Storage())

    /// What the lock guards: the in-memory lines, or the lines waiting for `output`.
    private struct Storage {
        var lines: [String] = []
        /// Lines recorded but not yet handed to `output`, in message order.
        var pending: [String] = []
        /// Whether a thread is handing lines to `output` (it takes the pending ones too).
        var delivering = false
    }

    /// Creates a recorder that keeps its lines in memory (see ``lines`` and ``ndjson``).
    /// - Parameter keys: the keys whose values are replaced by `"[redacted]"`.
    public init(redacting keys: Set<String> = []) {
        redactedKeys = keys
        lowercasedKeys = Set(keys.map { $0.lowercased() })
        output = nil
    }

    /// Creates a recorder that hands each line (without its newline) to `output`,
    /// in message order, and keeps nothing in memory.
    ///
    /// `output` is called outside the recorder's lock, one call at a time: while
    /// one thread is handing lines over, a message recorded on another thread (or
    /// by `output` itself, routing a message through the same router) is queued
    /// and handed over by that thread, after the lines before it. So `output` may
    /// call back into the recorder and the router, and may be called on a thread
    /// other than the one whose message it records.
    public init(redacting keys: Set<String> = [], output: @escaping @Sendable (String) -> Void) {
        redactedKeys = keys
        lowercasedKeys = Set(keys.map { $0.lowercased() })
        self.output = output
    }

    /// Creates a recorder that appends each line to the file at `url` (created if missing).
    /// - Throws: when the file cannot be created or opened.
    public convenience init(appendingTo url: URL, redacting keys: Set<String> = []) throws {
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
        }
        let handle = try FileHandle(forWritingTo: url)
        _ = try handle.seekToEnd()
        let file = Locked(handle)
        self.init(redacting: keys) { line in
            file.withLock { handle in try? handle.write(contentsOf: Data((line + "\n").utf8)) }
        }
    }

    /// Records `message`, then passes it on.
    public func handle(_ message: Message, next: MiddlewareNext) -> Outcome {
        let line = TrafficRecorder.line(for: message, redactingLowercased: lowercasedKeys)
        if let output {
            deliver(line, to: output)
        } else {
            storage.withLock { $0.lines.append(line) }
        }
        return next(message)
    }

    /// Queues `line`, then, unless another call is already handing lines over,
    /// hands every queued line to `output`, in order, outside the lock.
    private func deliver(_ line: String, to output: @Sendable (String) -> Void) {
        var batch = storage.withLock { storage -> [String] in
            storage.pending.append(line)
            guard !storage.delivering else { return [] }
            storage.delivering = true
            defer { storage.pending = [] }
            return storage.pending
        }
        while !batch.isEmpty {
            for line in batch { output(line) }
            batch = storage.withLock { storage -> [String] in
                defer { storage.pending = [] }
                if storage.pending.isEmpty { storage.delivering = false }
                return storage.pending
            }
        }
    }

    /// The lines recorded so far (in-memory recorders only), in message order.
    public var lines: [String] { storage.withLock { $0.lines } }

    /// The recorded lines as NDJSON text, each line ending in a newline.
    public var ndjson: String { lines.map { $0 + "\n" }.joined() }

    /// Forgets the lines recorded so far.
    public func removeAll() {
        storage.withLock { $0.lines.removeAll() }
    }

    /// The fixture line for `message`: `{"name":…,"body":…,"id":…}`, `body` and
    /// `id` only when present, object keys sorted, values of `keys` redacted.
    public static func line(for message: Message, redacting keys: Set<String> = []) -> String {
        line(for: message, redactingLowercased: Set(keys.map { $0.lowercased() }))
    }

    static func line(for message: Message, redactingLowercased keys: Set<String>) -> String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("name")
        writer.write(message.channel.name)
        if let body = message.body.heldValue {
            writer.key("body")
            Redaction.write(Redaction.jsonSafe(body, redacting: keys), into: &writer)
        }
        if let id = message.id {
            writer.key("id")
            writer.write(id)
        }
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
