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
                switch waitUntilReady(descriptor, for: POLLIN) {
                case .ready: continue
                case .hungUp: return 0
                case .failed(let failure): throw WireIOError(operation: "read", name: name, code: failure)
                }
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

/// What `poll(2)` said about a descriptor that a read or a write waits on.
package enum PollReadiness: Sendable, Equatable {
    /// Ready for the event waited for: the read or write is tried again.
    case ready
    /// Hung up, with nothing to read (`POLLHUP` without `POLLIN`): the input has ended.
    case hungUp
    /// The descriptor cannot become ready: invalid or closed (`POLLNVAL`, given as `EBADF`), in
    /// error (`POLLERR`, as `EIO`), hung up while waiting to write (as `EPIPE`), or `poll` itself
    /// failed (its `errno`). The read or write fails with this `errno` instead of trying again,
    /// which would spin: each try would say `EAGAIN` and each wait return at once.
    case failed(Int32)

    /// Reads the `revents` that `poll` returned for a wait on `events` (`POLLIN` or `POLLOUT`).
    /// Every flag `poll` may set without being asked (`POLLNVAL`, `POLLERR`, `POLLHUP`) ends
    /// the wait one way or the other, on Linux and on Apple systems alike.
    package init(revents: Int16, waitingFor events: Int16) {
        if revents & Int16(POLLNVAL) != 0 {
            self = .failed(EBADF)
        } else if revents & events != 0 {
            self = .ready
        } else if revents & Int16(POLLERR) != 0 {
            self = .failed(EIO)
        } else if revents & Int16(POLLHUP) != 0 {
            self = events & Int16(POLLOUT) != 0 ? .failed(EPIPE) : .hungUp
        } else {
            self = .ready
        }
    }
}

/// Waits until `descriptor` is ready for `events` (`POLLIN`, `POLLOUT`): for a descriptor left
/// non-blocking, whose read or write failed with `EAGAIN` (nothing to read, no room to write yet).
/// - Returns: ``PollReadiness/ready`` to try again; ``PollReadiness/hungUp`` at the end of the
///   input; ``PollReadiness/failed(_:)`` with the `errno` to fail with when the descriptor is
///   invalid, closed or in error, or when `poll` fails.
package func waitUntilReady(_ descriptor: Int32, for events: Int32) -> PollReadiness {
    var request = pollfd(fd: descriptor, events: Int16(events), revents: 0)
    while true {
        let count = poll(&request, 1, -1)
        if count > 0 { return PollReadiness(revents: request.revents, waitingFor: Int16(events)) }
        if count < 0 {
            let code = errno
            if code != EINTR { return .failed(code) }
        }
    }
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
                if case .failed(let failure) = waitUntilReady(descriptor, for: POLLOUT) { return failure }
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
    package init(operation: String, name: String, code: Int32) {
        self.operation = operation
        self.name = name
        self.code = code
    }

    /// `cannot read x.ndjson: Is a directory`.
    public var description: String {
        "cannot \(operation) \(name): \(String(cString: strerror(code)))"
    }
}
