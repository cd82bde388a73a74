/// A value whose `encode(to:)` runs with a ``CountingEncoder`` around the encoder it is given.
struct CountedValue<T: Encodable>: Encodable {
    let value: T
    let tally: CallTally

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: CountingEncoder(inner: encoder, tally: tally))
    }
}
