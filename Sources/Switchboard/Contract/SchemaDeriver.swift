import Foundation

/// Derives the JSON Schema of a `Decodable` type from what its `init(from:)` asks a decoder.
///
/// The type's `init(from:)` runs on a probe (``SchemaProbe``) that records every
/// container it asks for, every key, whether it used `decode` (required) or
/// `decodeIfPresent` (optional, nullable), and the type it asked for. The probe
/// answers with placeholder values. It runs twice, answering differently the
/// second time (keys present / absent, other values); a type whose recorded shape
/// differs between the runs decides by value, and one that throws on the probe
/// checks values: both are marked underivable instead of guessed.
///
/// Types the body decoder reads without their `init(from:)` (strings, numbers with
/// their bounds, `Bool`, `Date`, `URL`, `Data`, `Decimal`, ``JSONValue``), optionals,
/// arrays, sets, `[String: Value]` and `[Int: Value]` dictionaries, and `CaseIterable` enums with
/// `String` or integer raw values are known directly. A ``ContractDescribable`` type
/// supplies or refines its schema. A type that refers to itself is written once
/// under `$defs` and referred to with `$ref`.
///
/// One deriver serves one derivation on one thread; it holds no lock while the
/// user's `init(from:)` runs.
final class SchemaDeriver {
    /// How many probe operations one derivation may make (a type that asks for keys
    /// forever stops here).
    static let budget = 50_000
    /// How deep types may nest inside one another before the derivation stops.
    static let maxNesting = 64

    private var stack: [ObjectIdentifier] = []
    private var memo: [ObjectIdentifier: JSONValue] = [:]
    private var recursive: Set<ObjectIdentifier> = []
    /// The schemas of the types that refer to themselves, by ``definitionName(of:)``.
    private(set) var definitions: [String: JSONValue] = [:]
    private var remaining = SchemaDeriver.budget
    /// The thread the derivation runs on: a probe answers only there (held, so that no other
    /// thread's object can take its address).
    private let owner = Thread.current
    /// Set on the owner thread when the derivation is over (read only there).
    private var finished = false

    /// Whether a probe may record now: on the derivation's thread, while it runs. A type
    /// may keep its decoder, or hand it to another thread: used there or later, the probe
    /// records nothing and throws (its nodes are not shared between threads).
    var isInUse: Bool { Thread.current === owner && !finished }

    /// Ends the derivation: the probes a type kept answer no more.
    func finish() {
        if Thread.current === owner { finished = true }
    }

    /// Counts one probe operation; throws when the probe is used off its derivation (see ``isInUse``).
    func spend() throws {
        guard isInUse else { throw ProbeFailure.unsupported }
        remaining -= 1
        if remaining < 0 { throw ProbeFailure.budget }
    }

    // MARK: Schemas

    /// The schema of `type`.
    func schema<T: Decodable>(_ type: T.Type) -> JSONValue {
        let id = ObjectIdentifier(T.self)
        if let known = memo[id] { return known }
        if let leaf = LeafType.table[id] { return leaf.schema }
        if stack.contains(id) {
            recursive.insert(id)
            return ["$ref": .string("#/$defs/" + SchemaDeriver.definitionName(of: T.self))]
        }
        if T.self == NoReply.self { return ["type": "null"] }
        let result = describedOrDerived(T.self)
        if recursive.contains(id) {
            definitions[SchemaDeriver.definitionName(of: T.self)] = result
            let reference: JSONValue = ["$ref": .string("#/$defs/" + SchemaDeriver.definitionName(of: T.self))]
            memo[id] = reference
            return reference
        }
        memo[id] = result
        return result
    }

    private func describedOrDerived<T: Decodable>(_ type: T.Type) -> JSONValue {
        guard let described = T.self as? any ContractDescribable.Type else { return structural(T.self) }
        if let supplied = described.contractSchema { return supplied.json }
        return described.refineContractSchema(JSONSchema(structural(T.self))).json
    }

    /// The schema of a type that supplies none: a container the decoder knows, a raw-value
    /// enum, or what its `init(from:)` asks for.
    private func structural<T: Decodable>(_ type: T.Type) -> JSONValue {
        if let optional = T.self as? any ContractOptionalProbe.Type {
            return JSONSchema(schema(optional.contractWrapped)).nullable.json
        }
        if let array = T.self as? any ContractArrayProbe.Type {
            return JSONSchema.array(of: JSONSchema(schema(array.contractElement))).json
        }
        if let dictionary = T.self as? any ContractDictionaryProbe.Type {
            return JSONSchema.dictionary(of: JSONSchema(schema(dictionary.contractValue))).json
        }
        if let dictionary = T.self as? any ContractIntKeyedProbe.Type {
            return JSONSchema.integerKeyed(of: JSONSchema(schema(dictionary.contractValue))).json
        }
        // Only when every raw value decodes: a custom `init(from:)` may read something else.
        if let enumeration = T.self as? any (CaseIterable & RawRepresentable).Type,
            let values = SchemaDeriver.rawValues(enumeration), values.allSatisfy({ SchemaDeriver.decodes(T.self, $0) })
        {
            return titled(JSONSchema.enumeration(values).json, T.self)
        }
        return probed(T.self)
    }

    /// The schema recorded by running `T.init(from:)` on the probe twice.
    private func probed<T: Decodable>(_ type: T.Type) -> JSONValue {
        let name = SchemaDeriver.displayName(of: T.self)
        guard stack.count < SchemaDeriver.maxNesting else {
            return JSONSchema.underivable("\(name): types nest more than \(SchemaDeriver.maxNesting) deep").json
        }
        stack.append(ObjectIdentifier(T.self))
        defer { stack.removeLast() }
        let first = ProbeNode()
        let second = ProbeNode()
        do {
            _ = try T(from: SchemaProbe(deriver: self, node: first, mode: .first, codingPath: []))
            _ = try T(from: SchemaProbe(deriver: self, node: second, mode: .second, codingPath: []))
            // A type may swallow the probe's refusal (`try?`) and return: the budget still ends it.
            if remaining < 0 { throw ProbeFailure.budget }
        } catch ProbeFailure.budget {
            return JSONSchema.underivable("\(name): its decoding asks for more than the probe allows").json
        } catch ProbeFailure.noValue(let member) {
            return JSONSchema.underivable("\(name): no value of \(member) to go on with").json
        } catch ProbeFailure.unsupported {
            return JSONSchema.underivable(
                "\(name): its init(from:) uses superDecoder, or its decoder off the derivation's thread"
                    + " or after its derivation"
            ).json
        } catch {
            let hint =
                T.self is any RawRepresentable.Type && !(T.self is any CaseIterable.Type)
                ? "; make it CaseIterable to list its raw values" : ""
            return JSONSchema.underivable(
                "\(name): its init(from:) refuses the probe's placeholder values (it checks values)\(hint)"
            ).json
        }
        let shape = first.schema()
        guard shape == second.schema() else {
            return JSONSchema.underivable("\(name): its init(from:) decodes by the values it reads").json
        }
        // A raw-value type read from its raw value may take only some values (an enum's cases):
        // that the probe's two placeholders were among them says nothing of the rest.
        if let raw = T.self as? any RawRepresentable.Type, SchemaDeriver.checksRawValues(raw, readAs: shape, by: self) {
            return JSONSchema.underivable(
                "\(name): its init(rawValue:) takes only some values; make it CaseIterable to list its raw values"
            ).json
        }
        return titled(shape, T.self)
    }

    private func titled<T>(_ schema: JSONValue, _ type: T.Type) -> JSONValue {
        guard case .object(var members) = schema, members["type"] != nil, members["title"] == nil else {
            return schema
        }
        members["title"] = .string(SchemaDeriver.displayName(of: T.self))
        return .object(members)
    }

    // MARK: Placeholder values

    /// A value of `type` for the probe to return, in `mode`.
    func value<T: Decodable>(_ type: T.Type, mode: ProbeMode) throws -> T {
        let id = ObjectIdentifier(T.self)
        if let leaf = LeafType.table[id] {
            if let value = (mode == .first ? leaf.first : leaf.second) as? T { return value }
        }
        if let optional = T.self as? any ContractOptionalProbe.Type, let none = optional.contractNone as? T {
            return none
        }
        if let array = T.self as? any ContractArrayProbe.Type, let empty = array.contractEmpty as? T { return empty }
        if let dictionary = T.self as? any ContractDictionaryProbe.Type, let empty = dictionary.contractEmpty as? T {
            return empty
        }
        if let dictionary = T.self as? any ContractIntKeyedProbe.Type, let empty = dictionary.contractEmpty as? T {
            return empty
        }
        if let described = T.self as? any ContractDescribable.Type, let example = described.contractExample as? T {
            return example
        }
        if let enumeration = T.self as? any CaseIterable.Type, let first = SchemaDeriver.firstCase(enumeration) as? T {
            return first
        }
        if T.self == NoReply.self, let none = NoReply() as? T { return none }
        let cure =
            T.self is any RawRepresentable.Type
            ? "make it CaseIterable to list its raw values, or give it a contractExample" : "give it a contractExample"
        let name = "\(SchemaDeriver.displayName(of: T.self)) (\(cure))"
        guard !stack.contains(id), stack.count < SchemaDeriver.maxNesting else { throw ProbeFailure.noValue(name) }
        stack.append(id)
        defer { stack.removeLast() }
        do {
            let value = try T(from: SchemaProbe(deriver: self, node: ProbeNode(), mode: .first, codingPath: []))
            if remaining < 0 { throw ProbeFailure.budget }
            return value
        } catch ProbeFailure.budget {
            throw ProbeFailure.budget
        } catch {
            throw ProbeFailure.noValue(name)
        }
    }

    // MARK: Names and enums

    /// The type's name as written in Swift, without its module (`ProductCartOffer`, `Box<Int>`).
    static func displayName(of type: Any.Type) -> String {
        String(describing: type)
    }

    /// The type's name under `$defs`: its module-qualified name, letters, digits, `_` and `.` kept,
    /// the same in every run of the program (the digest depends on it).
    ///
    /// A private or local type's reflected name holds the address of its context
    /// (`App.(unknown context at $55d1…).Node`), which changes from run to run: those
    /// segments are left out (`App.Node`). Two such types that then share a name are told
    /// apart by `_2`, `_3`, … in the order they are first named.
    static func definitionName(of type: Any.Type) -> String {
        let base = String(
            stableReflectedName(of: type).unicodeScalars.map { scalar -> Character in
                let kept =
                    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "."
                return kept && scalar.isASCII ? Character(scalar) : "_"
            })
        let id = ObjectIdentifier(type)
        let index = definitionNames.withLock { names -> Int in
            var claimants = names[base, default: []]
            if let index = claimants.firstIndex(of: id) { return index }
            claimants.append(id)
            names[base] = claimants
            return claimants.count - 1
        }
        return index == 0 ? base : "\(base)_\(index + 1)"
    }

    /// The types named so far, by their name under `$defs` before it is told apart.
    private static let definitionNames = Locked<[String: [ObjectIdentifier]]>([:])

    /// `String(reflecting:)` without the `(unknown context at $…).` segments private and
    /// local types have (their context's address).
    static func stableReflectedName(of type: Any.Type) -> String {
        var text = Substring(String(reflecting: type))
        var result = ""
        let marker = "(unknown context at "
        while let start = text.range(of: marker) {
            result += text[..<start.lowerBound]
            let rest = text[start.upperBound...]
            guard let close = rest.firstIndex(of: ")") else {
                text = rest
                break
            }
            text = rest[rest.index(after: close)...]
            if text.first == "." { text = text.dropFirst() }
        }
        return result + text
    }

    /// The raw values of a `CaseIterable` enum, when they are strings or integers (else `nil`).
    static func rawValues<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> [JSONValue]? {
        var values: [JSONValue] = []
        for element in E.allCases {
            let raw: Any = element.rawValue
            if let string = raw as? String {
                values.append(.string(string))
            } else if let integer = raw as? any BinaryInteger, let exact = Int64(exactly: integer) {
                values.append(.number(JSONNumber(exact)))
            } else if let integer = raw as? any BinaryInteger, let exact = UInt64(exactly: integer) {
                values.append(.number(JSONNumber(exact)))
            } else {
                return nil
            }
        }
        return values.isEmpty ? nil : values
    }

    /// Whether `type` is read as its raw value alone (`shape` is the raw type's schema) and its
    /// `init(rawValue:)` refuses a raw value no type would list (so it takes only some).
    static func checksRawValues<R: RawRepresentable>(
        _ type: R.Type, readAs shape: JSONValue, by deriver: SchemaDeriver
    ) -> Bool {
        guard let raw = R.RawValue.self as? any Decodable.Type, shape == deriver.schema(raw) else { return false }
        if let unlikely = "\u{1}switchboard: no such raw value\u{2}" as? R.RawValue {
            return R(rawValue: unlikely) == nil
        }
        if let integer = R.RawValue.self as? any FixedWidthInteger.Type {
            // Truncated to a narrow type the unlikely value is an ordinary one (121 as `Int8`): values
            // next to the type's extremes are tried too (not the extremes themselves, on which a
            // user's `abs`, negation or `+ 1` in `init?(rawValue:)` would trap).
            func unlikely<I: FixedWidthInteger>(_: I.Type) -> [Any] {
                let first = I(truncatingIfNeeded: 0x5EED_F00D_1234_5679 as UInt64)
                return I.bitWidth > 16 ? [first] : [first, I.max &- 1, I.min &+ 1]
            }
            return unlikely(integer).contains { ($0 as? R.RawValue).map { R(rawValue: $0) == nil } ?? false }
        }
        return false
    }

    /// Whether `value` decodes as `T` with the default options (runs `T.init(from:)`, no lock held).
    static func decodes<T: Decodable>(_ type: T.Type, _ value: JSONValue) -> Bool {
        (try? BodyDecoder().decode(T.self, from: value)) != nil
    }

    private static func firstCase<E: CaseIterable>(_ type: E.Type) -> Any? {
        E.allCases.first
    }
}

/// Which answers the probe gives: the first run finds every key present and
/// non-null; the second finds optional keys absent and other values.
enum ProbeMode {
    case first
    case second
}

/// Why a probe run stopped.
enum ProbeFailure: Error {
    /// The derivation made more operations than ``SchemaDeriver/budget``.
    case budget
    /// No value of the named member type could be made to continue the run.
    case noValue(String)
    /// The type used the decoder in a way the contract cannot describe.
    case unsupported
}

/// A type the body decoder reads itself: its schema and the probe's two placeholder values.
struct LeafType: @unchecked Sendable {
    // `@unchecked`: `first` and `second` hold only the immutable values built below.
    let schema: JSONValue
    let first: Any
    let second: Any

    /// The end of the text, in every regular expression dialect: `$` also matches before a
    /// final newline in ICU's (`NSRegularExpression`) and Python's, where `"AQID\n"` would then
    /// pass a pattern the decoder refuses; ECMA-262's `$` is this.
    static let end = "(?![\\s\\S])"

    /// ISO 8601 as `Date.ISO8601FormatStyle` reads it (the decoder's reader, with and without
    /// fractional seconds): its fraction has 1 to 9 digits, its offset is at most ±18:00, written
    /// `±HH:MM`, `±HHMM`, `±HH`, `±H`, `±H:MM`, or `±HMM` for an hour of 0 or 1 (the reader
    /// refuses `+230`). What the reader takes beyond this is left out: `Z` and then anything, and
    /// hour 24 other than `24:00:00` (swift-foundation's newer reader refuses `24:59:59`).
    static let datePattern =
        "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
        + "T(([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\\.[0-9]{1,9})?|24:00:00(\\.0{1,9})?)"
        + "(Z|[+-]((0[0-9]|1[0-7])(:?[0-5][0-9])?|18(:?00)?|[0-9](:[0-5][0-9])?|[01][0-5][0-9]))" + end

    static let table: [ObjectIdentifier: LeafType] = {
        var table: [ObjectIdentifier: LeafType] = [:]
        func integer<I: FixedWidthInteger & Decodable>(_ type: I.Type) {
            let schema = JSONSchema.integer(minimum: Int64(I.min), maximum: UInt64(I.max)).json
            table[ObjectIdentifier(I.self)] = LeafType(schema: schema, first: I(1), second: I(2))
        }
        integer(Int.self)
        integer(Int8.self)
        integer(Int16.self)
        integer(Int32.self)
        integer(Int64.self)
        integer(UInt.self)
        integer(UInt8.self)
        integer(UInt16.self)
        integer(UInt32.self)
        integer(UInt64.self)
        func number(_ magnitude: String) -> JSONValue {
            let limit = JSONNumber(magnitude).map(JSONValue.number) ?? .null
            let negative = JSONNumber("-" + magnitude).map(JSONValue.number) ?? .null
            return ["type": "number", "minimum": negative, "maximum": limit]
        }
        table[ObjectIdentifier(Double.self)] = LeafType(
            schema: number("1.7976931348623157e308"), first: 1.5 as Double, second: 2.5 as Double)
        table[ObjectIdentifier(Float.self)] = LeafType(
            schema: number("3.4028234663852886e38"), first: 1.5 as Float, second: 2.5 as Float)
        // `Decimal` holds 38 digits times 10^-128 ... 10^127: larger numbers do not decode (nor,
        // in some spellings, numbers below 1e-90: see docs/contract.md, "Agreement").
        table[ObjectIdentifier(Decimal.self)] = LeafType(
            schema: number("1e160"), first: Decimal(1), second: Decimal(2))
        table[ObjectIdentifier(String.self)] = LeafType(schema: ["type": "string"], first: "x", second: "y")
        table[ObjectIdentifier(Bool.self)] = LeafType(schema: ["type": "boolean"], first: true, second: false)
        table[ObjectIdentifier(JSONValue.self)] = LeafType(schema: [:], first: JSONValue.null, second: JSONValue.null)
        table[ObjectIdentifier(Date.self)] = LeafType(
            schema: [
                "type": "string", "format": "date-time",
                "pattern": .string(LeafType.datePattern),
            ],
            first: Date(timeIntervalSince1970: 0), second: Date(timeIntervalSince1970: 1))
        if let first = URL(string: "https://example.com/a"), let second = URL(string: "https://example.com/b") {
            table[ObjectIdentifier(URL.self)] = LeafType(
                schema: ["type": "string", "format": "uri-reference", "minLength": 1], first: first, second: second)
        }
        table[ObjectIdentifier(Data.self)] = LeafType(
            schema: [
                "type": "string", "contentEncoding": "base64",
                "pattern": .string("^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?" + LeafType.end),
            ],
            first: Data([1]), second: Data([2]))
        table[ObjectIdentifier(UUID.self)] = LeafType(
            schema: [
                "type": "string", "format": "uuid",
                "pattern": .string(
                    "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}" + LeafType.end),
            ],
            first: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)),
            second: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2)))
        return table
    }()
}

/// `Optional`, seen from the deriver: its wrapped type and its `.none`.
protocol ContractOptionalProbe {
    static var contractWrapped: any Decodable.Type { get }
    static var contractNone: Self { get }
}

extension Optional: ContractOptionalProbe where Wrapped: Decodable {
    static var contractWrapped: any Decodable.Type { Wrapped.self }
    static var contractNone: Self { .none }
}

/// Arrays and sets (decoded from a JSON array of their elements): the element type, and an empty one.
protocol ContractArrayProbe {
    static var contractElement: any Decodable.Type { get }
    static var contractEmpty: Self { get }
}

extension Array: ContractArrayProbe where Element: Decodable {
    static var contractElement: any Decodable.Type { Element.self }
    static var contractEmpty: Self { [] }
}

extension ContiguousArray: ContractArrayProbe where Element: Decodable {
    static var contractElement: any Decodable.Type { Element.self }
    static var contractEmpty: Self { [] }
}

extension Set: ContractArrayProbe where Element: Decodable {
    static var contractElement: any Decodable.Type { Element.self }
    static var contractEmpty: Self { [] }
}

/// `[String: Value]` (decoded from a JSON object): the value type, and an empty one.
protocol ContractDictionaryProbe {
    static var contractValue: any Decodable.Type { get }
    static var contractEmpty: Self { get }
}

extension Dictionary: ContractDictionaryProbe where Key == String, Value: Decodable {
    static var contractValue: any Decodable.Type { Value.self }
    static var contractEmpty: Self { [:] }
}

/// `[Int: Value]` (decoded from a JSON object whose keys are integers' text): the value type, and an empty one.
protocol ContractIntKeyedProbe {
    static var contractValue: any Decodable.Type { get }
    static var contractEmpty: Self { get }
}

extension Dictionary: ContractIntKeyedProbe where Key == Int, Value: Decodable {
    static var contractValue: any Decodable.Type { Value.self }
    static var contractEmpty: Self { [:] }
}
