import Switchboard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the wire format's input bytes come from: a file descriptor (stdin, a
/// file) or bytes in memory (tests, fixture replay).
package protocol WireByteSource {
    /// Reads up to `buffer.count` bytes into `buffer`.
    /// - Returns: how many bytes were read; 0 at the end of the input.
    /// - Throws: ``WireIOError`` when the read fails.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(WireIOError) -> Int

    /// Whether a ``read(into:)`` now would wait for input that has not arrived yet (a pipe
    /// or terminal kept open by a writer that is waiting itself). Readers flush what they
    /// have written before such a read, so that writer gets its outcomes at once.
    func readWouldWait() -> Bool
}

extension WireByteSource {
    /// Never: bytes in memory, and any source that does not say, are always ready.
    package func readWouldWait() -> Bool { false }
}

/// Reads a file descriptor with `read(2)`, retrying on `EINTR`, and waiting with `poll(2)` when a
/// descriptor left non-blocking has nothing to read yet (`EAGAIN`). The descriptor is not closed.
package struct FileDescriptorSource: WireByteSource {
    /// The descriptor read from.
    package let descriptor: Int32
    /// The name used in error messages (`stdin` or the path).
    package let name: String

    /// Creates a source over an open descriptor.
    package init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(WireIOError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Darwin)
                let count = Darwin.read(descriptor, base, buffer.count)
            #elseif canImport(Glibc)
                let count = Glibc.read(descriptor, base, buffer.count)
            #else
                let count = Musl.read(descriptor, base, buffer.count)
            #endif
            if count >= 0 { return count }
            let code = errno
            if code == EINTR { continue }
            // Left non-blocking (by a parent that shares it), with no input yet: wait for some.
            if code == EAGAIN || code == EWOULDBLOCK {
                waitUntilReady(descriptor, for: POLLIN)
                continue
            }
            throw WireIOError(operation: "read", name: name, code: code)
        }
    }

    /// Asks `poll(2)` with a zero timeout whether the descriptor has input (or its end, or an
    /// error) ready: a regular file always has, a pipe only once its writer wrote or closed it.
    /// When `poll` itself fails, says the read would wait (the caller then flushes, which is safe).
    package func readWouldWait() -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&request, 1, 0)
            if ready > 0 { return false }
            if ready == 0 { return true }
            if errno != EINTR { return true }
        }
    }
}

/// Waits until `descriptor` is ready for `events` (`POLLIN`, `POLLOUT`): for a descriptor left
/// non-blocking, whose read or write failed with `EAGAIN` (nothing to read, no room to write yet).
/// Also returns when it reports an error or a hang-up, which the next read or write then gives.
package func waitUntilReady(_ descriptor: Int32, for events: Int32) {
    var request = pollfd(fd: descriptor, events: Int16(events), revents: 0)
    while poll(&request, 1, -1) < 0 && errno == EINTR {}
}

/// Writes all of `bytes` to `descriptor` with `write(2)`, retrying on `EINTR` and waiting for room
/// (`poll(2)`) when a descriptor left non-blocking is full (`EAGAIN`).
/// - Returns: the `errno` of the write that failed, or `nil` once everything is written.
package func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32? {
    var offset = 0
    while offset < bytes.count, let base = bytes.baseAddress {
        let written = write(descriptor, base + offset, bytes.count - offset)
        if written < 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK {
                waitUntilReady(descriptor, for: POLLOUT)
                continue
            }
            return code
        }
        if written == 0 { return EIO }
        offset += written
    }
    return nil
}

/// Bytes in memory, handed out in chunks of at most `chunkSize` (to exercise line splitting in tests).
package struct MemorySource: WireByteSource {
    private let bytes: [UInt8]
    private var offset = 0
    private let chunkSize: Int

    /// Creates a source over `bytes`.
    package init(_ bytes: [UInt8], chunkSize: Int = .max) {
        self.bytes = bytes
        self.chunkSize = max(1, chunkSize)
    }

    package mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(WireIOError) -> Int {
        let count = min(buffer.count, bytes.count - offset, chunkSize)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
        }
        offset += count
        return count
    }
}

/// A failed system call on the input or output.
public struct WireIOError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The call that failed (`open`, `read`, `write`).
    public let operation: String
    /// The path, `stdin` or `stdout`.
    public let name: String
    /// The `errno` value.
    public let code: Int32

    /// Creates an error.
    public init(operation: String, name: String, code: Int32) {
        self.operation = operation
        self.name = name
        self.code = code
    }

    /// `cannot read x.ndjson: Is a directory`.
    public var description: String {
        "cannot \(operation) \(name): \(String(cString: strerror(code)))"
    }
}
