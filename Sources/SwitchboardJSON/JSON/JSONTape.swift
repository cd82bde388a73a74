#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A parsed JSON document kept as its bytes plus a flat "tape" of entries that
/// point into them: no `Any` boxes, no second tree, no `String` until one is asked for.
///
/// The one strict scanner (``JSONTapeParser``) makes it, for every reader of JSON
/// bytes: the wire format, ``JSONReader`` (which builds a ``JSONValue`` from the
/// tape) and ``MessageBody/init(jsonBytes:maxDepth:maxBytes:)-(UnsafeBufferPointer<UInt8>,_,_)``
/// (whose decoder reads the tape in place). RFC 8259, strict: no trailing commas,
/// no byte-order mark, well-formed UTF-8, no lone surrogates, no duplicate keys,
/// nesting limited; a rejection is a ``JSONReadError`` saying what and where.
///
/// Layout: entry 0 is the root. A container entry is followed by its elements
/// (an object by `key, value` pairs; keys are string entries), and records the
/// index just past its last descendant, so skipping a value is one step.
package final class JSONTape: @unchecked Sendable {
    // `@unchecked`: the storage is written once, in `init`, and only read after;
    // it is freed in `deinit`, when no reader can be left.

    /// One entry of the tape (16 bytes).
    package struct Entry {
        /// ``Kind`` raw value.
        package var kind: UInt8
        /// Strings: ``Flags/escaped``, ``Flags/nonASCII``; numbers: ``Flags/integer``.
        package var flags: UInt8
        package var reserved: UInt16 = 0
        /// Containers: the number of elements (an object's members).
        package var count: UInt32
        /// Scalars: the byte offset of the text (a string's first byte after its quote).
        /// Containers: the byte offset of the opening bracket.
        package var offset: UInt32
        /// Scalars: the byte length of the text (a string's, without quotes or unescaping).
        /// Containers: the index of the entry just past the container's last descendant.
        package var length: UInt32
    }

    /// What an entry is.
    package enum Kind: UInt8 {
        case null = 0
        case `false`, `true`, number, string, array, object
    }

    /// Entry flags.
    package enum Flags {
        /// The string holds backslash escapes (read it through the unescaper).
        package static let escaped: UInt8 = 1
        /// The string holds bytes above 0x7F (after unescaping, it may too).
        package static let nonASCII: UInt8 = 2
        /// The number is an integer: no fraction, no exponent.
        package static let integer: UInt8 = 4
        /// The container holds only scalars, so element `i` of an array is entry `index + 1 + i`.
        package static let flat: UInt8 = 8
    }

    /// The document's bytes (a private copy).
    package let bytes: UnsafeMutablePointer<UInt8>
    /// The number of bytes.
    package let byteCount: Int
    /// The entries; `entries[0]` is the root.
    package let entries: UnsafeMutablePointer<Entry>
    /// The number of entries.
    package let entryCount: Int

    private init(
        bytes: UnsafeMutablePointer<UInt8>, byteCount: Int, entries: UnsafeMutablePointer<Entry>, entryCount: Int
    ) {
        self.bytes = bytes
        self.byteCount = byteCount
        self.entries = entries
        self.entryCount = entryCount
    }

    deinit {
        // One allocation holds both (entries first, for alignment).
        UnsafeMutableRawPointer(entries).deallocate()
    }

    /// Parses `input` strictly (RFC 8259; see ``JSONReader`` for the rules).
    /// - Parameters:
    ///   - input: the whole document, as UTF-8.
    ///   - maxDepth: the deepest nesting of arrays and objects accepted (as ``JSONReader/maxDepth``).
    /// - Throws: ``JSONReadError`` saying what is wrong and where; an input of 4 GiB or more
    ///   (a tape's offsets are 32-bit) is ``JSONReadError/Kind/tooLarge(limit:)``.
    package static func parse(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int = DecodingOptions.defaultMaxDepth)
        throws(JSONReadError)
        -> JSONTape
    {
        let limit = Int(UInt32.max) - 1
        if input.count > limit {
            throw JSONReadError(
                .tooLarge(limit: limit), "the text is \(input.count) bytes long; the limit is \(limit)", at: limit,
                in: input)
        }
        guard let base = input.baseAddress else {
            // An empty buffer may have no address: scan an empty one that has (it says "empty input").
            let placeholder: [UInt8] = [0]
            let result = placeholder.withUnsafeBufferPointer { buffer in
                Result { () throws(JSONReadError) -> JSONTape in
                    try parse(UnsafeBufferPointer(rebasing: buffer[0..<0]), maxDepth: maxDepth)
                }
            }
            return try result.get()
        }
        let result = JSONTapeScratch.withThreadScratch { scratch -> Result<JSONTape, JSONReadError> in
            var parser = JSONTapeParser(input: input, base: base, maxDepth: max(0, maxDepth), scratch: scratch)
            guard parser.parseDocument() else { return .failure(parser.error()) }
            return .success(parser.finish())
        }
        return try result.get()
    }

    /// Parses `input` as ``parse(_:maxDepth:)-(UnsafeBufferPointer<UInt8>,_)`` does, and
    /// refuses a document nested deeper than ``DecodingOptions/maxDepthCeiling`` whatever
    /// `maxDepth` says: what every reader of input uses (``JSONReader``, `MessageBody(jsonBytes:)`,
    /// the wire), so that no ``JSONValue`` built from input, nor any walk of the tape that
    /// recurses, is deeper than a thread's stack can take. A document nested deeper than the
    /// ceiling gets the error the scanner gives with the ceiling as its limit; any other, the
    /// one it gives with `maxDepth`.
    package static func read(_ input: UnsafeBufferPointer<UInt8>, maxDepth: Int) throws(JSONReadError) -> JSONTape {
        let ceiling = DecodingOptions.maxDepthCeiling
        let tape: JSONTape
        do {
            tape = try parse(input, maxDepth: maxDepth)
        } catch {
            // Deeper than a limit above the ceiling: scanned again with the ceiling, which says
            // where (or finds another error first, as a scan with that limit would).
            guard maxDepth > ceiling, case .nestingTooDeep = error.kind else { throw error }
            _ = try parse(input, maxDepth: ceiling)
            throw error
        }
        guard maxDepth > ceiling, let deep = tape.firstContainer(deeperThan: ceiling) else { return tape }
        throw JSONReadError(
            .nestingTooDeep(limit: ceiling), "arrays and objects nested deeper than the limit of \(ceiling)",
            at: Int(tape.entries[deep].offset), in: input)
    }

    /// The entry of the first container (in document order) nested more than `levels` deep, if any.
    func firstContainer(deeperThan levels: Int) -> Int? {
        // The ends of the open containers, innermost last (as `nests(_:within:)`).
        var ends: [Int] = []
        var entry = 0
        while entry < entryCount {
            while let last = ends.last, entry >= last { ends.removeLast() }
            let current = entries[entry]
            if current.kind >= Kind.array.rawValue {
                guard ends.count < levels else { return entry }
                ends.append(Int(current.length))
            }
            entry += 1
        }
        return nil
    }

    /// Parses the bytes of an array. See ``parse(_:maxDepth:)-(UnsafeBufferPointer<UInt8>,_)``.
    package static func parse(_ input: [UInt8], maxDepth: Int = DecodingOptions.defaultMaxDepth) throws(JSONReadError)
        -> JSONTape
    {
        let result = input.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONReadError) -> JSONTape in try parse(buffer, maxDepth: maxDepth) }
        }
        return try result.get()
    }

    static func make(input: UnsafeBufferPointer<UInt8>, entries source: UnsafePointer<Entry>, count: Int)
        -> JSONTape
    {
        let entryBytes = count * MemoryLayout<Entry>.stride
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: entryBytes + max(1, input.count), alignment: MemoryLayout<Entry>.alignment)
        let entries = raw.bindMemory(to: Entry.self, capacity: count)
        entries.initialize(from: source, count: count)
        let bytes = (raw + entryBytes).bindMemory(to: UInt8.self, capacity: max(1, input.count))
        if let base = input.baseAddress, input.count > 0 {
            bytes.initialize(from: base, count: input.count)
        }
        return JSONTape(bytes: bytes, byteCount: input.count, entries: entries, entryCount: count)
    }

    /// A tape holding the one value `null` (what a missing value reads as).
    package static let null: JSONTape = {
        var entry = Entry(kind: Kind.null.rawValue, flags: 0, count: 0, offset: 0, length: 4)
        let text: [UInt8] = Array("null".utf8)
        return text.withUnsafeBufferPointer { make(input: $0, entries: &entry, count: 1) }
    }()

    // MARK: - Reading

    /// The kind of the entry at `index`.
    @inline(__always)
    package func kind(_ index: Int) -> Kind {
        Kind(rawValue: entries[index].kind) ?? .null
    }

    /// The index just past the value at `index` (and all it contains).
    @inline(__always)
    package func next(_ index: Int) -> Int {
        let entry = entries[index]
        return entry.kind >= Kind.array.rawValue ? Int(entry.length) : index + 1
    }

    /// The bytes of the scalar at `index` (a string's raw text between its quotes).
    @inline(__always)
    package func text(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let entry = entries[index]
        return UnsafeBufferPointer(start: bytes + Int(entry.offset), count: Int(entry.length))
    }

    /// The string at `index` (a string entry), unescaped.
    package func string(_ index: Int) -> String {
        let entry = entries[index]
        let raw = UnsafeBufferPointer(start: bytes + Int(entry.offset), count: Int(entry.length))
        if entry.flags & Flags.escaped == 0 {
            return JSONTape.validatedString(raw, isASCII: entry.flags & Flags.nonASCII == 0)
        }
        return JSONTape.unescape(raw)
    }

    /// A string copied from bytes the scanner has checked are well-formed UTF-8
    /// (`isASCII`: and all below 0x80, as the scanner's ``Flags/nonASCII`` says), without
    /// checking them again where the standard library allows it (`UTF8Span`).
    @inline(__always)
    package static func validatedString(_ raw: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return String(copying: UTF8Span(unchecked: raw.span, isKnownASCII: isASCII))
        }
        return String(decoding: raw, as: UTF8.self)
    }

    /// Whether the string entry at `index` equals `key` exactly (as bytes after
    /// unescaping; for keys this is how members are found).
    @inline(__always)
    package func stringEquals(_ index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = entries[index]
        if entry.flags & Flags.escaped != 0 {
            var unescaped = string(index)
            return unescaped.withUTF8 { $0.count == key.count && JSONTape.equal($0.baseAddress, key) }
        }
        guard Int(entry.length) == key.count else { return false }
        return JSONTape.equal(bytes + Int(entry.offset), key)
    }

    /// Whether the `other.count` bytes at `start` are `other`'s.
    @inline(__always)
    static func equal(_ start: UnsafePointer<UInt8>?, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = other.baseAddress, other.count > 0 else { return true }
        guard let start else { return false }
        return sameBytes(start, base, other.count)
    }

    /// Whether the `count` bytes at `first` and at `second` are the same: eight at a
    /// time, then the rest (keys are short: no call to `memcmp`).
    @inline(__always)
    static func sameBytes(_ first: UnsafePointer<UInt8>, _ second: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let a = UnsafeRawPointer(first)
        let b = UnsafeRawPointer(second)
        var offset = 0
        while offset &+ 8 <= count {
            guard
                a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            else { return false }
            offset &+= 8
        }
        if offset &+ 4 <= count {
            guard
                a.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                    == b.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            else { return false }
            offset &+= 4
        }
        while offset < count {
            guard first[offset] == second[offset] else { return false }
            offset &+= 1
        }
        return true
    }

    /// The value of the member named `key` in the object at `object`, or `nil`.
    ///
    /// Keys are compared as bytes; when the object has a key with escapes or
    /// non-ASCII bytes, as Swift strings (canonical equivalence), as ``JSONValue`` does.
    /// `hint`: as in ``member(_:in:hint:)-(UnsafeBufferPointer<UInt8>,_,_)``.
    ///
    /// Inlined, with the hint's check (a decoder's usual case): the scan is a call of its own.
    @inline(__always)
    package func member(_ key: String, in object: Int, hint: Int? = nil) -> Int? {
        // A literal's or a native string's bytes in place; a small string's copied to the stack.
        if let found = key.utf8.withContiguousStorageIfAvailable({ member($0, in: object, hint: hint) }) {
            return found
        }
        var key = key
        return key.withUTF8 { member($0, in: object, hint: hint) }
    }

    /// The value of the member whose UTF-8 name is `key` in the object at
    /// `object`. `hint`, when given, is the key index to try first (the one
    /// after the previous lookup: decoders ask in declaration order, which is
    /// usually the document's).
    @inline(__always)
    package func member(_ key: UnsafeBufferPointer<UInt8>, in object: Int, hint: Int?) -> Int? {
        if let hint, hint > object, hint < Int(entries[object].length), entries[hint].kind == Kind.string.rawValue,
            stringEquals(hint, key)
        {
            // A hint is only ever a key index handed out by `memberKeys`/`member`.
            return hint + 1
        }
        return scanMember(key, in: object)
    }

    /// The value of the member named `key` when its key is the one at entry `hint` (a key of
    /// the object at `object`, as `hint` in ``member(_:in:hint:)-(String,_,_)``); `nil` otherwise,
    /// without looking further.
    @inline(__always)
    package func member(_ key: String, in object: Int, at hint: Int) -> Int? {
        if let found = key.utf8.withContiguousStorageIfAvailable({ member($0, in: object, at: hint) }) {
            return found
        }
        var key = key
        return key.withUTF8 { member($0, in: object, at: hint) }
    }

    /// ``member(_:in:at:)-(String,_,_)`` for a UTF-8 name.
    @inline(__always)
    package func member(_ key: UnsafeBufferPointer<UInt8>, in object: Int, at hint: Int) -> Int? {
        guard hint > object, hint < Int(entries[object].length), entries[hint].kind == Kind.string.rawValue,
            stringEquals(hint, key)
        else { return nil }
        return hint + 1
    }

    /// ``member(_:in:hint:)-(UnsafeBufferPointer<UInt8>,_,_)`` without a hint: every key in turn.
    @inline(never)
    func scanMember(_ key: UnsafeBufferPointer<UInt8>, in object: Int) -> Int? {
        let end = Int(entries[object].length)
        var index = object + 1
        var slow = false
        while index < end {
            let keyEntry = entries[index]
            if keyEntry.flags & (Flags.escaped | Flags.nonASCII) != 0 {
                slow = true
            } else if Int(keyEntry.length) == key.count,
                JSONTape.equal(bytes + Int(keyEntry.offset), key)
            {
                return index + 1
            }
            index = next(index + 1)
        }
        guard slow || !JSONTape.isASCII(key) else { return nil }
        // Some key (or the name asked for) is not plain ASCII: compare as strings.
        let name = String(decoding: key, as: UTF8.self)
        index = object + 1
        while index < end {
            if string(index) == name { return index + 1 }
            index = next(index + 1)
        }
        return nil
    }

    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where byte >= 0x80 { return false }
        return true
    }

    /// Whether the value at `index` nests at most `levels` arrays and objects
    /// deep (a scalar 0, `[]` 1, `[[1]]` 2), as ``JSONValue/nests(within:)``.
    package func nests(_ index: Int, within levels: Int) -> Bool {
        let root = entries[index]
        guard root.kind >= Kind.array.rawValue else { return true }
        guard levels > 0 else { return false }
        // (A `flat` container may still hold empty containers: one entry each, one level more.)
        if levels >= 2, root.flags & Flags.flat != 0 { return true }
        // The ends of the open containers, innermost last (the root's is first): at most
        // `levels` of them, and no more than the tape has entries (on the stack when small).
        let capacity = min(levels, Int(root.length) - index)
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity) { ends -> Bool in
            ends[0] = Int(root.length)
            var open = 1
            var entry = index + 1
            while entry < Int(root.length) {
                while open > 0, entry >= ends[open - 1] { open -= 1 }
                let current = entries[entry]
                if current.kind >= Kind.array.rawValue {
                    guard open < levels else { return false }
                    ends[open] = Int(current.length)
                    open += 1
                }
                entry += 1
            }
            return true
        }
    }

    /// The value at `index` as a ``JSONValue``.
    package func jsonValue(_ index: Int) -> JSONValue {
        switch kind(index) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return .number(JSONNumber(unchecked: JSONTape.validatedString(text(index), isASCII: true)))
        case .string: return .string(string(index))
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(entries[index].count))
            var element = index + 1
            let end = Int(entries[index].length)
            while element < end {
                elements.append(jsonValue(element))
                element = next(element)
            }
            return .array(elements)
        case .object:
            // Only an object of scalars goes through the standard library's dictionary
            // initialiser: one holding containers would recurse through its frames too, several
            // times this function's own in a debug build (a value at the depth limit must fit a
            // 512 KiB thread stack: `DepthLimitStackTests`).
            if entries[index].flags & Flags.flat != 0 { return .object(dictionary(index, of: JSONValue.self)) }
            var members = [String: JSONValue](minimumCapacity: Int(entries[index].count))
            // Its own loop, not `JSONTapeMembers`: that one's state would make this recursive
            // function's frame, every level's, larger, and 5,000 nested arrays (`JSONReaderTests`)
            // must fit the test thread's stack under AddressSanitizer too.
            var key = index + 1
            let end = Int(entries[index].length)
            while key < end {
                members[string(key)] = jsonValue(key + 1)
                key = next(key + 1)
            }
            return .object(members)
        }
    }

    /// The object at `index` as a dictionary, each member's value read as `Value`.
    ///
    /// Made with `Dictionary(_:uniquingKeysWith:)` from ``JSONTapeMembers``, whose
    /// `underestimatedCount` is the member count: the storage is allocated once, by code
    /// specialised for the dictionary's type. (`Dictionary(minimumCapacity:)` and
    /// `reserveCapacity` are not inlinable: every call looks the storage's generic metadata
    /// up at run time.) Keys on a tape are unique, so `uniquingKeysWith` is never called.
    func dictionary<Value: JSONTapeReadable>(_ index: Int, of type: Value.Type) -> [String: Value] {
        Dictionary(JSONTapeMembers<Value>(tape: self, object: index), uniquingKeysWith: { _, last in last })
    }

    /// The integer at `index` when the number entry is an integer of at most 18
    /// digits (always exact in `Int64`) other than `-0`; `nil` otherwise (use the text).
    @inline(__always)
    package func smallInteger(_ index: Int) -> Int64? {
        let entry = entries[index]
        guard entry.flags & Flags.integer != 0 else { return nil }
        var pointer = bytes + Int(entry.offset)
        var length = Int(entry.length)
        var negative = false
        if pointer.pointee == UInt8(ascii: "-") {
            negative = true
            pointer += 1
            length -= 1
        }
        guard length <= 18 else { return nil }
        var value: Int64 = 0
        for offset in 0..<length {
            value = value &* 10 &+ Int64(pointer[offset] &- UInt8(ascii: "0"))
        }
        // `-0` stays text: as a `Double` it is negative zero, which `Int64` cannot hold.
        if negative && value == 0 { return nil }
        return negative ? -value : value
    }

    /// Decodes the escapes of string text already checked by the parser.
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: raw.count) { output in
            var read = 0
            var written = 0
            func put(_ byte: UInt8) {
                output[written] = byte
                written += 1
            }
            func hexValue(_ at: Int) -> UInt32 {
                var value: UInt32 = 0
                for offset in 0..<4 {
                    let byte = raw[at + offset]
                    let digit: UInt8
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                    default: digit = byte &- UInt8(ascii: "A") &+ 10
                    }
                    value = value << 4 | UInt32(digit)
                }
                return value
            }
            while read < raw.count {
                let byte = raw[read]
                guard byte == UInt8(ascii: "\\") else {
                    put(byte)
                    read += 1
                    continue
                }
                let escape = raw[read + 1]
                read += 2
                switch escape {
                case UInt8(ascii: "b"): put(0x08)
                case UInt8(ascii: "f"): put(0x0C)
                case UInt8(ascii: "n"): put(0x0A)
                case UInt8(ascii: "r"): put(0x0D)
                case UInt8(ascii: "t"): put(0x09)
                case UInt8(ascii: "u"):
                    var scalar = hexValue(read)
                    read += 4
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        // The parser checked a low surrogate follows.
                        let low = hexValue(read + 2)
                        read += 6
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    // A 6-byte escape is never shorter than its UTF-8 (at most 4 bytes; 12 → 4 for a pair).
                    switch scalar {
                    case 0..<0x80:
                        put(UInt8(truncatingIfNeeded: scalar))
                    case 0x80..<0x800:
                        put(UInt8(truncatingIfNeeded: 0xC0 | (scalar >> 6)))
                        put(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
                    case 0x800..<0x10000:
                        put(UInt8(truncatingIfNeeded: 0xE0 | (scalar >> 12)))
                        put(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F)))
                        put(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
                    default:
                        put(UInt8(truncatingIfNeeded: 0xF0 | (scalar >> 18)))
                        put(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 12) & 0x3F)))
                        put(UInt8(truncatingIfNeeded: 0x80 | ((scalar >> 6) & 0x3F)))
                        put(UInt8(truncatingIfNeeded: 0x80 | (scalar & 0x3F)))
                    }
                default: put(escape)  // " \ /
                }
            }
            return written
        }
    }
}

/// A value read straight off a tape entry (the values ``JSONTape/dictionary(_:of:)`` makes).
protocol JSONTapeReadable {
    /// The value at entry `index` of `tape` (whose kind the caller has checked, where it matters).
    static func read(_ tape: JSONTape, at index: Int) -> Self
}

extension String: JSONTapeReadable {
    /// The string at `index` (a string entry), unescaped.
    @inline(__always)
    static func read(_ tape: JSONTape, at index: Int) -> String { tape.string(index) }
}

extension JSONValue: JSONTapeReadable {
    @inline(__always)
    static func read(_ tape: JSONTape, at index: Int) -> JSONValue { tape.jsonValue(index) }
}

/// The members of an object on a tape as `(key, value)` pairs, in order; its
/// `underestimatedCount` is the member count (see ``JSONTape/dictionary(_:of:)``).
struct JSONTapeMembers<Value: JSONTapeReadable>: Sequence, IteratorProtocol {
    let tape: JSONTape
    /// The entry of the next key.
    private var key: Int
    private let end: Int
    let underestimatedCount: Int

    init(tape: JSONTape, object: Int) {
        self.tape = tape
        key = object + 1
        let entry = tape.entries[object]
        end = Int(entry.length)
        underestimatedCount = Int(entry.count)
    }

    @inline(__always)
    mutating func next() -> (String, Value)? {
        guard key < end else { return nil }
        let member = (tape.string(key), Value.read(tape, at: key + 1))
        key = tape.next(key + 1)
        return member
    }
}
