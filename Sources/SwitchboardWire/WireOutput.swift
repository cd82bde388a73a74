#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Switchboard

/// Receives the outcome lines of a wire session, in input order.
public protocol WireOutcomeSink {
    /// Takes one outcome.
    /// - Throws: ``WireIOError`` when writing it out fails.
    mutating func emit(_ outcome: WireOutcome) throws(WireIOError)
    /// Writes out anything buffered.
    mutating func flush() throws(WireIOError)
}

/// Collects outcomes in memory (tests, fixture replay).
public struct WireOutcomeCollector: WireOutcomeSink, Sendable {
    /// The outcomes, in order.
    public private(set) var outcomes: [WireOutcome] = []

    /// Creates an empty collector.
    public init() {}

    /// Appends the outcome.
    public mutating func emit(_ outcome: WireOutcome) throws(WireIOError) {
        outcomes.append(outcome)
    }

    /// Does nothing.
    public mutating func flush() throws(WireIOError) {}

    /// The outcomes as NDJSON text, exactly as the CLI writes them.
    public var ndjson: String {
        var writer = JSONWriter()
        for outcome in outcomes { outcome.write(to: &writer) }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// Writes outcome lines as NDJSON to a file descriptor: rendered with
/// ``JSONWriter`` into one reused buffer and written in large `write(2)` calls.
package struct NDJSONOutput: WireOutcomeSink {
    private let descriptor: Int32
    private let name: String
    private var writer: JSONWriter
    private let threshold: Int

    /// Creates an output.
    /// - Parameters:
    ///   - descriptor: where to write (not closed).
    ///   - name: the name in error messages (`stdout`).
    ///   - bufferSize: how many bytes to gather before writing.
    package init(descriptor: Int32, name: String = "stdout", bufferSize: Int = 64 * 1024) {
        self.descriptor = descriptor
        self.name = name
        self.threshold = max(1, bufferSize)
        self.writer = JSONWriter(capacity: bufferSize + 4096)
    }

    package mutating func emit(_ outcome: WireOutcome) throws(WireIOError) {
        outcome.write(to: &writer)
        if writer.byteCount >= threshold { try flush() }
    }

    package mutating func flush() throws(WireIOError) {
        guard writer.byteCount > 0 else { return }
        let failure = writer.withUnsafeBytes { bytes -> Int32? in
            var offset = 0
            while offset < bytes.count {
                guard let base = bytes.baseAddress else { return nil }
                #if canImport(Darwin)
                let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
                #elseif canImport(Glibc)
                let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
                #else
                let written = Musl.write(descriptor, base + offset, bytes.count - offset)
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        writer.reset()
        // A huge outcome line should not keep its buffer for the rest of the run.
        if writer.capacity > 16 * threshold { writer = JSONWriter(capacity: threshold + 4096) }
        if let failure { throw WireIOError(operation: "write", name: name, code: failure) }
    }
}
