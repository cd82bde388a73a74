import Switchboard

#if canImport(Testing)
    import Testing
#endif
#if canImport(XCTest)
    import XCTest
#endif

/// One test failure the ``StrictHarness`` found, with the place in the test it belongs to.
public struct HarnessFailure: Sendable, CustomStringConvertible {
    /// What went wrong, in a sentence that names the channel.
    public let message: String
    /// `#fileID` of the call that found it.
    public let fileID: StaticString
    /// `#filePath` of the call that found it.
    public let filePath: StaticString
    /// `#line` of the call that found it.
    public let line: UInt
    /// `#column` of the call that found it.
    public let column: UInt

    /// Creates a failure.
    package init(
        _ message: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
        line: UInt = #line, column: UInt = #column
    ) {
        self.message = message
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// The message.
    public var description: String { message }
}

/// Where a ``StrictHarness`` sends its failures.
///
/// ``automatic`` records a Swift Testing issue when a Swift Testing test is
/// running, and calls `XCTFail` otherwise. Tests of test helpers inject
/// ``capturing(into:)`` to assert on the failures instead.
public struct FailureReporter: Sendable {
    private let body: @Sendable (HarnessFailure) -> Void

    /// Creates a reporter from a closure.
    public init(_ report: @escaping @Sendable (HarnessFailure) -> Void) {
        body = report
    }

    /// Reports one failure.
    public func report(_ failure: HarnessFailure) {
        body(failure)
    }

    /// Swift Testing's `Issue.record` inside a Swift Testing test, else `XCTFail`.
    public static let automatic = FailureReporter { failure in
        #if canImport(Testing)
            if Test.current != nil {
                Issue.record(
                    Comment(rawValue: failure.message),
                    sourceLocation: SourceLocation(
                        fileID: "\(failure.fileID)", filePath: "\(failure.filePath)",
                        line: Int(failure.line), column: Int(failure.column)))
                return
            }
        #endif
        #if canImport(XCTest)
            XCTFail(failure.message, file: failure.filePath, line: failure.line)
        #else
            print("error: \(failure.filePath):\(failure.line): \(failure.message)")
        #endif
    }

    /// A reporter that appends every failure to `log` and fails nothing.
    public static func capturing(into log: FailureLog) -> FailureReporter {
        FailureReporter { log.append($0) }
    }
}

/// The failures a ``FailureReporter/capturing(into:)`` reporter collected.
public final class FailureLog: Sendable {
    private let storage = Locked<[HarnessFailure]>([])

    /// Creates an empty log.
    public init() {}

    /// Adds a failure.
    public func append(_ failure: HarnessFailure) {
        storage.withLock { $0.append(failure) }
    }

    /// The failures, in the order they were reported.
    public var failures: [HarnessFailure] { storage.withLock { $0 } }

    /// The failures' messages, in order.
    public var messages: [String] { failures.map(\.message) }

    /// Forgets the failures collected so far.
    public func removeAll() {
        storage.withLock { $0.removeAll() }
    }
}
