/// Lends each element of an array to a closure in place, without copying it: reading an element
/// of an array (or of a buffer, around a call that may change memory) copies it, which for an
/// element holding references is a call through its value witnesses and a retain and release of
/// each. ``WirePipeline`` routes the lines read ahead this way (``WireReadAhead/Batch``).
package enum LentElements {
    /// Calls `body` with each element of `array`, in order, lent in place.
    ///
    /// Why this is sound: each element is moved out of `array`'s buffer (a bitwise move), lent
    /// to `body` as a local value, and moved back when `body` returns or throws,
    /// so `array` is whole again whatever happens, before anything else runs. The buffer is
    /// `array`'s own, held by `withUnsafeMutableBufferPointer` within this call's exclusive
    /// (`inout`) access to `array`: Swift's exclusivity rules forbid any other access to it
    /// meanwhile, `body`'s included (a compile-time error for a local variable, a run-time trap
    /// for a property or a global), so no one can see a slot while it is moved out. (A property
    /// marked `@exclusivity(unchecked)` must not be passed: nothing would check.)
    /// The pointer never leaves this function.
    @inline(__always)
    package static func forEach<Element, Failure: Error>(
        in array: inout [Element], _ body: (borrowing Element) throws(Failure) -> Void
    ) throws(Failure) {
        try array.withUnsafeMutableBufferPointer { buffer throws(Failure) in
            guard let base = buffer.baseAddress else { return }
            for index in 0..<buffer.count {
                let slot = base + index
                let element = slot.move()
                do throws(Failure) {
                    try body(element)
                } catch {
                    slot.initialize(to: consume element)
                    throw error
                }
                slot.initialize(to: consume element)
            }
        }
    }
}
