import Foundation
import Testing

@testable import SwitchboardWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A read or write of a non-blocking descriptor that says `EAGAIN` waits with `poll(2)`, and
/// the wait reads what `poll` said, not only that it returned: a descriptor `poll` calls invalid
/// (`POLLNVAL`: closed, or a device macOS's `poll` does not support), in error or hung up ends
/// the wait (an error, or the end of the input) rather than have the read or write try again at
/// once, forever if it kept saying `EAGAIN`.
@Suite struct WirePollTests {
    @Test func everyFlagPollMaySetEndsTheWaitOneWayOrTheOther() {
        let read = Int16(POLLIN)
        let write = Int16(POLLOUT)
        #expect(PollReadiness(revents: Int16(POLLNVAL), waitingFor: read) == .failed(EBADF))
        #expect(PollReadiness(revents: Int16(POLLNVAL), waitingFor: write) == .failed(EBADF))
        #expect(PollReadiness(revents: Int16(POLLNVAL) | read, waitingFor: read) == .failed(EBADF))
        #expect(PollReadiness(revents: Int16(POLLERR), waitingFor: read) == .failed(EIO))
        #expect(PollReadiness(revents: Int16(POLLERR), waitingFor: write) == .failed(EIO))
        #expect(PollReadiness(revents: Int16(POLLHUP), waitingFor: read) == .hungUp)
        #expect(PollReadiness(revents: Int16(POLLHUP), waitingFor: write) == .failed(EPIPE))
        // Input still there when the writer hung up is read first; a full pipe whose reader
        // left is writable (the write then fails with `EPIPE` itself).
        #expect(PollReadiness(revents: read | Int16(POLLHUP), waitingFor: read) == .ready)
        #expect(PollReadiness(revents: write | Int16(POLLERR), waitingFor: write) == .ready)
        #expect(PollReadiness(revents: read, waitingFor: read) == .ready)
        #expect(PollReadiness(revents: write, waitingFor: write) == .ready)
    }

    @Test func waitingOnADescriptorThatIsNotOpenFailsWithEBADFInsteadOfReturningAsIfReady() throws {
        // A number far above any open descriptor (one just closed could be reused by another
        // test's file at once, and a wait on it would then block).
        let closed: Int32 = 900_001
        try #require(fcntl(closed, F_GETFD) == -1 && errno == EBADF)
        #expect(waitUntilReady(closed, for: POLLIN) == .failed(EBADF))
        #expect(waitUntilReady(closed, for: POLLOUT) == .failed(EBADF))
        var source = FileDescriptorSource(descriptor: closed, name: "stdin")
        var buffer = [UInt8](repeating: 0, count: 16)
        let error = try #require(throws: WireIOError.self) {
            try buffer.withUnsafeMutableBytes { _ = try source.read(into: $0) }
        }
        #expect(error.code == EBADF)
        #expect(!source.readWouldWait())
    }

    @Test func waitingToReadAPipeWhoseWriterLeftEndsTheInput() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        close(ends[1])
        // Linux's poll reports POLLHUP alone at a pipe's end, Darwin's POLLIN|POLLHUP (ready): either
        // way the wait ends at once, and the read that follows is the end of the input.
        let readiness = waitUntilReady(ends[0], for: POLLIN)
        #expect(readiness == .hungUp || readiness == .ready)
        var source = FileDescriptorSource(descriptor: ends[0], name: "stdin")
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        #expect(count == 0)
    }

    @Test func waitingToWriteAPipeWhoseReaderLeftFailsInsteadOfWaiting() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[1]) }
        close(ends[0])
        let readiness = waitUntilReady(ends[1], for: POLLOUT)
        // Linux says `POLLOUT | POLLERR` (writable: the write fails with `EPIPE`), macOS `POLLHUP`.
        #expect(readiness == .ready || readiness == .failed(EPIPE) || readiness == .failed(EIO))
    }
}
