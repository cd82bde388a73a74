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
        if let body = message.body.foundationValue {
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

/// Redaction of named keys in loosely typed bodies.
public enum Redaction {
    /// The value written in place of a redacted one.
    public static let placeholder = "[redacted]"

    /// `value` with the value of every object key in `keys` (compared
    /// case-insensitively), at any depth and inside arrays, replaced by ``placeholder``.
    public static func redact(_ value: Any, keys: Set<String>) -> Any {
        jsonSafe(value, redacting: Set(keys.map { $0.lowercased() }))
    }

    /// A JSON-safe copy of `value` with keys in `keys` (lowercased) redacted: strings,
    /// finite numbers, Booleans, `NSNull`, arrays and string-keyed objects are kept;
    /// dates become ISO 8601 strings; anything else becomes its description.
    static func jsonSafe(_ value: Any, redacting keys: Set<String>, depth: Int = 0) -> Any {
        if depth > 512 { return "[too deep]" }
        switch value {
        case let object as [String: Any]:
            var copy: [String: Any] = [:]
            for (key, element) in object {
                copy[key] = keys.contains(key.lowercased()) ? placeholder : jsonSafe(element, redacting: keys, depth: depth + 1)
            }
            return copy
        case let array as [Any]:
            return array.map { jsonSafe($0, redacting: keys, depth: depth + 1) }
        case let string as String:
            return string
        case is NSNull:
            return value
        case let bool as Bool where type(of: value) == Bool.self:
            return bool
        case let number as NSNumber:
            if isBool(number) { return number }
            return number.doubleValue.isFinite ? number : String(describing: number)
        case let date as Date:
            return ISO8601DateFormatter().string(from: date)
        case Optional<Any>.none:
            return NSNull()
        default:
            return String(describing: value)
        }
    }

    /// Writes a tree `jsonSafe` produced; object keys in ascending order.
    static func write(_ value: Any, into writer: inout JSONWriter) {
        switch value {
        case let object as [String: Any]:
            writer.beginObject()
            for key in object.keys.sorted() {
                writer.key(key)
                write(object[key] ?? NSNull(), into: &writer)
            }
            writer.endObject()
        case let array as [Any]:
            writer.beginArray()
            for element in array { write(element, into: &writer) }
            writer.endArray()
        case let string as String:
            writer.write(string)
        case let bool as Bool where type(of: value) == Bool.self:
            writer.write(bool)
        case let number as NSNumber:
            writeNumber(number, into: &writer)
        default:
            writer.writeNull()
        }
    }

    /// Whether an `NSNumber` holds a Boolean: Foundation gives Booleans their own
    /// `NSNumber` subclass (`__NSCFBoolean`) on every platform.
    private static func isBool(_ number: NSNumber) -> Bool {
        String(describing: type(of: number)).contains("Boolean")
    }

    private static func writeNumber(_ number: NSNumber, into writer: inout JSONWriter) {
        if isBool(number) {
            writer.write(number.boolValue)
            return
        }
        if let decimal = number as? NSDecimalNumber {
            if let exact = JSONNumber(decimal.stringValue) {
                writer.write(exact)
            } else {
                writer.write(decimal.stringValue)
            }
            return
        }
        switch String(cString: number.objCType) {
        case "d", "f":
            do {
                try writer.write(number.doubleValue)
            } catch {
                writer.write(number.stringValue)
            }
        case "Q", "L", "I", "S", "C":
            writer.write(number.uint64Value)
        default:
            writer.write(number.int64Value)
        }
    }
}
