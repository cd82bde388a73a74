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
/// `@exclusivity(unchecked)`: every access to these fields is a short one made by
/// this file's code, which calls no user code while it lasts (a value's
/// `encode(to:)` runs between accesses, never inside one), so no two can overlap;
/// the run-time checks cost a fifth of the CLI's instructions.
final class StreamSink {
    @exclusivity(unchecked) var writer: JSONWriter
    /// Whether an open container is an object, innermost last.
    @exclusivity(unchecked) var open: [Bool] = []
    /// Where the keys written into the open objects are in the writer's bytes, in order:
    /// two offsets per key, the first byte of its escaped text and the byte after it
    /// (between its quotes). `keyStarts[i]` is where the `i`th open container's begin.
    /// A key repeats another exactly when their escaped texts are the same bytes
    /// (escaping is one-to-one), so no `String` is kept or compared.
    @exclusivity(unchecked) var keySpans: [Int] = []
    @exclusivity(unchecked) var keyStarts: [Int] = []
    /// For each open container, a bit per key written into it (``keySignature(_:_:)``
    /// modulo 64): a key whose bit is clear cannot be a repeat, so most keys skip the scan.
    @exclusivity(unchecked) var keyLengths: [UInt64] = []
    /// An encoder whose value is done and that nothing else holds, for the next value
    /// (see ``write(_:)``); dropped when the encode is over.
    @exclusivity(unchecked) var spare: StreamEncoder?
    /// Set where the `Encoder` API cannot throw; the encode is redone through the tree.
    @exclusivity(unchecked) var failed = false
    /// Set once the encode is over: an encoder or container a value kept is still safe
    /// to use, and what it writes goes nowhere (as with the tree encoder).
    @exclusivity(unchecked) var finished = false

    /// A sink whose writer is `writer`'s: the caller swaps its writer in and out
    /// (``BodyEncoder/encodeJSON(_:into:)``), so the bytes go straight where they belong.
    init(escapesLineSeparators: Bool) {
        writer = JSONWriter(capacity: 0, escapesLineSeparators: escapesLineSeparators)
    }

    func push(object: Bool) {
        if object { writer.beginObject() } else { writer.beginArray() }
        open.append(object)
        keyStarts.append(keySpans.count)
        keyLengths.append(0)
    }

    /// Closes the containers above `level` (the number that stays open).
    func close(to level: Int) {
        while open.count > level {
            if open.removeLast() { writer.endObject() } else { writer.endArray() }
            if let start = keyStarts.popLast() { keySpans.removeSubrange(start...) }
            keyLengths.removeLast()
        }
    }

    /// Writes `key` into the innermost object, which must be the container at `level`
    /// (`level` open containers below it); throws when the stream cannot follow (a
    /// repeated key: what was written then goes, as the whole stream does).
    @inline(__always)
    func key(_ key: String, level: Int) throws {
        if finished { return }
        guard open.count == level + 1, let start = keyStarts.last else { throw giveUp() }
        // The object's first key has no comma before it; the others have one.
        let begin = writer.byteCount &+ (keySpans.count > start ? 2 : 1)
        writer.key(key)
        let end = writer.byteCount &- 2  // before `":`
        let length = end &- begin
        let bit: UInt64 = 1 &<< UInt64(truncatingIfNeeded: keySignature(begin, length) & 63)
        let lengths = keyLengths[level]
        if lengths & bit != 0, isRepeat(begin, end, from: start) { throw giveUp() }
        keyLengths[level] = lengths | bit
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
        return keySpans.withUnsafeBufferPointer { spans in
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
        guard open.count == level + 1 else { throw giveUp() }
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
        if type == Int.self, let integer = value as? Int { return writer.write(integer) }
        if type == Bool.self, let flag = value as? Bool { return writer.write(flag) }
        if type == [String].self, let strings = value as? [String] {
            writer.beginArray()
            for string in strings { writer.write(string) }
            writer.endArray()
            return
        }
        if type == Double.self || type == Float.self || type == JSONValue.self || type == Date.self
            || type == URL.self || type == Decimal.self || type == Data.self
        {
            // The tree's own boxing; an error sends the value to the tree, which reports it with its path.
            guard let node = try? box(value, state: EncodingState(), parent: nil, key: nil) else { throw giveUp() }
            node.write(to: &writer)
            return
        }
        let level = open.count
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

    /// Writes an integer of any width.
    @inline(__always)
    func write<T: BinaryInteger>(integer value: T) {
        writer.write(value)
    }
}

/// The `Encoder` of one value in a stream; also its single-value container.
final class StreamEncoder: Encoder, SingleValueEncodingContainer {
    let sink: StreamSink
    /// Whether a container or a value was asked for (unchecked: see ``StreamSink``).
    @exclusivity(unchecked) var used = false

    init(sink: StreamSink) {
        self.sink = sink
    }

    var codingPath: [any CodingKey] {
        sink.failed = true
        return []
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Marks this encoder used; a second use makes the stream give up.
    @inline(__always)
    private func use() -> Bool {
        if used {
            sink.failed = true
            return false
        }
        used = true
        return true
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let level = sink.open.count
        if use() { sink.push(object: true) }
        return KeyedEncodingContainer(StreamKeyedContainer<Key>(sink: sink, level: level))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let level = sink.open.count
        if use() { sink.push(object: false) }
        return StreamUnkeyedContainer(sink: sink, level: level)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// Checks that this encoder may write its one value now.
    @inline(__always)
    private func single() throws {
        if sink.finished { return }
        guard use() else { throw sink.giveUp() }
    }

    func encodeNil() throws {
        try single()
        sink.writer.writeNull()
    }

    func encode(_ value: Bool) throws {
        try single()
        sink.writer.write(value)
    }

    func encode(_ value: String) throws {
        try single()
        sink.writer.write(value)
    }

    func encode(_ value: Double) throws {
        try single()
        try sink.write(value)
    }
    func encode(_ value: Float) throws {
        try single()
        try sink.write(value)
    }
    func encode(_ value: Int) throws {
        try single()
        sink.write(integer: value)
    }
    func encode(_ value: Int8) throws {
        try single()
        sink.write(integer: value)
    }
    func encode(_ value: Int16) throws {
        try single()
        sink.write(integer: value)
    }
    func encode(_ value: Int32) throws {
        try single()
        sink.write(integer: value)
    }
    func encode(_ value: Int64) throws {
        try single()
        sink.write(integer: value)
    }
    func encode(_ value: UInt) throws {
        try single()
        sink.write(integer: value)
    }
    func encode(_ value: UInt8) throws {
        try single()
        sink.write(integer: value)
    }
    func encode(_ value: UInt16) throws {
        try single()
        sink.write(integer: value)
    }
    func encode(_ value: UInt32) throws {
        try single()
        sink.write(integer: value)
    }
    func encode(_ value: UInt64) throws {
        try single()
        sink.write(integer: value)
    }

    func encode<T: Encodable>(_ value: T) throws {
        try single()
        try sink.write(value)
    }
}

/// A keyed container of a stream: members are written as they are encoded.
struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: StreamSink
    /// How many containers were open below this one.
    let level: Int

    var codingPath: [any CodingKey] {
        sink.failed = true
        return []
    }

    mutating func encodeNil(forKey key: Key) throws {
        try sink.key(key.stringValue, level: level)
        sink.writer.writeNull()
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try sink.key(key.stringValue, level: level)
        sink.writer.write(value)
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try sink.key(key.stringValue, level: level)
        sink.writer.write(value)
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        try sink.key(key.stringValue, level: level)
        sink.write(integer: value)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try sink.key(key.stringValue, level: level)
        try sink.write(value)
    }

    // The standard library's `encodeIfPresent` for these goes through the generic
    // `encode`, with a run-time `Optional` metadata lookup per call; nil writes nothing.
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        sink.failed = true
        return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(sink: sink, level: -1))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        sink.failed = true
        return StreamUnkeyedContainer(sink: sink, level: -1)
    }

    mutating func superEncoder() -> any Encoder {
        sink.failed = true
        return StreamEncoder(sink: sink)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        sink.failed = true
        return StreamEncoder(sink: sink)
    }
}

/// An unkeyed container of a stream: elements are written as they are encoded.
struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
    let sink: StreamSink
    /// How many containers were open below this one.
    let level: Int
    private(set) var count = 0

    init(sink: StreamSink, level: Int) {
        self.sink = sink
        self.level = level
    }

    var codingPath: [any CodingKey] {
        sink.failed = true
        return []
    }

    mutating func encodeNil() throws {
        try sink.element(level: level)
        sink.writer.writeNull()
        count += 1
    }

    mutating func encode(_ value: String) throws {
        try sink.element(level: level)
        sink.writer.write(value)
        count += 1
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try sink.element(level: level)
        try sink.write(value)
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        sink.failed = true
        return KeyedEncodingContainer(StreamKeyedContainer<NestedKey>(sink: sink, level: -1))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        sink.failed = true
        return StreamUnkeyedContainer(sink: sink, level: -1)
    }

    mutating func superEncoder() -> any Encoder {
        sink.failed = true
        return StreamEncoder(sink: sink)
    }
}
