/// An array that ``StreamSink/write(_:)`` writes element by element itself: what the standard
/// library's `Array.encode(to:)` does (an unkeyed container, each element encoded in order),
/// without the unkeyed container and its protocol calls for each element.
///
/// `Array`'s `Encodable` conformance is the standard library's and cannot be replaced, so
/// writing its elements here gives exactly its bytes and its errors, for every element type.
protocol StreamArray {
    /// Writes the elements of the array at `pointer`, which must be of this type, into `sink` in order.
    static func writeElements(at pointer: UnsafeRawPointer, to sink: StreamSink) throws
}

extension Array: StreamArray where Element: Encodable {
    static func writeElements(at pointer: UnsafeRawPointer, to sink: StreamSink) throws {
        // `Self`, not `[Element]`: its metadata is at hand, the other's would be looked up.
        // The caller found this type as the value's own, so the memory is bound to it.
        try pointer.assumingMemoryBound(to: Self.self).pointee.withUnsafeBufferPointer { elements in
            guard let base = elements.baseAddress else { return }
            // Each element is lent in place (``StreamSink/write(element:)``): read through the
            // pointer, it would be copied first (every reference in it retained, then released).
            // The access is `inout` only in name: ``StreamSink/write(element:)`` and everything
            // it calls only read the element (it is passed on borrowed, never assigned), so the
            // array's buffer, which other arrays may share, is never written.
            let elementsInPlace = UnsafeMutablePointer(mutating: base)
            for index in 0..<elements.count {
                try sink.write(element: &elementsInPlace[index])
            }
        }
    }
}
