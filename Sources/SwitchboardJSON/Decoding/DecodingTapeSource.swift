import Foundation

/// One value on a ``JSONTape``: the entry's index.
///
/// A value is only read through the ``DecodingTapeSource`` it came from, which the
/// decoder holds (owning the tape) and every container keeps through its
/// decoder: a value holds no reference, so passing it around counts none, and
/// a decoder or container a user type keeps after `init(from:)` returns keeps
/// the tape.
struct DecodingTapeValue {
    let index: Int

    @inline(__always)
    init(_ index: Int) {
        self.index = index
    }
}

/// An array on a tape. Element `i` of a flat array (scalars only) is one
/// step away; other arrays keep a cursor, so reading them in order is linear.
struct DecodingTapeArray {
    let value: DecodingTapeValue
    let count: Int
    let cursor: DecodingTapeCursor?
}

/// Where the last element read of a non-flat array was.
final class DecodingTapeCursor {
    var element = 0
    var entry: Int

    init(first entry: Int) {
        self.entry = entry
    }
}

/// Reads a ``JSONTape`` (what the strict byte reader produces) in place: no
/// `Any` boxes, no ``JSONValue`` tree; strings are made when a field asks.
struct DecodingTapeSource: DecodingSource {
    typealias Value = DecodingTapeValue
    typealias Object = DecodingTapeValue
    typealias Array = DecodingTapeArray

    /// The tape read (owned: the decoder holding this source keeps it alive).
    let tape: JSONTape

    static var null: (source: DecodingTapeSource, value: DecodingTapeValue) {
        (DecodingTapeSource(tape: JSONTape.null), DecodingTapeValue(0))
    }

    @inline(__always)
    func entry(_ value: DecodingTapeValue) -> JSONTape.Entry { tape.entries[value.index] }

    @inline(__always)
    func isNull(_ value: DecodingTapeValue) -> Bool {
        entry(value).kind == JSONTape.Kind.null.rawValue
    }

    @inline(__always)
    func string(_ value: DecodingTapeValue) -> String? {
        guard entry(value).kind == JSONTape.Kind.string.rawValue else { return nil }
        return tape.string(value.index)
    }

    @inline(__always)
    func bool(_ value: DecodingTapeValue) -> Bool? {
        switch entry(value).kind {
        case JSONTape.Kind.true.rawValue: return true
        case JSONTape.Kind.false.rawValue: return false
        default: return nil
        }
    }

    @inline(__always)
    func number(_ value: DecodingTapeValue) -> DecodingNumber? {
        guard entry(value).kind == JSONTape.Kind.number.rawValue else { return nil }
        if let int = tape.smallInteger(value.index) { return .int(int) }
        return .text(JSONTape.validatedString(tape.text(value.index), isASCII: true))
    }

    @inline(__always)
    func object(_ value: DecodingTapeValue) -> DecodingTapeValue? {
        entry(value).kind == JSONTape.Kind.object.rawValue ? value : nil
    }

    @inline(__always)
    func array(_ value: DecodingTapeValue) -> DecodingTapeArray? {
        let entry = entry(value)
        guard entry.kind == JSONTape.Kind.array.rawValue else { return nil }
        let flat = entry.flags & JSONTape.Flags.flat != 0
        return DecodingTapeArray(
            value: value, count: Int(entry.count), cursor: flat ? nil : DecodingTapeCursor(first: value.index + 1))
    }

    func classify(_ value: DecodingTapeValue) -> DecodingKind<DecodingTapeSource> {
        switch tape.kind(value.index) {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .number: return number(value).map { .number($0) } ?? .null
        case .string: return .string(tape.string(value.index))
        case .array: return array(value).map { .array($0) } ?? .null
        case .object: return .object(value)
        }
    }

    @inline(__always)
    func value(in object: DecodingTapeValue, forKey key: String, hint: inout DecodingMemberHint) -> DecodingTapeValue? {
        let next = hint.next
        if next > 0, let found = tape.member(key, in: object.index, at: next) {
            hint.next = tape.next(found)
            return DecodingTapeValue(found)
        }
        return unhintedValue(in: object, forKey: key, hint: &hint)
    }

    /// The number of scans of an object's keys after which an object of at least
    /// ``indexedMembers`` members is indexed: a struct's handful of fields asked out of order
    /// never are, a dictionary's thousands are after a few lookups.
    static var scansBeforeIndexing: Int { 8 }
    static var indexedMembers: Int { 64 }

    /// ``value(in:forKey:hint:)`` when the hint did not name the member: a scan of the object's
    /// keys, counted, until a wide object scanned often is indexed (``DecodingMemberHint/index``; `next`
    /// is then -1, which sends every later lookup here).
    @inline(never)
    func unhintedValue(in object: DecodingTapeValue, forKey key: String, hint: inout DecodingMemberHint)
        -> DecodingTapeValue?
    {
        if hint.next >= 0 {
            hint.scans &+= 1
            if hint.scans < DecodingTapeSource.scansBeforeIndexing
                || count(of: object) < DecodingTapeSource.indexedMembers
            {
                guard let found = tape.member(key, in: object.index) else { return nil }
                hint.next = tape.next(found)
                return DecodingTapeValue(found)
            }
            let index = memberIndex(of: object)
            DecodingTapeSource.indexLock.withLock { _ in
                if hint.index == nil { hint.index = index }
                hint.next = -1
            }
        }
        let found = DecodingTapeSource.indexLock.withLock { _ in hint.index?[key] }
        guard let found else { return nil }
        return DecodingTapeValue(found)
    }

    /// Guards ``DecodingMemberHint/index`` of every container. A container is not `Sendable`, but a
    /// user can still share one between threads (`nonisolated(unsafe)`): without the lock, two threads could store an index at
    /// once, or one read it while another replaced it, and free the dictionary twice. Taken
    /// only on an indexed object's lookups (one hash each already), never on the hinted path.
    static let indexLock = Locked(())

    /// The entry of each member's value of `object` by name (the first, were two names equal:
    /// the scanner rejects that).
    @inline(never)
    func memberIndex(of object: DecodingTapeValue) -> [String: Int] {
        var index = [String: Int](minimumCapacity: count(of: object))
        forEachKey(of: object) { key in
            let name = tape.string(key)
            if index[name] == nil { index[name] = key + 1 }
        }
        return index
    }

    func keys(of object: DecodingTapeValue) -> [String] {
        var keys: [String] = []
        keys.reserveCapacity(Int(entry(object).count))
        forEachKey(of: object) { keys.append(tape.string($0)) }
        return keys
    }

    func count(of object: DecodingTapeValue) -> Int {
        Int(entry(object).count)
    }

    func forEachMember(of object: DecodingTapeValue, _ body: (String, DecodingTapeValue) throws -> Void) rethrows {
        let tape = self.tape
        var key = object.index + 1
        let end = Int(entry(object).length)
        while key < end {
            try body(tape.string(key), DecodingTapeValue(key + 1))
            key = tape.next(key + 1)
        }
    }

    /// Every member a string: the dictionary is made in one step, its storage allocated by
    /// specialised code (see ``JSONTape/dictionary(_:of:)``).
    func stringMembers(of object: DecodingTapeValue) -> [String: String]? {
        var value = object.index + 2
        let end = Int(entry(object).length)
        while value < end {
            guard tape.entries[value].kind == JSONTape.Kind.string.rawValue else { return nil }
            value += 2
        }
        return tape.dictionary(object.index, of: String.self)
    }

    /// Calls `body` with the entry index of every key of `object`.
    @inline(__always)
    func forEachKey(of object: DecodingTapeValue, _ body: (Int) -> Void) {
        var key = object.index + 1
        let end = Int(entry(object).length)
        while key < end {
            body(key)
            key = tape.next(key + 1)
        }
    }

    @inline(__always)
    func count(of array: DecodingTapeArray) -> Int {
        array.count
    }

    @inline(__always)
    func element(of array: DecodingTapeArray, at index: Int) -> DecodingTapeValue {
        guard let cursor = array.cursor else { return DecodingTapeValue(array.value.index + 1 + index) }
        if index < cursor.element {
            cursor.element = 0
            cursor.entry = array.value.index + 1
        }
        while cursor.element < index {
            cursor.entry = tape.next(cursor.entry)
            cursor.element += 1
        }
        return DecodingTapeValue(cursor.entry)
    }

    /// The tape converts a whole subtree to ``JSONValue`` directly, which is
    /// cheaper than member-by-member conversion through the decoder.
    @inline(__always)
    func existingJSONValue(_ value: DecodingTapeValue, levels: Int) -> JSONValue? {
        guard tape.nests(value.index, within: levels) else { return nil }
        return tape.jsonValue(value.index)
    }
}

extension BodyDecoder {
    /// Decodes `type` from the value at entry `index` of a tape, with the same
    /// rules as the other sources (the path starts at `body`).
    func decode<T: Decodable>(_ type: T.Type, fromTape tape: JSONTape, at index: Int) throws(BodyDecodingError) -> T {
        let root = DecodingTapeValue(index)
        return try BodyDecoder.run {
            try DecodingTapeDecoder(source: DecodingTapeSource(tape: tape), value: root, node: .root, options: options)
                .decodeValue(T.self, root, .root, .none)
        }
    }

    /// Decodes `type` from the member `key` of the object at entry `index` of a
    /// tape (`body.customData…`), as ``decode(_:from:at:)-(_,Any?,_)`` does for a Foundation tree.
    func decode<T: Decodable>(
        _ type: T.Type, fromTape tape: JSONTape, at index: Int, member key: String
    ) throws(BodyDecodingError) -> T {
        return try BodyDecoder.run {
            try BodyDecoder.member(
                T.self, at: key, of: DecodingTapeValue(index), in: DecodingTapeSource(tape: tape),
                decoder: DecodingTapeDecoder.self,
                options: options)
        }
    }
}
