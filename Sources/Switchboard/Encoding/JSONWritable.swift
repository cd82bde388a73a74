/// A value that writes its own JSON text, byte for byte what its `Encodable`
/// conformance gives through ``BodyEncoder``, without the `Encoder` machinery.
///
/// ``BodyEncoder/encodeJSON(_:into:)`` (and so ``ReplyValue/jsonBytes()`` and
/// the `switchboard` CLI's replies) uses it when the value to encode adopts it;
/// Foundation trees and ``JSONValue`` still come from `encode(to:)`. Adopt it
/// for reply types on a hot path, and keep a test that compares the two
/// outputs: keys in the order `encode(to:)` encodes them, `nil` optionals
/// left out as `encodeIfPresent` does.
///
/// ```swift
/// extension Totals: JSONWritable {
///     public func writeJSON(to writer: inout JSONWriter) {
///         writer.beginObject()
///         writer.key("price"); writer.write(price)
///         if let oldPrice { writer.key("oldPrice"); writer.write(oldPrice) }
///         writer.endObject()
///     }
/// }
/// ```
public protocol JSONWritable: Encodable {
    /// Writes the value as one JSON value into `writer` (after a key, in an array, or at top level).
    func writeJSON(to writer: inout JSONWriter)
}
