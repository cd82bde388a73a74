/// A type that can read itself straight off a byte tape, without `Decodable`'s
/// containers, when the body is exactly what it expects.
///
/// This is the decoding twin of ``JSONWritable``: a fast path, never a second
/// set of rules. A conformance reads only what its synthesised `init(from:)`
/// would read, and on anything else (a missing key, a wrong type, a number
/// that is not a plain integer, …) throws ``TapeMiss``; ``BodyDecoder`` then
/// decodes the same body through `Decodable`, which gives the value or the
/// exact error with its key path. So a conformance can only make a decode
/// faster, never different.
///
/// Containers a conformance opens must nest fewer than ``BodyDecoder/tapeFastPathDepth``
/// levels deep (the fast path runs only when `maxDepth` is larger).
package protocol TapeDecodable {
    /// Reads the value from the object `object`; throws ``TapeMiss`` for anything unexpected.
    init(tape object: inout TapeObjectReader) throws(TapeMiss)
}

/// "Not the happy path": the fast path gives up and `Decodable` decodes instead.
package struct TapeMiss: Error {
    package init() {}
}
