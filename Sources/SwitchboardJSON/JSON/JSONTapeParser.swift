#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// MARK: - Scratch space

/// Per-thread buffers the parser grows once and reuses: the entry buffer and
/// the stack of open containers. Only the finished tape is allocated per document.
final class JSONTapeScratch {
    var entries: UnsafeMutablePointer<JSONTape.Entry>
    var entryCapacity: Int
    var stack: UnsafeMutablePointer<Int32>
    var stackCapacity: Int
    /// Why the last scan stopped, when it did (set only on the error path).
    var failure = JSONScanFailure.noValue

    init() {
        entryCapacity = 256
        entries = .allocate(capacity: entryCapacity)
        stackCapacity = 64
        stack = .allocate(capacity: stackCapacity)
    }

    deinit {
        entries.deallocate()
        stack.deallocate()
    }

    func growEntries(to minimum: Int) {
        var capacity = entryCapacity
        while capacity < minimum { capacity *= 2 }
        let grown = UnsafeMutablePointer<JSONTape.Entry>.allocate(capacity: capacity)
        grown.moveInitialize(from: entries, count: entryCapacity)
        entries.deallocate()
        entries = grown
        entryCapacity = capacity
    }

    func growStack() {
        let capacity = stackCapacity * 2
        let grown = UnsafeMutablePointer<Int32>.allocate(capacity: capacity)
        grown.moveInitialize(from: stack, count: stackCapacity)
        stack.deallocate()
        stack = grown
        stackCapacity = capacity
    }

    /// Each thread's scratch, kept between parses.
    private static let spare = ThreadSpare<JSONTapeScratch>()

    /// Runs `body` with this thread's scratch. The scratch is taken out while
    /// in use (a nested parse would get a fresh one), and not kept when one huge
    /// document made it large, so memory stays flat.
    static func withThreadScratch<R>(_ body: (JSONTapeScratch) -> R) -> R {
        let scratch = spare.take() ?? JSONTapeScratch()
        let result = body(scratch)
        if scratch.entryCapacity <= 1 << 16, scratch.stackCapacity <= 1 << 12 {
            spare.keep(scratch)
        }
        return result
    }
}

// MARK: - The parser

private let quote = UInt8(ascii: "\"")
private let backslash = UInt8(ascii: "\\")

/// The one strict RFC 8259 scanner: one pass over the bytes into the scratch
/// buffers, no recursion. Every `Bool`-returning step answers "still valid?":
/// the first `false` abandons the scan, and the step that returned it recorded
/// in the scratch's `failure` what it found wrong and where (only then: valid
/// input pays nothing for the messages). ``error()`` turns that into the
/// ``JSONReadError`` users see.
struct JSONTapeParser {
    let input: UnsafeBufferPointer<UInt8>
    let base: UnsafePointer<UInt8>
    let count: Int
    let maxDepth: Int
    let scratch: JSONTapeScratch
    var position = 0
    var entryCount = 0

    init(input: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>, maxDepth: Int, scratch: JSONTapeScratch) {
        self.input = input
        self.base = base
        self.count = input.count
        self.maxDepth = maxDepth
        self.scratch = scratch
    }

    func finish() -> JSONTape {
        JSONTape.make(input: input, entries: scratch.entries, count: entryCount)
    }

    /// Records why the scan stops; returns `false` (for `return fail(…)`). (In the
    /// scratch object, not in the parser: the parser's fields stay in registers.)
    @inline(never)
    func fail(_ failure: JSONScanFailure) -> Bool {
        scratch.failure = failure
        return false
    }

    @inline(__always)
    mutating func append(kind: JSONTape.Kind, flags: UInt8, offset: Int, length: Int) {
        if entryCount == scratch.entryCapacity { scratch.growEntries(to: entryCount + 1) }
        scratch.entries[entryCount] = JSONTape.Entry(
            kind: kind.rawValue, flags: flags, count: 0, offset: UInt32(truncatingIfNeeded: offset),
            length: UInt32(truncatingIfNeeded: length))
        entryCount += 1
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while position < count {
            let byte = base[position]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
            position += 1
        }
    }

    mutating func parseDocument() -> Bool {
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { return fail(.byteOrderMark) }
        skipWhitespace()
        guard position < count else { return fail(.noValue) }
        guard parseValue() else { return false }
        skipWhitespace()
        return position == count || fail(.trailingContent(at: position))
    }

    /// Parses one value (containers without recursion: an explicit stack of open containers).
    mutating func parseValue() -> Bool {
        // `stack` holds the entry index of each open container.
        var open = 0
        nextValue: while true {
            skipWhitespace()
            guard position < count else { return fail(.unexpected(.value, at: position)) }
            let byte = base[position]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard open < maxDepth else { return fail(.nestingTooDeep(at: position)) }
                let isObject = byte == UInt8(ascii: "{")
                let index = entryCount
                append(kind: isObject ? .object : .array, flags: 0, offset: position, length: 0)
                position += 1
                skipWhitespace()
                if position < count && base[position] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    position += 1
                    scratch.entries[index].length = UInt32(truncatingIfNeeded: entryCount)
                    scratch.entries[index].flags = JSONTape.Flags.flat
                } else {
                    if open == scratch.stackCapacity { scratch.growStack() }
                    scratch.stack[open] = Int32(truncatingIfNeeded: index)
                    open += 1
                    if isObject {
                        guard parseKey(afterComma: false) else { return false }
                    }
                    continue nextValue
                }
            case quote:
                guard parseString() else { return false }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard parseNumber() else { return false }
            case UInt8(ascii: "t"):
                guard literal(0x7472_7565, length: 4) else { return fail(.invalidWord(at: position)) }  // "true"
                append(kind: .true, flags: 0, offset: position - 4, length: 4)
            case UInt8(ascii: "f"):
                guard position + 5 <= count, base[position + 4] == UInt8(ascii: "e"),
                    literal(0x6661_6C73, length: 4)  // "fals"
                else { return fail(.invalidWord(at: position)) }
                position += 1
                append(kind: .false, flags: 0, offset: position - 5, length: 5)
            case UInt8(ascii: "n"):
                guard literal(0x6E75_6C6C, length: 4) else { return fail(.invalidWord(at: position)) }  // "null"
                append(kind: .null, flags: 0, offset: position - 4, length: 4)
            default:
                return failValue(open: open)
            }

            // A value is complete: continue or close the open containers.
            while open > 0 {
                let container = Int(scratch.stack[open - 1])
                let isObject = scratch.entries[container].kind == JSONTape.Kind.object.rawValue
                scratch.entries[container].count &+= 1
                skipWhitespace()
                guard position < count else {
                    return fail(.unexpected(isObject ? .commaOrBrace : .commaOrBracket, at: position))
                }
                let next = base[position]
                if next == UInt8(ascii: ",") {
                    position += 1
                    skipWhitespace()
                    if isObject {
                        guard parseKey(afterComma: true) else { return false }
                    }
                    continue nextValue
                }
                guard next == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    return fail(.unexpected(isObject ? .commaOrBrace : .commaOrBracket, at: position))
                }
                position += 1
                scratch.entries[container].length = UInt32(truncatingIfNeeded: entryCount)
                let members = Int(scratch.entries[container].count)
                if entryCount - container - 1 == (isObject ? 2 * members : members) {
                    scratch.entries[container].flags = JSONTape.Flags.flat
                }
                if isObject {
                    guard keysAreUnique(container) else { return fail(.duplicateKey(entry: duplicateKey(container))) }
                }
                open -= 1
            }
            return true
        }
    }

    /// Records what stands where a value should, with `open` containers open.
    @inline(never)
    func failValue(open: Int) -> Bool {
        // `]` in an array comes after a comma (`[` then `]` is an empty array, read before).
        if base[position] == UInt8(ascii: "]"), open > 0,
            scratch.entries[Int(scratch.stack[open - 1])].kind == JSONTape.Kind.array.rawValue
        {
            return fail(.trailingComma(at: commaBefore(position)))
        }
        return fail(.unexpected(.value, at: position))
    }

    /// The offset of the comma that the whitespace before `offset` follows (for a trailing-comma error).
    func commaBefore(_ offset: Int) -> Int {
        var index = offset - 1
        while index > 0 && base[index] != UInt8(ascii: ",") { index -= 1 }
        return index
    }

    /// `"key"` then `:` at the current position (whitespace skipped before).
    @inline(__always)
    mutating func parseKey(afterComma: Bool) -> Bool {
        guard position < count, base[position] == quote else {
            if afterComma, position < count, base[position] == UInt8(ascii: "}") {
                return fail(.trailingComma(at: commaBefore(position)))
            }
            return fail(.unexpected(afterComma ? .key : .keyOrClose, at: position))
        }
        guard parseString() else { return false }
        skipWhitespace()
        guard position < count, base[position] == UInt8(ascii: ":") else {
            return fail(.unexpected(.colon, at: position))
        }
        position += 1
        return true
    }

    /// Matches a 4-byte literal given as a big-endian word; advances past it.
    @inline(__always)
    mutating func literal(_ word: UInt32, length: Int) -> Bool {
        guard position + length <= count else { return false }
        let found =
            UInt32(base[position]) << 24 | UInt32(base[position + 1]) << 16 | UInt32(base[position + 2]) << 8
            | UInt32(base[position + 3])
        guard found == word else { return false }
        position += length
        return true
    }

    @inline(__always)
    func isDigit(_ index: Int) -> Bool {
        index < count && base[index] &- UInt8(ascii: "0") < 10
    }

    mutating func parseNumber() -> Bool {
        let start = position
        var integer = true
        if base[position] == UInt8(ascii: "-") {
            position += 1
            guard isDigit(position) else {
                // `-Infinity` gets its own message.
                if position < count && base[position] == UInt8(ascii: "I") { return fail(.invalidWord(at: start)) }
                return fail(.invalidNumber(.digitAfterMinus, at: position))
            }
        }
        if base[position] == UInt8(ascii: "0") {
            position += 1
            if isDigit(position) { return fail(.invalidNumber(.leadingZero, at: start)) }
        } else {
            while isDigit(position) { position += 1 }
        }
        if position < count && base[position] == UInt8(ascii: ".") {
            integer = false
            position += 1
            guard isDigit(position) else { return fail(.invalidNumber(.digitAfterDot, at: position)) }
            while isDigit(position) { position += 1 }
        }
        if position < count && (base[position] | 0x20) == UInt8(ascii: "e") {
            integer = false
            position += 1
            if position < count && (base[position] == UInt8(ascii: "+") || base[position] == UInt8(ascii: "-")) {
                position += 1
            }
            guard isDigit(position) else { return fail(.invalidNumber(.digitInExponent, at: position)) }
            while isDigit(position) { position += 1 }
        }
        append(kind: .number, flags: integer ? JSONTape.Flags.integer : 0, offset: start, length: position - start)
        return true
    }

    /// The index of the first byte at or after `index` that is special in a string
    /// (quote, backslash, control, non-ASCII), or an index within eight bytes of the end.
    @inline(__always)
    func skipPlain(from start: Int) -> Int {
        var index = start
        // Eight bytes at a time (word tricks; sixteen-byte vector compares cost more on these short strings).
        while index &+ 8 <= count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let high: UInt64 = 0x8080_8080_8080_8080
            let quotes = word ^ (ones &* UInt64(quote))
            let slashes = word ^ (ones &* UInt64(backslash))
            let special =
                ((quotes &- ones) & ~quotes) | ((slashes &- ones) & ~slashes) | (word &- ones &* 0x20) | word
            if special & high != 0 {
                return index &+ (special & high).littleEndian.trailingZeroBitCount >> 3
            }
            index &+= 8
        }
        return index
    }

    /// A string at its opening quote; leaves `position` after the closing quote.
    /// (Inlined: most strings are short, and the call's register saves cost as much as their scan.)
    @inline(__always)
    mutating func parseString() -> Bool {
        let start = position + 1
        var flags: UInt8 = 0
        var index = skipPlain(from: start)
        while true {
            guard index < count else { return fail(.unterminatedString(at: start - 1)) }
            let byte = base[index]
            if byte == quote { break }
            if byte < 0x80 && byte >= 0x20 && byte != backslash {
                index += 1
                continue
            }
            if byte == backslash {
                flags |= JSONTape.Flags.escaped
                guard let after = escape(at: index) else { return false }
                if after.nonASCII { flags |= JSONTape.Flags.nonASCII }
                index = after.index
            } else if byte < 0x20 {
                return fail(.controlCharacter(at: index))
            } else {
                flags |= JSONTape.Flags.nonASCII
                guard let after = validateUTF8Sequence(at: index) else { return fail(.invalidUTF8(at: index)) }
                index = after
            }
            // Back to the fast scan after an escape or a multi-byte sequence.
            index = skipPlain(from: index)
        }
        append(kind: .string, flags: flags, offset: start, length: index - start)
        position = index + 1
        return true
    }

    /// Checks the escape at `index` (a backslash); returns the index after it and
    /// whether it stands for a non-ASCII scalar (`nil` when it is not valid: see `failure`).
    @inline(__always)
    func escape(at index: Int) -> (index: Int, nonASCII: Bool)? {
        guard index + 1 < count else {
            _ = fail(.unterminatedEscape(at: index))
            return nil
        }
        switch base[index + 1] {
        case quote, backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            return (index + 2, false)
        case UInt8(ascii: "u"):
            guard let unit = hexQuad(at: index) else { return nil }
            if unit >= 0xD800 && unit <= 0xDFFF {
                guard unit <= 0xDBFF, index + 7 < count, base[index + 6] == backslash,
                    base[index + 7] == UInt8(ascii: "u")
                else {
                    _ = fail(.loneSurrogate(unit, at: index))
                    return nil
                }
                guard let low = hexQuad(at: index + 6) else { return nil }
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    _ = fail(.loneSurrogate(unit, at: index))
                    return nil
                }
                return (index + 12, true)
            }
            return (index + 6, unit >= 0x80)
        default:
            _ = fail(.invalidEscape(at: index))
            return nil
        }
    }

    /// The four hex digits of the `\u` escape at `index` (its backslash), or `nil` (see `failure`).
    func hexQuad(at index: Int) -> UInt32? {
        guard index + 6 <= count else {
            _ = fail(.invalidHexEscape(at: index))
            return nil
        }
        var value: UInt32 = 0
        for offset in 2..<6 {
            let byte = base[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default:
                _ = fail(.invalidHexEscape(at: index))
                return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Unicode's Table 3-7; returns the index after the sequence at `index`, `nil` when it is ill-formed.
    func validateUTF8Sequence(at index: Int) -> Int? {
        guard let (length, low, high) = UTF8LeadByte.bounds(base[index]) else { return nil }
        guard index + length <= count else { return nil }
        let second = base[index + 1]
        guard second >= low && second <= high else { return nil }
        var offset = 2
        while offset < length {
            guard base[index + offset] & 0xC0 == 0x80 else { return nil }
            offset += 1
        }
        return index + length
    }

    /// Whether the object at `container` (just closed) has no key twice.
    ///
    /// Plain ASCII keys compare as bytes; if any key has escapes or non-ASCII
    /// bytes, all compare as Swift strings (canonical equivalence), as
    /// ``JSONValue`` keys do.
    ///
    /// Plain keys: each key sets one bit of a 64-bit mask chosen by its length and
    /// its first and last bytes; only a key whose bit is already set is compared
    /// (as bytes) with the earlier keys, so distinct keys cost one pass.
    func keysAreUnique(_ container: Int) -> Bool {
        let members = Int(scratch.entries[container].count)
        guard members > 1 else { return true }
        // Many keys fill the mask: hash them instead (linear, where pairs would be quadratic).
        guard members <= 32 else { return keyStringsAreUnique(container) }
        let entries = scratch.entries
        let end = entryCount
        var index = container + 1
        var seenBits: UInt64 = 0
        while index < end {
            let key = entries[index]
            if key.flags & (JSONTape.Flags.escaped | JSONTape.Flags.nonASCII) != 0 {
                return keyStringsAreUnique(container)
            }
            let length = Int(key.length)
            var bit = UInt64(truncatingIfNeeded: length)
            if length > 0 {
                let first = base[Int(key.offset)]
                let last = base[Int(key.offset) &+ length &- 1]
                bit = bit &* 7 &+ UInt64(first) &* 3 &+ UInt64(last)
            }
            let mask: UInt64 = 1 << (bit & 63)
            if seenBits & mask != 0 {
                // Compare with the earlier keys (all plain: a key that is not made us return above).
                var earlier = container + 1
                while earlier < index {
                    let other = entries[earlier]
                    if other.length == key.length,
                        JSONTape.sameBytes(base + Int(other.offset), base + Int(key.offset), length)
                    {
                        return false
                    }
                    earlier = valueEnd(entries, earlier + 1)
                }
            }
            seenBits |= mask
            index = valueEnd(entries, index + 1)
        }
        return true
    }

    /// The index just past the value at `value` (and all it contains) in `entries`.
    @inline(__always)
    func valueEnd(_ entries: UnsafeMutablePointer<JSONTape.Entry>, _ value: Int) -> Int {
        entries[value].kind >= JSONTape.Kind.array.rawValue ? Int(entries[value].length) : value + 1
    }

    /// ``keysAreUnique(_:)`` comparing the keys as Swift strings (some key has escapes or non-ASCII bytes).
    func keyStringsAreUnique(_ container: Int) -> Bool {
        var seen = Set<String>(minimumCapacity: Int(scratch.entries[container].count))
        var key = container + 1
        while key < entryCount {
            if !seen.insert(keyString(key)).inserted { return false }
            let value = key + 1
            let entry = scratch.entries[value]
            key = entry.kind >= JSONTape.Kind.array.rawValue ? Int(entry.length) : value + 1
        }
        return true
    }

    /// The first key of the object at `container` that an earlier key of it equals
    /// (the error path of ``keysAreUnique(_:)``, which found one).
    func duplicateKey(_ container: Int) -> Int {
        var seen = Set<String>()
        var key = container + 1
        while key < entryCount {
            if !seen.insert(keyString(key)).inserted { return key }
            let value = key + 1
            let entry = scratch.entries[value]
            key = entry.kind >= JSONTape.Kind.array.rawValue ? Int(entry.length) : value + 1
        }
        return container
    }

    /// The string entry at `index` (a key), unescaped.
    func keyString(_ index: Int) -> String {
        let entry = scratch.entries[index]
        let raw = UnsafeBufferPointer(start: base + Int(entry.offset), count: Int(entry.length))
        if entry.flags & JSONTape.Flags.escaped != 0 { return JSONTape.unescape(raw) }
        return JSONTape.validatedString(raw, isASCII: entry.flags & JSONTape.Flags.nonASCII == 0)
    }
}
