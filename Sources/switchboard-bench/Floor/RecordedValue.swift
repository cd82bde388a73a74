/// A value decoded by the real decoder through its own `init(from:)`, with a ``RecordingDecoder``
/// in between: what the recording forwards for a generic call of a type that is not a leaf.
struct RecordedValue<T: Decodable>: Decodable {
    let value: T

    init(from decoder: any Decoder) throws {
        guard let tape = ReplayDecoder.recording else { throw FloorMismatch(expected: "a recording") }
        value = try T(from: RecordingDecoder(real: decoder, tape: tape))
    }
}
