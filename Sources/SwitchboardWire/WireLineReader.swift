import Switchboard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One physical line of NDJSON input, as ``WireLineReader`` hands it out.
package enum WireLine {
    /// The line's bytes, without its `\n` (valid only during the callback).
    case bytes(UnsafeBufferPointer<UInt8>)
    /// The line was longer than the limit; its bytes were skipped, not kept.
    case oversized(byteCount: Int)
}

/// Splits a byte stream into lines with chunked reads and `memchr`, without
/// ever holding more than one line (up to the limit) plus one chunk in memory.
///
/// Lines end at `\n`; a final line without one still counts. Bytes are handed
/// out as they are (never decoded, never replaced): judging them is the
/// parser's job. A UTF-8 byte-order mark at the very start of the stream is
/// stripped (only there). A line longer than `maxLineBytes` is reported as
/// ``WireLine/oversized(byteCount:)`` and skipped to its end.
package struct WireLineReader {
    /// The longest line accepted, in bytes, without its `\n`.
    package let maxLineBytes: Int
    /// The size of each `read`.
    package let chunkSize: Int

    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Creates a reader.
    package init(maxLineBytes: Int, chunkSize: Int = 256 * 1024) {
        self.maxLineBytes = max(0, maxLineBytes)
        self.chunkSize = max(1, chunkSize)
    }

    /// Reads `source` to its end, calling `body` with each line's 1-based number and bytes.
    /// - Throws: the source's ``WireIOError``, or what `body` throws.
    package func forEachLine<Source: WireByteSource, Failure: Error>(
        in source: inout Source,
        _ body: (Int, WireLine) throws(Failure) -> Void
    ) throws(WireLineReaderError<Failure>) {
        // (Not a default argument: Swift 6.3 crashes emitting a defaulted closure of a typed-throws generic.)
        try forEachLine(in: &source, beforeWaiting: { () throws(Failure) in }, body)
    }

    /// Reads `source` to its end, calling `body` with each line's 1-based number and bytes.
    ///
    /// Before each read that would wait for input (``WireByteSource/readWouldWait()``: a
    /// pipe whose writer has sent nothing more yet), `beforeWaiting` is called, after every
    /// complete line read so far went to `body`: the moment to flush what they produced.
    /// A regular file, or a pipe whose writer keeps ahead, never waits, so it is never called.
    /// - Throws: the source's ``WireIOError``, or what `body` or `beforeWaiting` throws.
    package func forEachLine<Source: WireByteSource, Failure: Error>(
        in source: inout Source,
        beforeWaiting: () throws(Failure) -> Void,
        _ body: (Int, WireLine) throws(Failure) -> Void
    ) throws(WireLineReaderError<Failure>) {
        // The buffer holds the start of the current line plus one chunk; it grows
        // only for lines longer than a chunk, never beyond maxLineBytes + chunk.
        var capacity = chunkSize * 2
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var start = 0  // first byte of the current line
        var end = 0  // end of the valid bytes
        var lineNumber = 1
        var skipping = false  // inside an oversized line
        var skipped = 0  // bytes of the oversized line seen so far
        var checkedBOM = false

        func emit(_ line: WireLine) throws(WireLineReaderError<Failure>) {
            do {
                try body(lineNumber, line)
            } catch {
                throw .body(error)
            }
        }

        while true {
            // Make room for one more chunk after the current line's start.
            if capacity - end < chunkSize {
                if start > 0 {
                    let pending = end - start
                    if pending > 0, let base = buffer.baseAddress {
                        memmove(base, base + start, pending)
                    }
                    start = 0
                    end = pending
                }
                if capacity - end < chunkSize {
                    let grown = UnsafeMutableRawBufferPointer.allocate(
                        byteCount: max(capacity * 2, end + chunkSize), alignment: 16)
                    if end > 0 { grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[0..<end])) }
                    buffer.deallocate()
                    buffer = grown
                    capacity = grown.count
                }
            }
            if source.readWouldWait() {
                do {
                    try beforeWaiting()
                } catch {
                    throw .body(error)
                }
            }
            let count: Int
            do {
                count = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end..<(end + chunkSize)]))
            } catch {
                throw .io(error)
            }
            if count == 0 { break }
            let scanFrom = end
            end += count

            if !checkedBOM {
                // Strip a byte-order mark at the very start of the stream (and only there).
                let available = end - start
                var isPrefix = true
                for offset in 0..<min(3, available) where buffer[start + offset] != WireLineReader.bom[offset] {
                    isPrefix = false
                }
                if isPrefix && available < 3 { continue }  // need three bytes to decide
                if isPrefix { start += 3 }
                checkedBOM = true
            }

            guard let base = buffer.baseAddress else { break }
            var scan = max(scanFrom, start)
            while scan < end {
                guard let found = memchr(base + scan, 0x0A, end - scan) else { break }
                let newline = base.distance(to: found)
                if skipping {
                    try emit(.oversized(byteCount: skipped + (newline - start)))
                    skipping = false
                    skipped = 0
                } else if newline - start > maxLineBytes {
                    try emit(.oversized(byteCount: newline - start))
                } else {
                    let line = UnsafeBufferPointer(
                        start: (base + start).assumingMemoryBound(to: UInt8.self), count: newline - start)
                    try emit(.bytes(line))
                }
                lineNumber += 1
                start = newline + 1
                scan = start
            }
            // An unfinished line longer than the limit: stop keeping its bytes.
            if skipping || end - start > maxLineBytes {
                skipping = true
                skipped += end - start
                start = end
            }
            if start == end {
                start = 0
                end = 0
            }
        }
        if skipping {
            try emit(.oversized(byteCount: skipped + (end - start)))
        } else if end > start {
            if end - start > maxLineBytes {
                try emit(.oversized(byteCount: end - start))
            } else if let base = buffer.baseAddress {
                let line = UnsafeBufferPointer(
                    start: (base + start).assumingMemoryBound(to: UInt8.self), count: end - start)
                try emit(.bytes(line))
            }
        }
    }
}

/// Why ``WireLineReader/forEachLine(in:_:)`` stopped: the input failed, or the callback threw.
package enum WireLineReaderError<Failure: Error>: Error {
    /// Reading the input failed.
    case io(WireIOError)
    /// The callback threw.
    case body(Failure)
}
