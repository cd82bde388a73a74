import Foundation

/// One value on a ``JSONTape``: the tape and the entry's index.
///
/// The value owns its tape (a strong reference): a decoder or container that a
/// user type keeps after `init(from:)` returns keeps the tape, so reading from
/// it later is safe.
struct TapeValue {
    let tape: JSONTape
    let index: Int

    @inline(__always)
    init(_ tape: JSONTape, _ index: Int) {
        self.tape = tape
        self.index = index
    }

    @inline(__always)
    var entry: JSONTape.Entry { tape.entries[index] }
}

/// An array on a tape. Element `i` of a flat array (scalars only) is one
/// step away; other arrays keep a cursor, so reading them in order is linear.
struct TapeArray {
    let value: TapeValue
    let count: Int
    let cursor: TapeCursor?
}

/// Where the last element read of a non-flat array was.
final class TapeCursor {
    var element = 0
    var entry: Int

    init(first entry: Int) {
        self.entry = entry
    }
}

/// Reads a ``JSONTape`` (what the strict byte reader produces) in place: no
/// `Any` boxes, no ``JSONValue`` tree; strings are made when a field asks.
enum TapeSource: BodySource {
    typealias Value = TapeValue
    typealias Object = TapeValue
    typealias Array = TapeArray

    static var null: TapeValue { TapeValue(JSONTape.null, 0) }

    @inline(__always)
    static func isNull(_ value: TapeValue) -> Bool {
        value.entry.kind == JSONTape.Kind.null.rawValue
    }

    @inline(__always)
    static func string(_ value: TapeValue) -> String? {
        guard value.entry.kind == JSONTape.Kind.string.rawValue else { return nil }
        return value.tape.string(value.index)
    }

    @inline(__always)
    static func bool(_ value: TapeValue) -> Bool? {
        switch value.entry.kind {
        case JSONTape.Kind.true.rawValue: return true
        case JSONTape.Kind.false.rawValue: return false
        default: return nil
        }
    }

    @inline(__always)
    static func number(_ value: TapeValue) -> BodyNumber? {
        guard value.entry.kind == JSONTape.Kind.number.rawValue else { return nil }
        if let int = value.tape.smallInteger(value.index) { return .int(int) }
        return .text(JSONTape.validatedString(value.tape.text(value.index), isASCII: true))
    }

    @inline(__always)
    static func object(_ value: TapeValue) -> TapeValue? {
        value.entry.kind == JSONTape.Kind.object.rawValue ? value : nil
    }

    @inline(__always)
    static func array(_ value: TapeValue) -> TapeArray? {
        let entry = value.entry
        guard entry.kind == JSONTape.Kind.array.rawValue else { return nil }
        let flat = entry.flags & JSONTape.Flags.flat != 0
        return TapeArray(value: value, count: Int(entry.count), cursor: flat ? nil : TapeCursor(first: value.index + 1))
    }

    static func classify(_ value: TapeValue) -> SourceKind<TapeSource> {
        switch value.tape.kind(value.index) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return number(value).map { .number($0) } ?? .null
        case .string: return .string(value.tape.string(value.index))
        case .array: return array(value).map { .array($0) } ?? .null
        case .object: return .object(value)
        }
    }

    @inline(__always)
    static func value(in object: TapeValue, forKey key: String, hint: inout Int) -> TapeValue? {
        var key = key
        let tape = object.tape
        let tried = hint
        guard let found = key.withUTF8({ tape.member($0, in: object.index, hint: tried > 0 ? tried : nil) }) else {
            return nil
        }
        hint = tape.next(found)
        return TapeValue(tape, found)
    }

    static func keys(of object: TapeValue) -> [String] {
        var keys: [String] = []
        keys.reserveCapacity(Int(object.entry.count))
        forEachKey(of: object) { keys.append(object.tape.string($0)) }
        return keys
    }

    static func count(of object: TapeValue) -> Int {
        Int(object.entry.count)
    }

    static func forEachMember(of object: TapeValue, _ body: (String, TapeValue) throws -> Void) rethrows {
        let tape = object.tape
        var key = object.index + 1
        let end = Int(object.entry.length)
        while key < end {
            try body(tape.string(key), TapeValue(tape, key + 1))
            key = tape.next(key + 1)
        }
    }

    /// Calls `body` with the entry index of every key of `object`.
    @inline(__always)
    static func forEachKey(of object: TapeValue, _ body: (Int) -> Void) {
        let tape = object.tape
        var key = object.index + 1
        let end = Int(object.entry.length)
        while key < end {
            body(key)
            key = tape.next(key + 1)
        }
    }

    @inline(__always)
    static func count(of array: TapeArray) -> Int {
        array.count
    }

    @inline(__always)
    static func element(of array: TapeArray, at index: Int) -> TapeValue {
        let tape = array.value.tape
        guard let cursor = array.cursor else { return TapeValue(tape, array.value.index + 1 + index) }
        if index < cursor.element {
            cursor.element = 0
            cursor.entry = array.value.index + 1
        }
        while cursor.element < index {
            cursor.entry = tape.next(cursor.entry)
            cursor.element += 1
        }
        return TapeValue(tape, cursor.entry)
    }

    /// The tape converts a whole subtree to ``JSONValue`` directly, which is
    /// cheaper than member-by-member conversion through the decoder.
    @inline(__always)
    static func existingJSONValue(_ value: TapeValue, levels: Int) -> JSONValue? {
        guard value.tape.nests(value.index, within: levels) else { return nil }
        return value.tape.jsonValue(value.index)
    }
}

extension BodyDecoder {
    /// Decodes `type` from the value at entry `index` of a tape, with the same
    /// rules as the other sources (the path starts at `body`).
    func decode<T: Decodable>(_ type: T.Type, fromTape tape: JSONTape, at index: Int) throws(BodyDecodingError) -> T {
        let root = TapeValue(tape, index)
        return try BodyDecoder.run {
            try TapeDecoder(value: root, node: .root, options: options).decodeValue(T.self, root, .root, .none)
        }
    }

    /// Decodes `type` from the member `key` of the object at entry `index` of a
    /// tape (`body.customData…`), as ``decode(_:from:at:)-(_,Any?,_)`` does for a Foundation tree.
    func decode<T: Decodable>(
        _ type: T.Type, fromTape tape: JSONTape, at index: Int, member key: String
    ) throws(BodyDecodingError) -> T {
        let root = TapeValue(tape, index)
        return try BodyDecoder.run {
            try BodyDecoder.member(T.self, at: key, of: root, decoder: TapeDecoder.self, options: options)
        }
    }
}
