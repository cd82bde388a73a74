/// Why a file is not a contract document.
public struct ContractDocumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public let message: String

    /// Creates an error.
    /// - Parameter message: what is wrong.
    package init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
