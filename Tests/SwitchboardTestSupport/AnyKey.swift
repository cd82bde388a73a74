/// A coding key named by any string (it has no integer value): for test types that choose their
/// keys as they encode or decode.
public struct AnyKey: CodingKey, Hashable, Sendable {
    public let stringValue: String
    public var intValue: Int? { nil }

    /// The key named `stringValue`.
    public init(_ stringValue: String) { self.stringValue = stringValue }

    public init(stringValue: String) { self.stringValue = stringValue }

    /// Nil: the key has no integer form.
    public init?(intValue: Int) { nil }
}
