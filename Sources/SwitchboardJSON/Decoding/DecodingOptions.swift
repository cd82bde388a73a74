import Foundation

/// Options for ``BodyDecoder``.
public struct DecodingOptions: Sendable, Hashable {
    /// When `true`, numeric strings decode as numbers (`"42"` as `Int`, `"2.5"` as
    /// `Double`) and `"true"`/`"false"` as `Bool`. Off by default.
    public var lenient: Bool
    /// The deepest nesting of arrays and objects accepted. Deeper input fails with
    /// `DecodingError.dataCorrupted` at the container that goes one level too deep,
    /// before the decoder recurses into it.
    ///
    /// From 0 to ``maxDepthCeiling``: a value set outside is set to the nearer end, so that
    /// no setting lets input nest deeper than a thread's stack can take.
    public var maxDepth: Int {
        get { depthLimit }
        set { depthLimit = DecodingOptions.clampedDepth(newValue) }
    }

    /// ``maxDepth``'s storage, within `0 ... maxDepthCeiling`.
    private(set) var depthLimit: Int

    /// The deepest nesting any setting of ``maxDepth`` (or of ``JSONReader/maxDepth``,
    /// or `MessageBody(jsonBytes:maxDepth:)`'s) lets through: 5,000 levels. Some operations
    /// recurse once per level (building and releasing a ``JSONValue``, and
    /// a recursive `Decodable`'s own `init(from:)`); at this depth the library's own fit in
    /// about 4 MiB of stack in a debug build, half of a main thread's. (A value at the default
    /// of 512 fits in a 512 KiB secondary thread.)
    public static let maxDepthCeiling = 5_000

    /// The nesting limit every reader, decoder and encoder of the package uses unless told
    /// otherwise: 512 levels, deeper than any real message.
    public static let defaultMaxDepth = 512

    /// `depth` within `0 ... maxDepthCeiling`.
    static func clampedDepth(_ depth: Int) -> Int {
        min(max(0, depth), maxDepthCeiling)
    }

    /// Creates options.
    /// - Parameters:
    ///   - lenient: whether numeric strings and `"true"`/`"false"` decode as numbers and booleans.
    ///   - maxDepth: the deepest nesting of arrays and objects accepted (within `0 ... maxDepthCeiling`).
    public init(lenient: Bool = false, maxDepth: Int = DecodingOptions.defaultMaxDepth) {
        self.lenient = lenient
        self.depthLimit = DecodingOptions.clampedDepth(maxDepth)
    }

    /// The default options with ``lenient-swift.property`` switched on.
    public static var lenient: DecodingOptions { DecodingOptions(lenient: true) }
}
