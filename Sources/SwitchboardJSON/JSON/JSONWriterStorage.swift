/// The bytes of a ``JSONWriter``: one growable allocation the writer writes
/// into through a pointer, so a string or a number costs one capacity check
/// rather than one `Array.append` per piece.
///
/// Writers share a storage only until one of them writes (copy on write, as
/// `Array` does): `isKnownUniquelyReferenced` is checked once per write.
package final class JSONWriterStorage: @unchecked Sendable {
    // `@unchecked`: a storage is only mutated through a writer that holds the
    // only reference to it (the writer copies it first otherwise).

    /// The start of the allocation.
    private(set) var base: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    var count: Int
    /// Bytes allocated.
    private(set) var capacity: Int

    /// An empty storage with room for `capacity` bytes.
    init(capacity: Int) {
        self.capacity = max(16, capacity)
        self.base = .allocate(capacity: self.capacity)
        self.count = 0
    }

    /// A storage holding a copy of `bytes`, with room for at least `capacity` bytes.
    init(copying bytes: UnsafeBufferPointer<UInt8>, capacity: Int) {
        self.capacity = max(16, capacity, bytes.count)
        self.base = .allocate(capacity: self.capacity)
        self.count = bytes.count
        if let source = bytes.baseAddress, bytes.count > 0 {
            base.initialize(from: source, count: bytes.count)
        }
    }

    deinit {
        base.deallocate()
    }

    /// The bytes written, as a buffer valid while the storage is alive and unchanged.
    var written: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base, count: count)
    }

    /// A copy with the same bytes and room for `extra` more.
    func copy(adding extra: Int) -> JSONWriterStorage {
        JSONWriterStorage(copying: written, capacity: max(capacity, count + extra))
    }

    /// Grows the allocation to hold at least `extra` more bytes (at least doubling it).
    func grow(adding extra: Int) {
        let grown = max(capacity * 2, count + extra)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        fresh.initialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = grown
    }
}
