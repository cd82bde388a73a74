import Foundation
import Switchboard

/// The types the real decoder and encoder answer without the type's own `init(from:)` /
/// `encode(to:)` (`DecodingCore.isSpecial`, `EncodingStreamSink.write`): the floor treats them as
/// leaves too, answered (or discarded) whole, so it never makes more calls than the real one.
enum Leaf {
    /// Whether the real decoder decodes `T` itself (`DecodingCore.isSpecial`).
    @inline(__always)
    static func decodes<T>(_ type: T.Type) -> Bool {
        T.self == String.self || T.self == Int.self || T.self == Bool.self || T.self == Double.self
            || T.self == JSONValue.self || T.self == [String: JSONValue].self || T.self == [String: String].self
            || T.self == [JSONValue].self || T.self == Date.self || T.self == URL.self || T.self == Decimal.self
            || T.self == Float.self || T.self == Int64.self || T.self == Data.self || T.self == [String].self
    }

    /// Whether the real encoder writes `T` itself (`EncodingStreamSink.write`).
    @inline(__always)
    static func encodes<T>(_ type: T.Type) -> Bool {
        T.self == String.self || T.self == JSONValue.self || T.self == Int.self || T.self == Bool.self
            || T.self == Double.self || T.self == Float.self || T.self == [String].self || T.self == Date.self
            || T.self == URL.self || T.self == Decimal.self || T.self == Data.self
    }
}
