import Foundation

// `BodyEncoder.encodeJSON` for any `Encodable`, written straight into a `JSONWriter`
// while `encode(to:)` runs, with no tree in between. It follows the usual way
// of encoding (what synthesised conformances do): containers used one after
// the other, each finished before its parent goes on. Anything else (a second
// container from one encoder, a parent used while a child is open or while the
// value it is writing has not opened its own, a container kept by a value and
// used where a container of the other kind is open, a key encoded twice, nested
// containers and super encoders, a value that cannot be encoded, values nested
// more than `BodyEncoder.maxDepth` deep, a question about the coding path) makes
// the stream give up, and the value is encoded through the tree encoder (`box`),
// which gives the same bytes or the error with its path. So the stream can only be
// faster, never different, with one exception that is still valid JSON: a
// container a value keeps and writes through while a later container of its kind
// is the innermost open one at its depth (a sibling's, say) writes into that one,
// as the stream's containers are their depth and kind (a keyed one is even handed
// out again for the next value, `EncodingStreamKeyedMaker`); the tree writes into the one
// it was made for.

/// The stream gave up: encode through the tree instead.
struct EncodingStreamFallback: Error {}

/// The state of one streamed encode: the bytes, and the open containers.
///
/// Each thread keeps the sink of its last encode for the next one (``BodyEncoder/encodeJSON(_:into:)``,
/// ``EncodingSinkBox``) when nothing else holds it (no encoder or container a value kept) and it is
/// small (``isWorthKeeping``), so its buffers are allocated once; a sink something else holds is
/// never used again once its encode is over.
///
/// `@exclusivity(unchecked)`: every access to these fields is a short one made by
/// this file's code, which calls no user code while it lasts (a value's
/// `encode(to:)` runs between accesses, never inside one), so no two can overlap,
/// and the run-time checks, made on every member written, would be pure cost.
final class EncodingStreamSink {
    /// One open container.
    struct Frame {
        /// Whether it is an object (else an array).
        var isObject: Bool
        /// Where its keys begin in ``keySpans``.
        var keyStart: Int
        /// A bit per key written into it (``keyBit(_:_:)``): a key whose bit is clear
        /// cannot be a repeat, so most keys skip the scan.
        var keyBits: UInt64
    }

    /// Where the escaped text of one key is in the writer's bytes (between its quotes).
    struct KeySpan {
        /// Where the key's bytes begin in the writer.
        var begin: Int
        /// Where they end (exclusive).
        var end: Int
    }

    @exclusivity(unchecked) var writer: JSONWriter
    /// The open containers but the innermost (``top``), innermost last.
    let frames = EncodingStreamStack<Frame>(capacity: 8)
    /// The innermost open container (a placeholder when none is open): kept out of
    /// ``frames`` because every member reads and updates it.
    @exclusivity(unchecked) private var top = Frame(isObject: false, keyStart: 0, keyBits: 0)
    /// The number of open containers.
    @exclusivity(unchecked) private(set) var level = 0
    /// Which container may write now: `2 * n + 1` for an object, `2 * n` for an array, where `n`
    /// is the number of containers open below it (a container's `level`); negative when none may:
    /// `-2` when none is open, `-1` while the innermost one waits for the value being written into
    /// it (``write(_:)``) to open its own container or write itself. A container writes only when
    /// this is its own number, so a container a value kept never writes into a container of the
    /// other kind (a key into an array), nor between a key and its value; the nested containers
    /// (which make the stream give up) have level `-2`, so they never write.
    @exclusivity(unchecked) private var writable = -2
    /// The number of values being written one inside another through their `encode(to:)` (or as
    /// arrays); past ``BodyEncoder/maxDepth`` the stream gives up and the tree reports the path.
    @exclusivity(unchecked) private var depth = 0
    /// The keys written into the open objects, in order. A key repeats another exactly when
    /// their escaped texts are the same bytes (escaping is one-to-one), so no `String` is
    /// kept or compared.
    let keySpans = EncodingStreamStack<KeySpan>(capacity: 32)
    /// The keys of each open object with more than ``indexedKeys`` members, outermost first, in
    /// the first ``openKeyIndexes`` (see ``EncodingStreamKeyIndex``); the others are kept for reuse.
    private var keyIndexes: [EncodingStreamKeyIndex] = []
    /// The number of open objects with more than ``indexedKeys`` members.
    @exclusivity(unchecked) private var openKeyIndexes = 0
    /// Where the keys of the innermost of them begin in ``keySpans`` (`-1` when there is none):
    /// no other open container begins there (it has at least ``indexedKeys`` keys before any
    /// container inside it), so a container that closes with this start closes that index.
    @exclusivity(unchecked) private var indexedKeyStart = -1
    /// The number of members past which an object's keys are found through its key index rather
    /// than by a scan.
    static let indexedKeys = 32
    /// An encoder whose value is done and that nothing else holds, for the next value
    /// (see ``write(_:)``); dropped when the encode is over.
    @exclusivity(unchecked) var spare: EncodingStream?
    /// Set where the `Encoder` API cannot throw; the encode is redone through the tree.
    @exclusivity(unchecked) var failed = false
    /// Set once the encode is over: an encoder or container a value kept is still safe
    /// to use, and what it writes goes nowhere (as with the tree encoder).
    @exclusivity(unchecked) var finished = false
    /// The types ``write(_:)`` has looked up, and which of them are arrays it writes itself.
    let shapes = EncodingStreamShapes()

    /// A sink with a placeholder writer: the caller swaps its writer in and out
    /// (``BodyEncoder/encodeJSON(_:into:)``), so the bytes go straight where they belong.
    init() {
        writer = JSONWriter(capacity: 0)
    }

    /// Makes a sink whose last encode is over ready for the next (nothing else holds it).
    func restart() {
        frames.removeAll(from: 0)
        keySpans.removeAll(from: 0)
        while openKeyIndexes > 0 { closeKeyIndex() }
        level = 0
        writable = -2
        depth = 0
        top = Frame(isObject: false, keyStart: 0, keyBits: 0)
        failed = false
        finished = false
    }

    /// Whether the sink is small enough to keep for the next encode on its thread: one huge value
    /// (thousands of levels, or of keys in one object) does not keep its stacks for as long as the
    /// thread lives.
    var isWorthKeeping: Bool {
        frames.capacity <= 1024 && keySpans.capacity <= 4096 && keyIndexes.count <= 16
    }

    /// Ends an encode: an encoder or container a value kept writes nothing from now on, and the
    /// sink drops what it holds for reuse within an encode (which holds the sink itself).
    func finish() {
        finished = true
        spare = nil
        shapes.forgetContainers()
    }

    func push(object: Bool) {
        if object { writer.beginObject() } else { writer.beginArray() }
        frames.append(top)
        top = Frame(isObject: object, keyStart: keySpans.count, keyBits: 0)
        writable = level &* 2 &+ (object ? 1 : 0)
        level &+= 1
    }

    /// Closes the containers above `level` (the number that stays open); the innermost open
    /// one may write again.
    func close(to level: Int) {
        while self.level > level {
            if top.isObject { writer.endObject() } else { writer.endArray() }
            if _slowPath(top.keyStart == indexedKeyStart) { closeKeyIndex() }
            keySpans.removeAll(from: top.keyStart)
            top = frames.removeLast()
            self.level &-= 1
        }
        // `-2` when none is open (the placeholder frame is no object).
        writable = (self.level &- 1) &* 2 &+ (top.isObject ? 1 : 0)
    }

    /// Counts a value written inside the ones being written; throws past ``BodyEncoder/maxDepth``.
    @inline(__always)
    private func enter() throws {
        depth &+= 1
        if _slowPath(depth > BodyEncoder.maxDepth) { throw giveUp() }
    }

    /// Writes `key` into the innermost object, which must be the container at `level`
    /// (`level` open containers below it); throws when the stream cannot follow (a
    /// repeated key: what was written then goes, as the whole stream does).
    @inline(__always)
    func key(_ key: String, level: Int) throws {
        guard let begin = try memberBegin(level: level) else { return }
        writer.key(key)
        try note(begin, writer.byteCount &- 2)  // before `":`
    }

    /// Writes `key` and a string `value` into the innermost object as one member (see ``key(_:level:)``).
    @inline(__always)
    func member(_ key: String, _ value: String, level: Int) throws {
        guard let begin = try memberBegin(level: level) else { return }
        try note(begin, writer.member(key, value))
    }

    /// Writes `key` and an integer `value` into the innermost object as one member (see ``key(_:level:)``).
    @inline(__always)
    func member(_ key: String, _ value: Int, level: Int) throws {
        guard let begin = try memberBegin(level: level) else { return }
        try note(begin, writer.member(key, value))
    }

    /// Where the next member's key text will begin (``keyBegin()``), when the object at
    /// `level` may write one: `nil` once the encode is over (nothing is written), and
    /// a throw when it may not write now (``writable``).
    @inline(__always)
    private func memberBegin(level: Int) throws -> Int? {
        if finished { return nil }
        guard writable == level &* 2 &+ 1 else { throw giveUp() }
        return keyBegin()
    }

    /// Where the text of the next key of the innermost object begins: after its quote, and
    /// after a comma unless it is the object's first key.
    @inline(__always)
    private func keyBegin() -> Int {
        writer.byteCount &+ (keySpans.count > top.keyStart ? 2 : 1)
    }

    /// Notes the key just written at `begin..<end` into the innermost object; throws when it repeats one.
    @inline(__always)
    private func note(_ begin: Int, _ end: Int) throws {
        let bit = keyBit(begin, end)
        let members = keySpans.count &- top.keyStart
        if _slowPath(members >= EncodingStreamSink.indexedKeys) { return try noteIndexed(begin, end, members: members) }
        if top.keyBits & bit != 0, isRepeat(begin, end, from: top.keyStart) { throw giveUp() }
        top.keyBits |= bit
        keySpans.append(KeySpan(begin: begin, end: end))
    }

    /// Empties and lets go the key index of the innermost object that has one (it is closed).
    @inline(never)
    private func closeKeyIndex() {
        openKeyIndexes &-= 1
        keyIndexes[openKeyIndexes].removeAll()
        indexedKeyStart = openKeyIndexes > 0 ? keyIndexes[openKeyIndexes &- 1].keyStart : -1
    }

    /// ``note(_:_:)`` for an object with `members` keys, at least ``indexedKeys``: found through
    /// its key index (made, with the object's first keys, when `members` is exactly that).
    private func noteIndexed(_ begin: Int, _ end: Int, members: Int) throws {
        let base = writer.storage.base
        if members == EncodingStreamSink.indexedKeys {
            if openKeyIndexes == keyIndexes.count { keyIndexes.append(EncodingStreamKeyIndex()) }
            openKeyIndexes &+= 1
            let keyIndex = keyIndexes[openKeyIndexes &- 1]
            keyIndex.keyStart = top.keyStart
            indexedKeyStart = top.keyStart
            for position in top.keyStart..<keySpans.count {
                let span = keySpans[position]
                let bytes = UnsafeRawBufferPointer(start: base + span.begin, count: span.end &- span.begin)
                keyIndex.insert(position: position, hash: EncodingStreamKeyIndex.hash(bytes))
            }
        }
        let length = end &- begin
        let hash = EncodingStreamKeyIndex.hash(UnsafeRawBufferPointer(start: base + begin, count: length))
        let start = top.keyStart
        let spans = keySpans
        let keyIndex = keyIndexes[openKeyIndexes &- 1]
        let repeated = keyIndex.contains(hash: hash) { position in
            guard position >= start, position < spans.count else { return false }
            let other = spans[position]
            return other.end &- other.begin == length && memcmp(base + other.begin, base + begin, length) == 0
        }
        if repeated { throw giveUp() }
        keyIndex.insert(position: keySpans.count, hash: hash)
        keySpans.append(KeySpan(begin: begin, end: end))
    }

    /// The escaped key at `begin..<end` reduced to one bit of 64: from its length and its
    /// first, second and last bytes, so keys of one length rarely share a bit.
    @inline(__always)
    private func keyBit(_ begin: Int, _ end: Int) -> UInt64 {
        let length = end &- begin
        guard length > 1 else { return 1 &<< UInt64(truncatingIfNeeded: length) }
        let bytes = writer.storage.base
        let mix = length &* 7 &+ Int(bytes[begin]) &* 5 &+ Int(bytes[begin &+ 1]) &* 11 &+ Int(bytes[end &- 1]) &* 3
        return 1 &<< UInt64(truncatingIfNeeded: mix & 63)
    }

    /// Whether the key just written at `begin..<end` repeats one of the spans from `start` on.
    private func isRepeat(_ begin: Int, _ end: Int, from start: Int) -> Bool {
        let length = end &- begin
        let base = writer.storage.base
        return keySpans.withElements { spans in
            var index = start
            while index < spans.count {
                let other = spans[index]
                if other.end &- other.begin == length, memcmp(base + other.begin, base + begin, length) == 0 {
                    return true
                }
                index &+= 1
            }
            return false
        }
    }

    /// Checks that the array at `level` may write an element now (``writable``).
    @inline(__always)
    func element(level: Int) throws {
        if finished { return }
        guard writable == level &* 2 else { throw giveUp() }
    }

    /// Marks the stream failed (so a caller that catches the error cannot go on) and returns the error.
    func giveUp() -> EncodingStreamFallback {
        failed = true
        return EncodingStreamFallback()
    }

    /// Writes one value: the scalars and the types the tree encoder treats specially
    /// directly, arrays element by element (``EncodingStreamArray``), anything else through its
    /// `encode(to:)` with a new encoder.
    func write<T: Encodable>(_ value: T) throws {
        // `T` is checked first, so each cast below is of a value to its own type.
        let type = T.self
        if type == String.self { return writer.write(EncodingStreamSink.identity(value, as: String.self)) }
        if type == JSONValue.self { return writer.write(EncodingStreamSink.identity(value, as: JSONValue.self)) }
        if type == Int.self { return writer.write(EncodingStreamSink.identity(value, as: Int.self)) }
        if type == Bool.self { return writer.write(EncodingStreamSink.identity(value, as: Bool.self)) }
        if type == Double.self { return try write(EncodingStreamSink.identity(value, as: Double.self)) }
        if type == Float.self { return try write(EncodingStreamSink.identity(value, as: Float.self)) }
        if type == [String].self {
            // Counted as the tree counts it (a value it encodes through `encode(to:)`).
            if _slowPath(depth >= BodyEncoder.maxDepth) { throw giveUp() }
            writer.beginArray()
            for string in EncodingStreamSink.identity(value, as: [String].self) { writer.write(string) }
            writer.endArray()
            return
        }
        if type == Date.self || type == URL.self
            || type == Decimal.self || type == Data.self
        {
            // The tree's own boxing; an error sends the value to the tree, which reports it with its path.
            guard let node = try? box(value, state: EncodingState(), parent: nil, key: nil) else { throw giveUp() }
            node.write(to: &writer)
            return
        }
        let level = self.level
        try enter()
        if let array = shapes.arrayType(of: type) {
            // What the standard library's `Array.encode(to:)` does, without its unkeyed container.
            push(object: false)
            try withUnsafePointer(to: value) { try array.writeElements(at: UnsafeRawPointer($0), to: self) }
            close(to: level)
            depth &-= 1
            return
        }
        var encoder: EncodingStream
        if let spare {
            self.spare = nil
            encoder = spare
        } else {
            encoder = EncodingStream(sink: self)
        }
        // The container the value is written into waits for it: no container writes until the
        // value opens its own (which it may write into) or is done.
        writable = -1
        do {
            try value.encode(to: encoder)
        } catch {
            throw giveUp()
        }
        if failed { throw giveUp() }
        if !encoder.used {
            // As the tree: a value that encodes nothing is an empty object.
            writer.beginObject()
            writer.endObject()
        }
        close(to: level)
        depth &-= 1
        // Nothing kept this encoder (containers hold the sink, not it): the next value may have it.
        if isKnownUniquelyReferenced(&encoder) {
            encoder.used = false
            spare = encoder
        } else {
            // Kept by the value: its value is written, so any later use (while a sibling is
            // written, say) makes the stream give up rather than write there.
            encoder.used = true
        }
    }

    /// Writes an element of an array (``EncodingStreamArray``), lent in place: ``write(_:)`` borrows it
    /// from here without copying it, which it cannot do from memory read through a pointer.
    /// `element` is never changed.
    func write<T: Encodable>(element: inout T) throws {
        try write(element)
    }

    /// `value` as `U`, which must be its own type `T` (checked by the caller): no dynamic cast.
    @inline(__always)
    static func identity<T, U>(_ value: T, as type: U.Type) -> U {
        assert(T.self == U.self, "EncodingStreamSink.identity given another type")
        return unsafeBitCast(value, to: U.self)
    }

    /// Writes a `Double`; a non-finite one makes the stream give up (the tree reports it with its path).
    @inline(__always)
    func write(_ value: Double) throws {
        do { try writer.write(value) } catch { throw giveUp() }
    }

    /// Writes a `Float`; a non-finite one makes the stream give up (the tree reports it with its path).
    @inline(__always)
    func write(_ value: Float) throws {
        do { try writer.write(value) } catch { throw giveUp() }
    }

    /// Writes an integer of any width.
    @inline(__always)
    func write<T: BinaryInteger>(integer value: T) {
        writer.write(value)
    }
}

/// An array that ``EncodingStreamSink/write(_:)`` writes element by element itself: what the standard
/// library's `Array.encode(to:)` does (an unkeyed container, each element encoded in order),
/// without the unkeyed container and its protocol calls for each element.
///
/// `Array`'s `Encodable` conformance is the standard library's and cannot be replaced, so
/// writing its elements here gives exactly its bytes and its errors, for every element type.
protocol EncodingStreamArray {
    /// Writes the elements of the array at `pointer`, which must be of this type, into `sink` in order.
    static func writeElements(at pointer: UnsafeRawPointer, to sink: EncodingStreamSink) throws
}

extension Array: EncodingStreamArray where Element: Encodable {
    static func writeElements(at pointer: UnsafeRawPointer, to sink: EncodingStreamSink) throws {
        // `Self`, not `[Element]`: its metadata is at hand, the other's would be looked up.
        // The caller found this type as the value's own, so the memory is bound to it.
        try pointer.assumingMemoryBound(to: Self.self).pointee.withUnsafeBufferPointer { elements in
            guard let base = elements.baseAddress else { return }
            // Each element is lent in place (``EncodingStreamSink/write(element:)``): read through the
            // pointer, it would be copied first (every reference in it retained, then released).
            // The access is `inout` only in name: ``EncodingStreamSink/write(element:)`` and everything
            // it calls only read the element (it is passed on borrowed, never assigned), so the
            // array's buffer, which other arrays may share, is never written.
            let elementsInPlace = UnsafeMutablePointer(mutating: base)
            for index in 0..<elements.count {
                try sink.write(element: &elementsInPlace[index])
            }
        }
    }
}

/// A growable stack of plain values for ``EncodingStreamSink``: its open containers and the spans of
/// their keys, pushed and read once or more per member, without the uniqueness check and
/// copy-on-write of an `Array` in a class.
///
/// Lifetime: the buffer is allocated by `init` and only replaced by `grow` (which frees the old
/// one after copying it) and freed by `deinit`; a stack is a final class that no code outside
/// this file reaches into, and its `Element`s are trivial (no references), so no pointer to
/// the buffer outlives the call that made it and nothing needs deinitialising.
final class EncodingStreamStack<Element: BitwiseCopyable> {
    private var base: UnsafeMutablePointer<Element>
    /// The number of elements the buffer holds without growing.
    private(set) var capacity: Int
    /// The number of elements.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 4)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The element at `index` (which must be below ``count``).
    subscript(index: Int) -> Element {
        @inline(__always) get {
            precondition(index >= 0 && index < count, "EncodingStreamStack index out of range")
            return base[index]
        }
        @inline(__always) set {
            precondition(index >= 0 && index < count, "EncodingStreamStack index out of range")
            base[index] = newValue
        }
    }

    @inline(__always)
    func append(_ element: Element) {
        if _slowPath(count == capacity) { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    /// Removes and returns the last element (the stack must not be empty).
    @inline(__always)
    func removeLast() -> Element {
        precondition(count > 0, "EncodingStreamStack is empty")
        count &-= 1
        return base[count]
    }

    /// Drops the elements from `index` on.
    @inline(__always)
    func removeAll(from index: Int) {
        if index >= 0 && index < count { count = index }
    }

    /// Calls `body` with the elements (valid only during the call).
    @inline(__always)
    func withElements<Result>(_ body: (UnsafeBufferPointer<Element>) -> Result) -> Result {
        body(UnsafeBufferPointer(start: base, count: count))
    }

    private func grow() {
        let grown = capacity &* 2
        let fresh = UnsafeMutablePointer<Element>.allocate(capacity: grown)
        fresh.initialize(from: base, count: count)
        base.deallocate()
        base = fresh
        capacity = grown
    }
}

/// What a ``EncodingStreamSink`` has found out about the types it writes, kept because the run time's
/// look-ups cost far more than finding a type again in these short lists: the value types
/// written through ``EncodingStreamSink/write(_:)``, each with whether it is an array the sink writes
/// itself (``EncodingStreamArray``), and a ``EncodingStreamKeyedMaker`` for each key type.
final class EncodingStreamShapes {
    /// One type, and its `EncodingStreamArray` conformance when it has one.
    struct Entry {
        /// The value type.
        var type: ObjectIdentifier
        /// Its `EncodingStreamArray` conformance, when it is an `Array` of `Encodable` elements.
        var array: (any EncodingStreamArray.Type)?
    }

    /// The most types kept; past them the list starts again.
    static let limit = 16

    private let entries = EncodingStreamStack<Entry>(capacity: EncodingStreamShapes.limit)

    /// `type` as a ``EncodingStreamArray`` when it is one (an `Array` of `Encodable` elements), else `nil`.
    @inline(__always)
    func arrayType<T>(of type: T.Type) -> (any EncodingStreamArray.Type)? {
        let identifier = ObjectIdentifier(type)
        let found = entries.withElements { entries -> Entry? in
            for entry in entries where entry.type == identifier { return entry }
            return nil
        }
        if let found { return found.array }
        return add(type)
    }

    private func add<T>(_ type: T.Type) -> (any EncodingStreamArray.Type)? {
        let array = type as? any EncodingStreamArray.Type
        if entries.count >= EncodingStreamShapes.limit { entries.removeAll(from: 0) }
        entries.append(Entry(type: ObjectIdentifier(type), array: array))
        return array
    }

    /// The key types that have a maker of their containers, in the order of ``makers``.
    private let makerKeys = EncodingStreamStack<ObjectIdentifier>(capacity: EncodingStreamShapes.limit)
    /// The maker of each key type in ``makerKeys``: the ``EncodingStreamKeyedMakerOf`` that `Key` (``add(_:for:)``
    /// and ``maker(for:)`` pair the two by type).
    @exclusivity(unchecked) private var makers: [EncodingStreamKeyedMakerBase] = []

    /// The maker listed for the key type `Key` (see ``EncodingStream/container(keyedBy:)``).
    @inline(__always)
    func maker<Key: CodingKey>(for key: Key.Type) -> EncodingStreamKeyedMakerOf<Key>? {
        let identifier = ObjectIdentifier(key)
        guard let index = makerKeys.withElements({ $0.firstIndex(of: identifier) }) else { return nil }
        // Listed for `Key` by `add(_:for:)`, whose signature makes it this type.
        return unsafeDowncast(makers[index], to: EncodingStreamKeyedMakerOf<Key>.self)
    }

    /// Makes every maker drop the container it keeps for reuse (see ``EncodingStreamKeyedMaker``).
    func forgetContainers() {
        for maker in makers { maker.forget() }
    }

    /// Lists `maker` for the key type `Key`.
    func add<Key: CodingKey>(_ maker: EncodingStreamKeyedMakerOf<Key>, for key: Key.Type) {
        if makerKeys.count >= EncodingStreamShapes.limit {
            makerKeys.removeAll(from: 0)
            makers.removeAll(keepingCapacity: true)
        }
        makerKeys.append(ObjectIdentifier(key))
        makers.append(maker)
    }
}
