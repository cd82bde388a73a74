// Strings, keys and members of a `JSONWriter`: scanned for escapes and copied in one pass,
// sixteen and then eight bytes at a time, straight into the storage after one capacity check.

extension JSONWriter {
    /// Writes an object key, its colon and a string value, as one member (a comma before it
    /// when one is due): one capacity check for both when neither needs escaping, the usual case.
    /// - Returns: the offset just after the key's escaped text (where its closing quote is).
    mutating func member(_ key: String, _ value: String) -> Int {
        JSONWriter.withUTF8(key) { key in
            JSONWriter.withUTF8(value) { value in appendMember(key, value) }
        }
    }

    /// Calls `body` with the UTF-8 of `string`: its own storage when it has one (no copy, no
    /// reference counting; a small string is copied to the stack), else a copy's.
    /// Static: it uses nothing of the writer, and an instance method called from a mutating
    /// one with a closure that mutates the writer could work on a copy of it (its storage
    /// then shared, and copied on the next write).
    @inline(__always)
    static func withUTF8<Result>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
        var string = string
        return string.withUTF8(body)
    }

    /// Appends `value` quoted and escaped, with a comma before it and a colon after it when asked.
    @inline(__always)
    mutating func appendString(_ value: String, comma: Bool, colon: Bool) {
        JSONWriter.withUTF8(value) { utf8 in appendEscaped(utf8, comma: comma, colon: colon) }
    }

    /// Appends `utf8` as a quoted, escaped JSON string (led by a comma, followed by a colon, when asked).
    mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, comma: Bool, colon: Bool) {
        // The comma, the quotes, the colon, and sixteen bytes of slack (the last chunk is stored whole).
        let target = reserve(utf8.count &+ 20)
        if comma {
            target.pointee = UInt8(ascii: ",")
            storage.count &+= 1
        }
        appendReserved(utf8, colon: colon)
    }

    /// Appends `utf8` quoted and escaped (and a colon when asked) into storage this writer alone
    /// holds, with room for `utf8.count + 19` more bytes: one pass when nothing needs escaping.
    @inline(__always)
    private mutating func appendReserved(_ utf8: UnsafeBufferPointer<UInt8>, colon: Bool) {
        let count = utf8.count
        let target = storage.base + storage.count
        target.pointee = UInt8(ascii: "\"")
        let clean = copyClean(utf8, to: target + 1)
        if clean < count, let base = utf8.baseAddress {
            storage.count &+= 1 &+ clean
            appendEscapedRest(base, from: clean, count: count)
            if colon {
                append(UInt8(ascii: "\""), UInt8(ascii: ":"))
            } else {
                append(UInt8(ascii: "\""))
            }
            return
        }
        target[count &+ 1] = UInt8(ascii: "\"")
        if colon {
            target[count &+ 2] = UInt8(ascii: ":")
            storage.count &+= count &+ 3
        } else {
            storage.count &+= count &+ 2
        }
    }

    /// Writes an object key, its colon and an integer value, as one member (see ``member(_:_:)-(String,String)``).
    /// - Returns: the offset just after the key's escaped text (where its closing quote is).
    mutating func member(_ key: String, _ value: Int) -> Int {
        let end = JSONWriter.withUTF8(key) { key in appendKey(key, extra: 20) }
        appendInteger(Int64(value))
        needsComma = true
        return end
    }

    /// ``member(_:_:)-(String,String)`` on the bytes; the value's text ends the member, so a comma is due after it.
    private mutating func appendMember(_ key: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Int {
        let end = appendKey(key, extra: value.count &+ 20)
        appendReserved(value, colon: false)
        needsComma = true
        return end
    }

    /// Writes a key and its colon, after a comma when one is due, and leaves room for `extra`
    /// more bytes (its value) in storage this writer alone holds: returns the offset just after
    /// the key's escaped text.
    private mutating func appendKey(_ key: UnsafeBufferPointer<UInt8>, extra: Int) -> Int {
        let count = key.count
        // A comma, the quotes, the colon, and sixteen bytes of slack (the last chunk is stored whole).
        let target = reserve(count &+ 20 &+ extra)
        var written = 0
        if needsComma {
            target[0] = UInt8(ascii: ",")
            written = 1
        }
        needsComma = false
        target[written] = UInt8(ascii: "\"")
        written &+= 1
        let clean = copyClean(key, to: target + written)
        if clean < count, let base = key.baseAddress {
            // The key needs escaping (rare): the rest of it the slow way.
            storage.count &+= written &+ clean
            appendEscapedRest(base, from: clean, count: count)
            let end = storage.count
            append(UInt8(ascii: "\""), UInt8(ascii: ":"))
            _ = reserve(extra)  // the room promised for the value
            return end
        }
        written &+= count
        let end = storage.count &+ written
        target[written] = UInt8(ascii: "\"")
        target[written &+ 1] = UInt8(ascii: ":")
        storage.count &+= written &+ 2
        return end
    }

    /// Copies the bytes of `utf8` to `output` up to the first chunk that may need an escape;
    /// returns how many were copied (its count when none needs one). Whole chunks are stored:
    /// up to sixteen bytes after the returned count may be written, so `output` must have room.
    @inline(__always)
    private func copyClean(_ utf8: UnsafeBufferPointer<UInt8>, to output: UnsafeMutablePointer<UInt8>) -> Int {
        guard let base = utf8.baseAddress else { return 0 }
        let count = utf8.count
        let separators = escapesLineSeparators
        let source = UnsafeRawPointer(base)
        let target = UnsafeMutableRawPointer(output)
        var index = 0
        if count >= 16 {
            let controlLimit = SIMD16<UInt8>(repeating: 0x20)
            let quotes = SIMD16<UInt8>(repeating: 0x22)
            let backslashes = SIMD16<UInt8>(repeating: 0x5C)
            let leads = SIMD16<UInt8>(repeating: separators ? 0xE2 : 0x22)
            while index &+ 16 <= count {
                let chunk = source.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                let special = (chunk .< controlLimit) .| (chunk .== quotes) .| (chunk .== backslashes)
                if any(special .| (chunk .== leads)) { return index }
                target.storeBytes(of: chunk, toByteOffset: index, as: SIMD16<UInt8>.self)
                index &+= 16
            }
        }
        if index &+ 8 <= count {
            let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if JSONEscapeScan.mayNeedEscape(word, separators: separators) { return index }
            target.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
            index &+= 8
        }
        if index < count {
            let word = JSONEscapeScan.orderedTailWord(base + index, count &- index)
            if JSONEscapeScan.mayNeedEscape(word, separators: separators) { return index }
            // Eight bytes stored, `count - index` of them the string's; the caller writes over the rest.
            target.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
        }
        return count
    }

    /// The rest of a string from `start` (a byte that may need an escape), without the closing quote:
    /// runs that need none are copied whole, found a word at a time.
    private mutating func appendEscapedRest(_ base: UnsafePointer<UInt8>, from start: Int, count: Int) {
        let separators = escapesLineSeparators
        var runStart = start
        var index = start
        while index < count {
            if index &+ 8 <= count,
                !JSONEscapeScan.mayNeedEscape(
                    UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self), separators: separators)
            {
                index &+= 8
                continue
            }
            guard JSONEscapeScan.needsEscape(base, index, count, separators: separators) else {
                index &+= 1
                continue
            }
            append(UnsafeBufferPointer(start: base + runStart, count: index - runStart))
            let byte = base[index]
            switch byte {
            case 0xE2:
                append(#"\u202"#)
                append(base[index + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9"))
                index &+= 3
                runStart = index
                continue
            case 0x22: append(0x5C, 0x22)
            case 0x5C: append(0x5C, 0x5C)
            case 0x08: append(0x5C, UInt8(ascii: "b"))
            case 0x0C: append(0x5C, UInt8(ascii: "f"))
            case 0x0A: append(0x5C, UInt8(ascii: "n"))
            case 0x0D: append(0x5C, UInt8(ascii: "r"))
            case 0x09: append(0x5C, UInt8(ascii: "t"))
            default:
                let hex: StaticString = "0123456789abcdef"
                append(#"\u00"#)
                append(hex.utf8Start[Int(byte >> 4)], hex.utf8Start[Int(byte & 0x0F)])
            }
            index &+= 1
            runStart = index
        }
        append(UnsafeBufferPointer(start: base + runStart, count: count - runStart))
    }
}
