/// Reads the members of one object on a ``JSONTape`` for ``TapeDecodable``
/// conformances, with the rules of the `Decodable` path for well-formed input:
/// a required member must be there with the right type; an optional one may be
/// missing or `null`; an `Int` must be a plain integer literal. Anything else
/// throws ``TapeMiss``.
///
/// Members are found as the keyed container finds them: the key after the last
/// one found is tried first, so reading in document order is linear.
package struct TapeObjectReader {
    /// The tape (the decode that made this reader keeps it alive). Held unmanaged and
    /// read through ``read(_:)`` as a guaranteed reference: no retain and release per read.
    private let tape: Unmanaged<JSONTape>
    /// The object's entry.
    private let object: Int
    /// The key entry to try first.
    private var hint: Int?

    /// A reader of the object at entry `index`; throws when the entry is not an object.
    package init(tape: JSONTape, index: Int) throws(TapeMiss) {
        guard tape.kind(index) == .object else { throw TapeMiss() }
        self.tape = Unmanaged.passUnretained(tape)
        self.object = index
    }

    /// What `body` reads off the tape, which it gets without a retain.
    @inline(__always)
    private func read<Result>(_ body: (JSONTape) -> Result) -> Result {
        tape._withUnsafeGuaranteedRef(body)
    }

    /// The entry of the member `key`'s value, or `nil` when there is none.
    @inline(__always)
    private mutating func find(_ key: StaticString) -> Int? {
        let from = hint
        let object = object
        let found = read { tape -> Int? in
            // The key after the last one found, tried here first (members are usually read in
            // document order); then the tape's full lookup.
            if key.hasPointerRepresentation, let from, from < tape.next(object) {
                let entry = tape.entries[from]
                if entry.kind == JSONTape.Kind.string.rawValue, entry.flags & JSONTape.Flags.escaped == 0,
                    Int(entry.length) == key.utf8CodeUnitCount,
                    JSONTape.sameBytes(tape.bytes + Int(entry.offset), key.utf8Start, key.utf8CodeUnitCount)
                {
                    return from + 1
                }
            }
            // `withUTF8Buffer`, not `utf8Start`: a one-scalar literal has no pointer representation.
            guard let found = key.withUTF8Buffer({ tape.member($0, in: object, hint: from) }) else { return nil }
            return found
        }
        guard let found else { return nil }
        hint = read { $0.next(found) }
        return found
    }

    /// The entry of `key`'s value when it is there and not `null`.
    @inline(__always)
    private mutating func present(_ key: StaticString) -> Int? {
        guard let found = find(key), read({ $0.kind(found) }) != .null else { return nil }
        return found
    }

    @inline(__always)
    private func string(at entry: Int) throws(TapeMiss) -> String {
        guard let string = read({ $0.kind(entry) == .string ? $0.string(entry) : nil }) else { throw TapeMiss() }
        return string
    }

    @inline(__always)
    private func int(at entry: Int) throws(TapeMiss) -> Int {
        let value = read { tape -> Int? in
            guard tape.kind(entry) == .number, let value = tape.smallInteger(entry) else { return nil }
            return Int(exactly: value)
        }
        guard let value else { throw TapeMiss() }
        return value
    }

    @inline(__always)
    private func bool(at entry: Int) throws(TapeMiss) -> Bool {
        switch read({ $0.kind(entry) }) {
        case .true: return true
        case .false: return false
        default: throw TapeMiss()
        }
    }

    /// The string member `key`.
    package mutating func string(_ key: StaticString) throws(TapeMiss) -> String {
        guard let entry = find(key) else { throw TapeMiss() }
        return try string(at: entry)
    }

    /// The string member `key`; `nil` when missing or `null`.
    package mutating func optionalString(_ key: StaticString) throws(TapeMiss) -> String? {
        guard let entry = present(key) else { return nil }
        return try string(at: entry)
    }

    /// The integer member `key`.
    package mutating func int(_ key: StaticString) throws(TapeMiss) -> Int {
        guard let entry = find(key) else { throw TapeMiss() }
        return try int(at: entry)
    }

    /// The integer member `key`; `nil` when missing or `null`.
    package mutating func optionalInt(_ key: StaticString) throws(TapeMiss) -> Int? {
        guard let entry = present(key) else { return nil }
        return try int(at: entry)
    }

    /// The Boolean member `key`.
    package mutating func bool(_ key: StaticString) throws(TapeMiss) -> Bool {
        guard let entry = find(key) else { throw TapeMiss() }
        return try bool(at: entry)
    }

    /// The Boolean member `key`; `nil` when missing or `null`.
    package mutating func optionalBool(_ key: StaticString) throws(TapeMiss) -> Bool? {
        guard let entry = present(key) else { return nil }
        return try bool(at: entry)
    }

    /// The object member `key`, read by `T`.
    package mutating func value<T: TapeDecodable>(_ type: T.Type, _ key: StaticString) throws(TapeMiss) -> T {
        guard let entry = find(key), read({ $0.kind(entry) }) == .object else { throw TapeMiss() }
        var reader = TapeObjectReader(unchecked: tape, index: entry)
        return try T(tape: &reader)
    }

    /// A reader of the object at `index`, known to be one.
    private init(unchecked tape: Unmanaged<JSONTape>, index: Int) {
        self.tape = tape
        self.object = index
    }

    /// The member `key` as a ``JSONValue`` (any JSON); `nil` when missing or `null`.
    package mutating func optionalJSON(_ key: StaticString) -> JSONValue? {
        guard let entry = present(key) else { return nil }
        return read { $0.jsonValue(entry) }
    }

    /// The array-of-strings member `key`.
    package mutating func strings(_ key: StaticString) throws(TapeMiss) -> [String] {
        guard let entry = find(key) else { throw TapeMiss() }
        let strings = read { tape -> [String]? in
            guard tape.kind(entry) == .array else { return nil }
            let end = tape.next(entry)
            var strings: [String] = []
            strings.reserveCapacity(end - entry - 1)
            // A string is one entry, so the elements of an array of strings are the entries up to its end.
            for element in (entry + 1)..<end {
                guard tape.kind(element) == .string else { return nil }
                strings.append(tape.string(element))
            }
            return strings
        }
        guard let strings else { throw TapeMiss() }
        return strings
    }

    /// The object-of-strings member `key`.
    package mutating func stringDictionary(_ key: StaticString) throws(TapeMiss) -> [String: String] {
        guard let entry = find(key) else { throw TapeMiss() }
        let result = read { tape -> [String: String]? in
            guard tape.kind(entry) == .object else { return nil }
            let end = tape.next(entry)
            // Sized up front with the specialised initializer (`reserveCapacity` would look the storage type up at run time).
            var result = [String: String](minimumCapacity: Int(tape.entries[entry].count))
            var member = entry + 1
            while member < end {
                // Keys are unique on a tape; a value that is not a string ends the fast path (it may be a container).
                guard tape.kind(member + 1) == .string else { return nil }
                result[tape.string(member)] = tape.string(member + 1)
                member += 2
            }
            return result
        }
        guard let result else { throw TapeMiss() }
        return result
    }
}
