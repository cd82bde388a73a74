import Foundation

/// A value that could not be encoded (a non-finite number, for example).
public struct BodyEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, and where: `reply.totals.price: cannot encode non-finite number nan`.
    public let message: String
    /// The coding path of the problem, e.g. `reply.lines[2].price` (empty when unknown).
    public let path: String
    /// What went wrong, without the path, e.g. `cannot encode non-finite number nan`.
    public let reason: String

    /// Creates an error from a whole message.
    /// - Parameter message: what went wrong and where.
    package init(message: String) {
        self.message = message
        self.path = ""
        self.reason = message
    }

    /// Creates an error from a path and a reason.
    /// - Parameters:
    ///   - path: the coding path, e.g. `reply.totals.price`.
    ///   - reason: what went wrong.
    package init(path: String, reason: String) {
        self.message = path.isEmpty ? reason : "\(path): \(reason)"
        self.path = path
        self.reason = reason
    }

    /// The message.
    public var description: String { message }

    init(from error: any Error, rootName: String) {
        switch error {
        case let error as EncodingPathError:
            self.init(path: render(error.path, rootName: rootName), reason: error.reason)
        case let error as EncodingError:
            if case .invalidValue(_, let context) = error {
                let path = context.codingPath.map(EncodingPathSegment.init)
                self.init(path: render(path, rootName: rootName), reason: context.debugDescription)
            } else {
                self.init(path: rootName, reason: "\(error)")
            }
        default:
            self.init(path: rootName, reason: "\(error)")
        }
    }
}
