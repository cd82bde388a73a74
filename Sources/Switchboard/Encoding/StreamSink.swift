import Foundation

// `BodyEncoder.encodeJSON` for any `Encodable`, written straight into a `JSONWriter`
// while `encode(to:)` runs, with no tree in between. It follows the usual way
// of encoding (what synthesised conformances do): containers used one after
// the other, each finished before its parent goes on. Anything else (a second
// container from one encoder, a parent used while a child is open, a key
// encoded twice, nested containers and super encoders, a value that cannot be
// encoded, a question about the coding path) makes the stream give up, and the
// value is encoded through the tree encoder (`box`), which gives the same bytes
// or the error with its path. So the stream can only be faster, never different.

/// The stream gave up: encode through the tree instead.
struct StreamFallback: Error {}

/// The state of one streamed encode: the bytes, and the open containers.
///
/// A writer keeps the sink of its last encode for the next one (``JSONWriter/takeStreamSink()``)
/// when nothing else holds it (no encoder or container a value kept), so its buffers are
/// allocated once; a sink something else holds is never used again once its encode is over.
///
/// `@exclusivity(unchecked)`: every access to these fields is a short one made by
/// this file's code, which calls no user code while it lasts (a value's
/// `encode(to:)` runs between accesses, never inside one), so no two can overlap;
/// the run-time checks cost a fifth of the CLI's instructions.
final class StreamSink {
    /// One open container.
    struct Frame {
        /// Whether it is an object (else an array).
        var isObject: Bool
        /// Where its keys begin in ``keySpans``.
        var keyStart: Int
        /// A bit per key written into it (``keySignature(_:_:)`` modulo 64): a key whose
        /// bit is clear cannot be a repeat, so most keys skip the scan.
        var keyBits: UInt64
    }

    @exclusivity(unchecked) var writer: JSONWriter
    /// The open containers, innermost last.
    let frames = StreamStack<Frame>(capacity: 8)
    /// Where the keys written into the open objects are in the writer's bytes, in order:
    /// two offsets per key, the first byte of its escaped text and the byte after it
    /// (between its quotes). A key repeats another exactly when their escaped texts are
    /// the same bytes (escaping is one-to-one), so no `String` is kept or compared.
    let keySpans = StreamStack<Int>(capacity: 64)
    /// An encoder whose value is done and that nothing else holds, for the next value
    /// (see ``write(_:)``); dropped when the encode is over.
    @exclusivity(unchecked) var spare: StreamEncoder?
    /// Set where the `Encoder` API cannot throw; the encode is redone through the tree.
    @exclusivity(unchecked) var failed = false
    /// Set once the encode is over: an encoder or container a value kept is still safe
    /// to use, and what it writes goes nowhere (as with the tree encoder).
    @exclusivity(unchecked) var finished = false

    /// A sink with a placeholder writer: the caller swaps its writer in and out
    /// (``BodyEncoder/encodeJSON(_:into:)``), so the bytes go straight where they belong.
    init() {
        writer = JSONWriter(capacity: 0)
    }

    /// Makes a sink whose last encode is over ready for the next (nothing else holds it).
    func restart() {
        frames.removeAll(from: 0)
        keySpans.removeAll(from: 0)
        failed = false
        finished = false
    }

    /// The number of open containers.
    var level: Int {
        @inline(__always) get { frames.count }
    }

    func push(object: Bool) {
        if object { writer.beginObject() } else { writer.beginArray() }
        frames.append(Frame(isObject: object, keyStart: keySpans.count, keyBits: 0))
    }

    /// Closes the containers above `level` (the number that stays open).
    func close(to level: Int) {
        while frames.count > level {
            let frame = frames.removeLast()
            if frame.isObject { writer.endObject() } else { writer.endArray() }
            keySpans.removeAll(from: frame.keyStart)
        }
    }

    /// Writes `key` into the innermost object, which must be the container at `level`
    /// (`level` open containers below it); throws when the stream cannot follow (a
    /// repeated key: what was written then goes, as the whole stream does).
    @inline(__always)
    func key(_ key: String, level: Int) throws {
        if finished { return }
        guard frames.count == level &+ 1 else { throw giveUp() }
        let frame = frames[level]
        let begin = keyBegin(frame)
        writer.key(key)
        try note(begin, writer.byteCount &- 2, level: level, frame: frame)  // before `":`
    }

    /// Writes `key` and a string `value` into the innermost object as one member (see ``key(_:level:)``).
    @inline(__always)
    func member(_ key: String, _ value: String, level: Int) throws {
        if finished { return }
        guard frames.count == level &+ 1 else { throw giveUp() }
        let frame = frames[level]
        let begin = keyBegin(frame)
        let end = writer.member(key, value)
        try note(begin, end, level: level, frame: frame)
    }

    /// Writes `key` and an integer `value` into the innermost object as one member (see ``key(_:level:)``).
    @inline(__always)
    func member(_ key: String, _ value: Int, level: Int) throws {
        if finished { return }
        guard frames.count == level &+ 1 else { throw giveUp() }
        let frame = frames[level]
        let begin = keyBegin(frame)
        let end = writer.member(key, value)
        try note(begin, end, level: level, frame: frame)
    }

    /// Where the text of the next key of the object `frame` begins: after its quote, and after a
    /// comma unless it is the object's first key.
    @inline(__always)
    private func keyBegin(_ frame: Frame) -> Int {
        writer.byteCount &+ (keySpans.count > frame.keyStart ? 2 : 1)
    }

    /// Notes the key just written at `begin..<end` into the object at `level`; throws when it repeats one.
    @inline(__always)
    private func note(_ begin: Int, _ end: Int, level: Int, frame: Frame) throws {
        let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: keySignature(begin, end &- begin) & 63)
        if frame.keyBits & bit != 0, isRepeat(begin, end, from: frame.keyStart) { throw giveUp() }
        frames[level].keyBits = frame.keyBits | bit
        keySpans.append(begin)
        keySpans.append(end)
    }

    /// The escaped key at `begin` (`length` bytes) reduced to a few bits: its length and
    /// its first and last bytes, so keys of one length rarely share a bit.
    @inline(__always)
    private func keySignature(_ begin: Int, _ length: Int) -> Int {
        guard length > 0 else { return 0 }
        return writer.withUnsafeBytes { bytes in
            length &+ Int(bytes[begin]) &* 5 &+ Int(bytes[begin &+ length &- 1]) &* 3
        }
    }

    /// Whether the key just written at `begin..<end` repeats one of the spans from `start` on.
    private func isRepeat(_ begin: Int, _ end: Int, from start: Int) -> Bool {
        let length = end &- begin
        return keySpans.withElements { spans in
            writer.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return false }
                var index = start
                while index &+ 1 < spans.count {
                    let other = spans[index]
                    if spans[index &+ 1] &- other == length, memcmp(base + other, base + begin, length) == 0 {
                        return true
                    }
                    index &+= 2
                }
                return false
            }
        }
    }

    /// Checks that the container at `level` is the innermost one.
    @inline(__always)
    func element(level: Int) throws {
        if finished { return }
        guard frames.count == level &+ 1 else { throw giveUp() }
    }

    /// Marks the stream failed (so a caller that catches the error cannot go on) and returns the error.
    func giveUp() -> StreamFallback {
        failed = true
        return StreamFallback()
    }

    /// Writes one value: the scalars and the types the tree encoder treats specially
    /// directly, anything else through its `encode(to:)` with a new encoder.
    func write<T: Encodable>(_ value: T) throws {
        let type = T.self
        if type == String.self, let string = value as? String { return writer.write(string) }
        if type == JSONValue.self, let json = value as? JSONValue { return writer.write(json) }
        if type == Int.self, let integer = value as? Int { return writer.write(integer) }
        if type == Bool.self, let flag = value as? Bool { return writer.write(flag) }
        if type == Double.self, let number = value as? Double { return try write(number) }
        if type == Float.self, let number = value as? Float { return try write(number) }
        if type == [String].self, let strings = value as? [String] {
            writer.beginArray()
            for string in strings { writer.write(string) }
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
        let level = frames.count
        var encoder: StreamEncoder
        if let spare {
            self.spare = nil
            encoder = spare
        } else {
            encoder = StreamEncoder(sink: self)
        }
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
        // Nothing kept this encoder (containers hold the sink, not it): the next value may have it.
        if isKnownUniquelyReferenced(&encoder) {
            encoder.used = false
            spare = encoder
        }
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
