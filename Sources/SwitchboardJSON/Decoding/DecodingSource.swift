import Foundation

/// Where the decoder reads values from: one instance per decode, held by the
/// decoder (``DecodingCore/source``), which every container keeps alive.
///
/// The decoding rules (exact types, number ranges, null versus missing, error
/// texts, depth) live once, in ``DecodingCore`` and the front end
/// (``DecodingFrontEnd``, ``DecodingKeyedContainer``, ``DecodingUnkeyedContainer``);
/// a source only answers "what is this value?" questions about its own
/// representation. Two sources exist, one per kind of body the router is handed
/// on its hot paths: ``DecodingFoundationSource`` (`Any` trees from `JSONSerialization`,
/// `WKScriptMessage.body` or hand-built dictionaries) and ``DecodingTapeSource`` (JSON bytes
/// as the strict scanner parsed them). A ``JSONValue`` (built in code, or from a
/// fixture) is written onto a tape first and read by ``DecodingTapeSource``. A decoder owns its source (the tape, for bytes) and every
/// container owns its decoder, so a `Decoder` or a container a user type keeps
/// stays valid after the decode returns. A value is read only through the source
/// it came from: a tape value is an entry index (no reference to count), a tree
/// value holds its content (its source has no state).
///
/// Every accessor is exact: `bool` answers only for booleans, `number` only for
/// numbers (never for booleans), `string` only for strings.
protocol DecodingSource {
    /// One value of the tree.
    associatedtype Value
    /// An object (string keys).
    associatedtype Object
    /// An array.
    associatedtype Array

    /// The null value and the source it is read with (what a missing `super` key decodes from).
    static var null: (source: Self, value: Value) { get }
    /// Whether `value` is null (`NSNull`, `nil`, `.null`).
    func isNull(_ value: Value) -> Bool
    /// `value` when it is a string.
    func string(_ value: Value) -> String?
    /// `value` when it is a boolean (never for a number).
    func bool(_ value: Value) -> Bool?
    /// `value` when it is a number (never for a boolean).
    func number(_ value: Value) -> DecodingNumber?
    /// `value` when it is an object.
    func object(_ value: Value) -> Object?
    /// `value` when it is an array.
    func array(_ value: Value) -> Array?
    /// What `value` is, for error messages and for the conversions that accept several kinds.
    func classify(_ value: Value) -> DecodingKind<Self>

    /// The member of `object` named `key`, if present (a present null is not `nil`).
    ///
    /// `hint` belongs to the container asking (one per object) and is the source's to
    /// use: the tape tries the member after the last one found first, as synthesised
    /// `init(from:)` asks in declaration order, and indexes a wide object asked in
    /// another order; the other sources ignore it.
    func value(in object: Object, forKey key: String, hint: inout DecodingMemberHint) -> Value?
    /// The member names of `object`.
    func keys(of object: Object) -> [String]
    /// The number of members of `object`.
    func count(of object: Object) -> Int
    /// Calls `body` with every member of `object`.
    func forEachMember(of object: Object, _ body: (String, Value) throws -> Void) rethrows
    /// `object` as `[String: String]` when every member is a string; `nil` otherwise.
    func stringMembers(of object: Object) -> [String: String]?
    /// The number of elements of `array`.
    func count(of array: Array) -> Int
    /// The element of `array` at `index` (`0 ..< count`).
    func element(of array: Array, at index: Int) -> Value

    /// `value` as a ``JSONValue`` in one step, when the source can make it cheaply
    /// (it holds ``JSONValue``s, or converts a whole subtree at once) and it nests
    /// at most `levels` arrays and objects deep; `nil` to convert member by member
    /// (which finds the exact path of a value nested too deep).
    func existingJSONValue(_ value: Value, levels: Int) -> JSONValue?
}

extension DecodingSource {
    /// The default: one pass over the members.
    func stringMembers(of object: Object) -> [String: String]? {
        var result = [String: String](minimumCapacity: count(of: object))
        var allStrings = true
        forEachMember(of: object) { key, member in
            guard allStrings, let string = string(member) else {
                allStrings = false
                return
            }
            result[key] = string
        }
        return allStrings ? result : nil
    }
}

/// A keyed container's lookup state, for ``DecodingSource/value(in:forKey:hint:)`` (only
/// ``DecodingTapeSource`` uses it).
struct DecodingMemberHint {
    /// The entry of the key to try first (0: none): the one after the last member found;
    /// -1 once ``index`` is made.
    var next = 0
    /// How many lookups did not find their key at `next` (and so scanned the object's keys).
    var scans = 0
    /// The entry of each member's value by name, made once a wide object has been scanned
    /// often enough (`Dictionary.init(from:)` asks for its keys in sorted order, not the
    /// document's): each lookup is then one hash, not a scan, so decoding the object is
    /// linear in its size rather than quadratic.
    var index: [String: Int]?
}

/// What a source value is.
enum DecodingKind<Source: DecodingSource> {
    case null
    case bool(Bool)
    case number(DecodingNumber)
    case string(String)
    case array(Source.Array)
    case object(Source.Object)
    /// A date object (`NSDate`, `Date`) in a Foundation tree.
    case date(Date)
    /// A URL object in a Foundation tree.
    case url(URL)
    /// Anything else (not JSON).
    case other(any Any.Type)

    /// The words for what was found, as in
    /// `Expected to decode String but found a number instead.` Foundation's
    /// `JSONDecoder` says `found number` / `found bool`; we add the article so the
    /// message reads as a sentence, and otherwise keep its vocabulary.
    var phrase: String {
        switch self {
        case .null: return "null"
        case .bool: return "a bool"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "a dictionary"
        case .date: return "a date"
        case .url: return "a URL"
        case .other(let type): return "a value of type \(type)"
        }
    }
}
