/// How many calls of each kind synthesized `Codable` code made on a decoder or an
/// encoder and its containers: counted on the real decoder and encoder, and on the
/// floor's (``ReplayDecoder``, ``DiscardEncoder``), which must make the same calls.
struct CallCounts: Equatable {
    /// `container(keyedBy:)` on a decoder or encoder.
    var keyedContainers = 0
    /// `nestedContainer(keyedBy:forKey:)` and `nestedContainer(keyedBy:)`.
    var nestedKeyedContainers = 0
    /// `unkeyedContainer()` and `nestedUnkeyedContainer(forKey:)` / `nestedUnkeyedContainer()`.
    var unkeyedContainers = 0
    /// `singleValueContainer()`.
    var singleValueContainers = 0
    /// `decode`/`encode` of `String`, `Int`, `Bool`, `Double` and the other scalar overloads.
    var scalars = 0
    /// `decodeIfPresent`/`encodeIfPresent` of the scalar overloads.
    var optionalScalars = 0
    /// The generic `decode<T>`/`decodeIfPresent<T>`/`encode<T>`/`encodeIfPresent<T>`.
    var generic = 0
    /// Of those, values of a type that is not a leaf (its own `init(from:)`/`encode(to:)` ran).
    var structured = 0
    /// `contains`, `decodeNil`, `isAtEnd`, `allKeys`, `encodeNil`, `superDecoder`/`superEncoder`.
    var other = 0

    /// Every call.
    var total: Int {
        keyedContainers + nestedKeyedContainers + unkeyedContainers + singleValueContainers + scalars
            + optionalScalars + generic + other
    }

    /// `containers k+n+u+s, scalars a+b (optional), generic g (structured t), other o`.
    var summary: String {
        "containers \(keyedContainers)+\(nestedKeyedContainers)+\(unkeyedContainers)+\(singleValueContainers), "
            + "scalars \(scalars)+\(optionalScalars) optional, generic \(generic) (\(structured) structured), "
            + "other \(other); \(total) in all"
    }

    static func + (left: CallCounts, right: CallCounts) -> CallCounts {
        CallCounts(
            keyedContainers: left.keyedContainers + right.keyedContainers,
            nestedKeyedContainers: left.nestedKeyedContainers + right.nestedKeyedContainers,
            unkeyedContainers: left.unkeyedContainers + right.unkeyedContainers,
            singleValueContainers: left.singleValueContainers + right.singleValueContainers,
            scalars: left.scalars + right.scalars, optionalScalars: left.optionalScalars + right.optionalScalars,
            generic: left.generic + right.generic, structured: left.structured + right.structured,
            other: left.other + right.other)
    }
}
