/// Each thread's spare stream sink, kept between encodes (so its buffers, and what it learnt of
/// the types it writes, are reused): the box stays in the thread's ``ThreadSpare`` slot for as
/// long as the thread lives (lent, never taken out), and the sink is taken out of the box while
/// an encode uses it, so an encode nested in a value's `encode(to:)` makes its own, and a sink
/// is only ever used on one thread. It is put back only when nothing else holds it (a value may
/// keep an encoder or a container, which refer to the sink) and the box is empty. No lock: the
/// box is reachable only from its own thread's slot, and what the sink holds of a value is
/// dropped by `finish()` before it is kept.
final class EncodingSinkBox {
    /// The sink kept for the next encode on this thread, if any.
    var sink: EncodingStreamSink?

    private static let slot = ThreadSpare<EncodingSinkBox>()

    /// The calling thread's box, made and kept in its slot on first use.
    static var current: EncodingSinkBox {
        if let box = slot.withSpare({ $0 }) { return box }
        let box = EncodingSinkBox()
        slot.keep(box)
        return box
    }
}
