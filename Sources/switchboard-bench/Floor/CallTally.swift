import Switchboard

/// The counts a ``CountingEncoder`` and its containers add to.
final class CallTally {
    var counts = CallCounts()

    /// Counts one generic value; returns it wrapped as a ``CountedValue`` when it is not a
    /// leaf (so its own `encode(to:)` is counted), `nil` when it is (forward it as it is).
    func generic<T: Encodable>(_ value: T) -> CountedValue<T>? {
        counts.generic += 1
        if Leaf.encodes(T.self) { return nil }
        counts.structured += 1
        return CountedValue(value: value, tally: self)
    }
}
