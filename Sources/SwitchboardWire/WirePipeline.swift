import Dispatch
import Foundation
import Switchboard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs wire inputs through a ``WireSession`` into a ``WireOutcomeSink``: the
/// whole of what the `switchboard` CLI does between parsing its arguments and
/// printing its summary.
///
/// ```swift
/// let router = Router()
/// let commerce = try router.installReferenceCommerce()
/// var session = WireSession(router: router)
/// var collector = WireOutcomeCollector()
/// try WirePipeline().run([.bytes(Array(ndjson.utf8))], session: &session, into: &collector)
/// ```
///
/// NDJSON inputs are read in chunks and split on `\n` as bytes, so memory stays
/// flat however long the input; with ``readsAhead`` (the default), a second thread
/// reads and parses the lines ahead (`WireSession.prepare(_:maxLineBytes:maxDepth:)`)
/// while the calling thread routes them in order, a bounded number of lines behind; a `.json` document is read whole, up to
/// ``maxDocumentBytes``. A UTF-8 byte-order mark is stripped at the very start
/// of each input, and only there.
public struct WirePipeline: Sendable {
    /// The largest `.json` document read (64 MiB by default); a larger one is one `malformed` outcome.
    public var maxDocumentBytes: Int
    /// How often (in messages) `progress` is called.
    public var progressInterval: Int
    /// Whether NDJSON lines are read and parsed on a second thread, ahead of the calling
    /// thread, which routes them in order and writes the outcomes (on by default). The
    /// outcomes are the same either way; handlers, responders and the sink always run on
    /// the calling thread.
    ///
    /// What reading ahead changes for a caller:
    /// - Lines are handed over in batches (256 lines or 256 KiB), or as many as were read
    ///   when the next read would wait for input, so a sink sees the outcomes of a slow
    ///   stream as its lines arrive, and those of a fast one in batches.
    /// - The lines parsed ahead take about 1 MiB at most, counting the routed lines going
    ///   back to the reading thread to be freed there, plus four batches (three being read,
    ///   waiting or routed, one routed and going back when nothing else routed is counted).
    /// - If the sink throws (its own error, or ``NDJSONOutput``'s ``WireIOError``), `run` waits
    ///   for the reading thread to stop, which is at
    ///   once for bytes and for a regular file. On standard input it does not wait (a
    ///   read may wait for input that never comes): that thread stays blocked in its
    ///   read until standard input has data or ends; what it reads then (up to a
    ///   batch) is dropped, unrouted, and it stops. A file that is a FIFO is waited
    ///   for, so `run` returns once its writer writes or closes it.
    public var readsAhead: Bool

    /// Creates a pipeline.
    public init(maxDocumentBytes: Int = 64 << 20, progressInterval: Int = 8192, readsAhead: Bool = true) {
        self.maxDocumentBytes = maxDocumentBytes
        self.progressInterval = max(1, progressInterval)
        self.readsAhead = readsAhead
    }

    /// Processes every input in order, emitting one outcome per message, then flushes the sink.
    ///
    /// The sink is also flushed whenever reading NDJSON would wait for input that has not
    /// arrived (a pipe kept open by a writer that waits for each outcome): the outcomes of
    /// every line read so far go out first. A file, or a pipe whose writer keeps ahead, is
    /// never waited for, so its outcomes go out in the sink's large writes.
    /// - Parameters:
    ///   - inputs: the inputs, in order; state carries across them.
    ///   - session: the session (its router and counts).
    ///   - sink: where outcomes go.
    ///   - progress: called every ``progressInterval`` messages with the counts so far.
    /// - Throws: ``WireIOError`` when an input cannot be opened or read; what the sink throws (as
    ///   it threw it: ``WireIOError`` from ``NDJSONOutput``, your own sink's own error) when it
    ///   cannot take an outcome or flush. Either way the run stops there: the outcomes emitted
    ///   before stay emitted, no later message is routed, and ``WireSession/summary`` counts the
    ///   messages routed so far.
    public func run<Sink: WireOutcomeSink>(
        _ inputs: [WireInput],
        session: inout WireSession,
        into sink: inout Sink,
        progress: ((WireSummary) -> Void)? = nil
    ) throws {
        let started = ContinuousClock.now
        defer { session.finish(elapsed: ContinuousClock.now - started) }
        for input in inputs {
            switch input.origin {
            case .standardInput:
                var source = FileDescriptorSource(descriptor: 0, name: "stdin")
                try run(input, from: &source, session: &session, into: &sink, progress: progress)
            case .bytes(let bytes):
                var source = MemorySource(bytes)
                try run(input, from: &source, session: &session, into: &sink, progress: progress)
            case .file(let path):
                let descriptor = open(path, O_RDONLY)
                guard descriptor >= 0 else { throw WireIOError(operation: "open", name: path, code: errno) }
                defer { close(descriptor) }
                var source = FileDescriptorSource(descriptor: descriptor, name: path)
                try run(input, from: &source, session: &session, into: &sink, progress: progress)
            }
        }
        try sink.flush()
    }

    private func run<Source: WireByteSource & Sendable, Sink: WireOutcomeSink>(
        _ input: WireInput,
        from source: inout Source,
        session: inout WireSession,
        into sink: inout Sink,
        progress: ((WireSummary) -> Void)?
    ) throws {
        switch input.format {
        case .ndjson where readsAhead:
            try runReadingAhead(input, from: source, session: &session, into: &sink, progress: progress)
        case .ndjson:
            let reader = WireLineReader(maxLineBytes: session.options.maxLineBytes)
            let interval = progressInterval
            // Read once: a stored property read per line is a copy made and destroyed per line.
            let echoed = input.source
            do {
                // Before a read that would wait for input, the outcomes so far go out (docs/cli.md).
                let flush = { () throws in try sink.flush() }
                try reader.forEachLine(in: &source, beforeWaiting: flush) {
                    (number, line) throws in
                    // A plain `WireOutcome`, not an optional one: in this generic function (the sink's
                    // type is not known), a `WireOutcome?` would be destroyed through its runtime metadata.
                    let outcome: WireOutcome
                    switch line {
                    case .bytes(let bytes):
                        guard let processed = session.process(line: bytes, number: number, source: echoed) else {
                            return
                        }
                        outcome = processed
                    case .oversized(let count):
                        outcome = session.malformed(
                            .oversized(byteCount: count, limit: session.options.maxLineBytes),
                            line: number, source: echoed)
                    }
                    try sink.emit(outcome)
                    if let progress, session.summary.total % interval == 0 { progress(session.summary) }
                }
            } catch {
                switch error {
                case .io(let failure): throw failure
                case .body(let failure): throw failure
                }
            }
        case .json:
            let document: [UInt8]
            switch try readDocument(from: &source) {
            case .some(let bytes):
                document = bytes
            case .none:
                try sink.emit(
                    session.malformed(.documentTooLarge(limit: maxDocumentBytes), line: 1, source: input.source))
                return
            }
            let value: JSONValue
            do {
                value = try WireLineReader.readDocument(document, with: session.options.reader)
            } catch {
                try sink.emit(
                    session.malformed(WireMalformed(readError: error), line: error.line, source: input.source))
                return
            }
            switch value {
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    try sink.emit(session.process(value: element, line: index + 1, source: input.source))
                    if let progress, session.summary.total % progressInterval == 0 { progress(session.summary) }
                }
            case .object:
                try sink.emit(session.process(value: value, line: 1, source: input.source))
            default:
                try sink.emit(session.malformed(.notAMessageDocument(found: value), line: 1, source: input.source))
            }
        }
    }

    /// The NDJSON case with ``readsAhead``: a reading thread splits and prepares lines
    /// in batches; this thread processes them in order, then waits for that thread to end.
    private func runReadingAhead<Source: WireByteSource & Sendable, Sink: WireOutcomeSink>(
        _ input: WireInput,
        from source: Source,
        session: inout WireSession,
        into sink: inout Sink,
        progress: ((WireSummary) -> Void)?
    ) throws {
        let queue = WireReadAhead()
        let maxLineBytes = session.options.maxLineBytes
        let maxDepth = session.options.reader.maxDepth
        let reader = Thread {
            queue.fill(from: source, maxLineBytes: maxLineBytes, maxDepth: maxDepth)
        }
        reader.stackSize = 1 << 20
        reader.start()
        let interval = progressInterval
        let echoed = input.source
        do {
            while var batch = try queue.next(beforeWaiting: { try sink.flush() }) {
                // Each line is read in place, then the batch goes back to the reading thread,
                // which frees the tapes it made.
                try LentElements.forEach(in: &batch) { entry throws in
                    guard let outcome = session.process(prepared: entry.line, number: entry.number, source: echoed)
                    else { return }
                    try sink.emit(outcome)
                    if let progress, session.summary.total % interval == 0 { progress(session.summary) }
                }
                queue.recycle(batch)
            }
        } catch {
            // The sink failed (or reading did): the reader stops at its next batch. It is waited
            // for before the source goes away (the caller closes a file right after), except on
            // stdin, which stays open and where a read may wait for input that never comes.
            queue.cancel()
            if case .standardInput = input.origin {} else { queue.waitUntilEnded() }
            throw error
        }
        queue.waitUntilEnded()
    }

    /// Reads the whole source, or returns `nil` once it passes ``maxDocumentBytes``.
    private func readDocument<Source: WireByteSource>(from source: inout Source) throws(WireIOError) -> [UInt8]? {
        var bytes: [UInt8] = []
        let chunk = 64 * 1024
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            let read = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(WireIOError) -> Int in
                    try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[start..<(start + chunk)]))
                }
            }
            let count = try read.get()
            bytes.removeLast(chunk - count)
            if count == 0 { return bytes }
            if bytes.count > maxDocumentBytes { return nil }
        }
    }
}

extension WireLineReader {
    /// `bytes` without a leading UTF-8 byte-order mark.
    package static func strippingBOM(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        if bytes.starts(with: bom) { return bytes.dropFirst(3) }
        return bytes[...]
    }

    /// Reads a `.json` document (a leading byte-order mark stripped) with `reader`'s limit counted
    /// from each message object, as on an NDJSON line: in a document that is an array of messages,
    /// the array's own level is not counted, and an error says the limit the caller set.
    package static func readDocument(_ document: [UInt8], with reader: JSONReader) throws(JSONReadError) -> JSONValue {
        let text = strippingBOM(document)
        let limit = reader.maxDepth
        let first = text.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        guard first == UInt8(ascii: "["), limit < Int.max else { return try reader.read(text) }
        do {
            return try JSONReader(maxDepth: limit + 1).read(text)
        } catch {
            guard case .nestingTooDeep = error.kind else { throw error }
            throw JSONReadError(
                kind: .nestingTooDeep(limit: limit),
                reason: "arrays and objects nested deeper than the limit of \(limit)",
                offset: error.offset, line: error.line, column: error.column, isMultiline: error.isMultiline)
        }
    }
}
