/// A recorded answer that is not of the type asked for: the replay is not the recording's.
struct FloorMismatch: Error, CustomStringConvertible {
    let expected: String

    var description: String { "the replay asked for a \(expected) where the recording has something else" }

    /// `value` as `T`, or this error.
    static func cast<T>(_ value: Any, _ type: T.Type) throws -> T {
        guard let typed = value as? T else { throw FloorMismatch(expected: "\(T.self)") }
        return typed
    }
}
