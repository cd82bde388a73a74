import Switchboard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Receives the outcome lines of a wire session, in input order.
///
/// Two sinks come with the library: ``WireOutcomeCollector`` keeps the outcomes in
/// memory, ``NDJSONOutput`` writes them as NDJSON lines to a file descriptor, as the
/// CLI does. Adopt it to send outcomes anywhere else:
///
/// ```swift
/// /// Keeps the outcome lines of the messages that were not handled or replied to.
/// struct FailuresOnly: WireOutcomeSink {
///     var lines: [String] = []
///     mutating func emit(_ outcome: WireOutcome) {
///         if !outcome.kind.isSuccess { lines.append(outcome.jsonLine) }
///     }
///     mutating func flush() {}
/// }
/// ```
///
/// A sink that cannot take an outcome throws its own error (any `Error`; a sink that never
/// fails declares its methods without `throws`). ``WirePipeline/run(_:session:into:progress:)``
/// then stops as it does when standard output breaks under ``NDJSONOutput``: it routes no
/// further message and throws that error, as the sink threw it.
public protocol WireOutcomeSink {
    /// Takes one outcome.
    /// - Throws: the sink's own error when it cannot take it (``NDJSONOutput`` throws ``WireIOError``).
    mutating func emit(_ outcome: WireOutcome) throws
    /// Writes out anything buffered.
    /// - Throws: the sink's own error when it cannot.
    mutating func flush() throws
    /// Takes one notice line (a push or a manifest, ``WireNotices``), in order with the outcomes.
    /// The default ignores it: a sink that writes the wire format overrides it.
    /// - Throws: the sink's own error when it cannot take it.
    mutating func emit(notice: WireNotice) throws
}

extension WireOutcomeSink {
    /// Ignores the notice.
    public mutating func emit(notice: WireNotice) {}
}

/// Collects outcomes in memory (tests, fixture replay).
public struct WireOutcomeCollector: WireOutcomeSink, Sendable {
    /// The outcomes, in order.
    public private(set) var outcomes: [WireOutcome] = []
    /// The notices (pushes and manifests), in order.
    public private(set) var notices: [WireNotice] = []

    /// Creates an empty collector.
    public init() {}

    /// Appends the outcome.
    public mutating func emit(_ outcome: WireOutcome) throws(WireIOError) {
        outcomes.append(outcome)
    }

    /// Does nothing.
    public mutating func flush() throws(WireIOError) {}

    /// Appends the notice.
    public mutating func emit(notice: WireNotice) throws(WireIOError) {
        notices.append(notice)
    }

    /// The outcomes as NDJSON text, exactly as the CLI writes them.
    public var ndjson: String {
        var writer = JSONWriter()
        for outcome in outcomes { outcome.write(to: &writer) }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// Writes outcome lines as NDJSON to a file descriptor, exactly as the CLI writes
/// them to standard output: rendered with `JSONWriter` into one reused buffer and
/// written in large `write(2)` calls. Call ``flush()`` (``WirePipeline`` does when
/// it ends) before the descriptor is read or closed.
///
/// ```swift
/// var output = NDJSONOutput.standardOutput
/// try WirePipeline().run([.standardInput], session: &session, into: &output)
/// ```
public struct NDJSONOutput: WireOutcomeSink, Sendable {
    private let descriptor: Int32
    private let name: String
    private var writer: JSONWriter
    private let threshold: Int

    /// An output to standard output, as the CLI writes its outcome lines.
    public static var standardOutput: NDJSONOutput { NDJSONOutput(descriptor: 1) }

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

    /// Renders the outcome's line into the buffer, and writes the buffer once it is full.
    /// - Throws: ``WireIOError`` when writing fails.
    public mutating func emit(_ outcome: WireOutcome) throws(WireIOError) {
        outcome.write(to: &writer)
        if writer.byteCount >= threshold { try flush() }
    }

    /// Renders the notice's line into the buffer.
    /// - Throws: ``WireIOError`` when writing fails.
    public mutating func emit(notice: WireNotice) throws(WireIOError) {
        writer.writeRaw(notice.line.last == 0x0A ? notice.line.dropLast() : notice.line[...])
        writer.writeNewline()
        if writer.byteCount >= threshold { try flush() }
    }

    /// Writes out the buffered lines.
    /// - Throws: ``WireIOError`` when writing fails (the buffered lines are dropped).
    public mutating func flush() throws(WireIOError) {
        guard writer.byteCount > 0 else { return }
        let failure = writer.withUnsafeBytes { writeAll(descriptor, UnsafeRawBufferPointer($0)) }
        writer.reset()
        // A huge outcome line should not keep its buffer for the rest of the run.
        if writer.capacity > 16 * threshold { writer = JSONWriter(capacity: threshold + 4096) }
        if let failure { throw WireIOError(operation: "write", name: name, code: failure) }
    }
}
