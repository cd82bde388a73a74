import Foundation

// The decoding rules, generic over where values come from (see `DecodingSource`).
//
// Shape borrowed from swift-foundation's JSONDecoder: one decoder object per
// decode, which is also the single-value container; keyed and unkeyed
// containers; the coding path as a linked `DecodingPath`, turned into keys only
// for errors; every `decodeIfPresent` overridden to do one lookup; String, Int,
// Bool and Double decoded without going through `Decodable`.
//
// The rules live here once, and the `Decoder` and containers that `Decodable`
// code calls live once, as protocol extensions (`DecodingFrontEnd`,
// `DecodingKeyedContainer`, `DecodingUnkeyedContainer`). Each source binds them to
// concrete classes in a few lines (at the end of `DecodingFrontEnd.swift`), so that the
// protocol witnesses `Decodable` code calls are specialised for the source (a
// witness of a type generic over the source would run unspecialised: every
// value access an indirect, metadata-driven call).

/// The state and rules of one decode of one tree.
class DecodingCore<Source: DecodingSource> {
    // `@exclusivity(unchecked)`: `value` and `node` are read and written in short
    // accesses by the decoder's own code; a type's `init(from:)` runs between them
    // (`decodeStructured` sets them, calls it, and sets them back), never inside
    // one, so no two accesses overlap, and the run-time checks are pure cost.

    /// The value being decoded (changes while nested values decode).
    @exclusivity(unchecked) final var value: Source.Value
    /// Where `value` is.
    @exclusivity(unchecked) final var node: DecodingPath
    final let options: DecodingOptions
    /// What the values are read from (for bytes: the tape, owned here; every
    /// container owns this decoder).
    final let source: Source

    init(source: Source, value: Source.Value, node: DecodingPath, options: DecodingOptions) {
        self.source = source
        self.value = value
        self.node = node
        self.options = options
    }

    // MARK: Containers

    /// `value` as an object whose container sits at `node`, within the depth limit.
    final func objectContainer(_ value: Source.Value, _ node: DecodingPath) throws -> Source.Object {
        guard let object = source.object(value) else {
            if source.isNull(value) {
                throw DecodingError.valueNotFound(
                    [String: Any].self,
                    .init(
                        codingPath: node.codingPath,
                        debugDescription: "Cannot get keyed decoding container -- found null value instead",
                        underlyingError: DecodingProblem(expected: "an object", found: "null")
                    )
                )
            }
            throw mismatch([String: Any].self, value, node, .none)
        }
        try checkDepth(node)
        return object
    }

    /// `value` as an array whose container sits at `node`, within the depth limit.
    final func arrayContainer(_ value: Source.Value, _ node: DecodingPath) throws -> Source.Array {
        guard let array = source.array(value) else {
            if source.isNull(value) {
                throw DecodingError.valueNotFound(
                    [Any].self,
                    .init(
                        codingPath: node.codingPath,
                        debugDescription: "Cannot get unkeyed decoding container -- found null value instead",
                        underlyingError: DecodingProblem(expected: "an array", found: "null")
                    )
                )
            }
            throw mismatch([Any].self, value, node, .none)
        }
        try checkDepth(node)
        return array
    }

    /// Throws when a container at `node` would nest deeper than the options' limit.
    @inline(__always)
    final func checkDepth(_ node: DecodingPath) throws {
        if node.depth >= options.depthLimit {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: node.codingPath,
                    debugDescription:
                        "The value is nested more than \(options.depthLimit) levels deep (DecodingOptions.maxDepth)."
                )
            )
        }
    }

    // MARK: Scalars

    @inline(__always)
    final func decodeString(_ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep) throws -> String {
        if let string = source.string(value) { return string }
        throw mismatch(String.self, value, node, component)
    }

    @inline(__always)
    final func decodeBool(_ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep) throws -> Bool {
        if let bool = source.bool(value) { return bool }
        if options.lenient, let string = source.string(value) {
            if string == "true" { return true }
            if string == "false" { return false }
        }
        throw mismatch(Bool.self, value, node, component)
    }

    @inline(__always)
    final func decodeInteger<T: FixedWidthInteger>(
        _ type: T.Type,
        _ value: Source.Value,
        _ node: DecodingPath,
        _ component: DecodingStep
    ) throws -> T {
        if let number = source.number(value) {
            if let result = number.integer(T.self) { return result }
            throw notRepresentable(number, as: T.self, node, component)
        }
        return try lenientNumber(T.self, value, node, component) { $0.integer(T.self) }
    }

    @inline(__always)
    final func decodeDouble(_ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep) throws -> Double {
        if let number = source.number(value) {
            if case .double(let double) = number, double.isFinite { return double }
            if let result = number.double { return result }
            throw notRepresentable(number, as: Double.self, node, component)
        }
        return try lenientNumber(Double.self, value, node, component) { $0.double }
    }

    final func decodeFloat(_ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep) throws -> Float {
        if let number = source.number(value) {
            if let result = number.float { return result }
            throw notRepresentable(number, as: Float.self, node, component)
        }
        return try lenientNumber(Float.self, value, node, component) { $0.float }
    }

    final func decodeDecimal(_ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep) throws -> Decimal {
        if let number = source.number(value) {
            if let result = number.decimal { return result }
            throw notRepresentable(number, as: Decimal.self, node, component)
        }
        return try lenientNumber(Decimal.self, value, node, component) { $0.decimal }
    }

    /// A numeric string as a number in lenient mode; otherwise a type mismatch.
    final func lenientNumber<T>(
        _ type: T.Type,
        _ value: Source.Value,
        _ node: DecodingPath,
        _ component: DecodingStep,
        _ convert: (DecodingNumber) -> T?
    ) throws -> T {
        if options.lenient, let string = source.string(value), JSONNumber.isValid(string.utf8) {
            let number = DecodingNumber.text(string)
            if let result = convert(number) { return result }
            throw notRepresentable(number, as: T.self, node, component)
        }
        throw mismatch(T.self, value, node, component)
    }

    final func decodeDate(_ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep) throws -> Date {
        let kind = source.classify(value)
        switch kind {
        case .date(let date):
            return date
        case .string(let string):
            if let date = ISO8601.date(from: string) { return date }
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: node.codingPath(appending: component),
                    debugDescription: "Expected date string to be ISO8601-formatted.",
                    underlyingError: DecodingProblem(
                        expected: "an ISO 8601 date", found: DecodingProblem.found(quoting: string))
                )
            )
        default:
            throw mismatch(Date.self, kind, node, component)
        }
    }

    final func decodeURL(_ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep) throws -> URL {
        let kind = source.classify(value)
        switch kind {
        case .url(let url):
            return url
        case .string(let string):
            if let url = URL(string: string) { return url }
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: node.codingPath(appending: component), debugDescription: "Invalid URL string.",
                    underlyingError: DecodingProblem(expected: "a URL", found: DecodingProblem.found(quoting: string)))
            )
        case .null:
            throw mismatch(URL.self, kind, node, component)
        default:
            // Foundation decodes a URL from a String, and says so.
            throw mismatch(String.self, kind, node, component)
        }
    }

    final func decodeData(_ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep) throws -> Data {
        let kind = source.classify(value)
        switch kind {
        case .string(let string):
            if let data = Data(base64Encoded: string) { return data }
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: node.codingPath(appending: component),
                    debugDescription: "Encountered Data is not valid Base64.",
                    underlyingError: DecodingProblem(
                        expected: "Base64 data", found: DecodingProblem.found(quoting: string))
                )
            )
        case .null:
            throw mismatch(Data.self, kind, node, component)
        default:
            throw mismatch(String.self, kind, node, component)
        }
    }

    // MARK: Any Decodable

    /// Whether `T` is one of the types ``DecodingFrontEnd/specialValue(_:_:_:_:)`` decodes without
    /// their own `init(from:)` (metatype comparisons only): the scalars (when they arrive
    /// through a generic path, as `[String: String]` members do), ``JSONValue`` (converted
    /// straight from the tree), `Date`, `URL`, `Decimal`, `Data`, and `[String: String]` and
    /// `[String]` (read in one pass).
    @inline(__always)
    static func isSpecial<T>(_ type: T.Type) -> Bool {
        T.self == String.self || T.self == Int.self || T.self == Bool.self || T.self == Double.self
            || T.self == JSONValue.self || T.self == [String: JSONValue].self || T.self == [String: String].self
            || T.self == [JSONValue].self || T.self == Date.self || T.self == URL.self || T.self == Decimal.self
            || T.self == Float.self || T.self == Int64.self || T.self == Data.self || T.self == [String].self
    }

    /// `value` as `[String]` in one pass, when it is an array of strings that nests
    /// within the depth limit; `nil` otherwise, and the caller's generic path decodes
    /// it (and reports any problem exactly as `Array.init(from:)` does).
    final func stringArray(_ value: Source.Value, _ node: DecodingPath) -> [String]? {
        guard node.depth + 1 < options.depthLimit, let array = source.array(value) else { return nil }
        let count = source.count(of: array)
        var strings: [String] = []
        strings.reserveCapacity(count)
        for index in 0..<count {
            guard let string = source.string(source.element(of: array, at: index)) else { return nil }
            strings.append(string)
        }
        return strings
    }

    /// `value` as `[String: String]` in one pass over the members, when it is an
    /// object of strings; `nil` otherwise, and the caller's generic path decodes it
    /// (and reports the problem exactly as `Dictionary.init(from:)` does).
    final func stringDictionary(
        _ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep
    ) throws -> [String: String]? {
        guard let object = source.object(value) else { return nil }
        // The path is only built when it is too deep (an error names it).
        if node.depth + 1 >= options.depthLimit { try checkDepth(node.appending(component)) }
        return source.stringMembers(of: object)
    }

    // MARK: JSONValue

    /// How many levels ``jsonValue(_:_:_:)`` converts by plain recursion (the
    /// fast way, for the bodies apps send) before it keeps its own stack.
    static var recursionLevels: Int { 32 }

    /// `value` as a ``JSONValue``, converted directly from the tree.
    ///
    /// The first ``recursionLevels`` levels convert by recursion; deeper ones
    /// with a stack of open containers of their own, so a tree at the depth limit
    /// converts on a small thread stack. Errors name the same paths either way.
    final func jsonValue(_ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep) throws -> JSONValue {
        if node.depth >= Self.recursionLevels { return try jsonValueIteratively(value, node, component) }
        if let existing = existingJSONValue(value, depth: node.depth(appending: component)) { return existing }
        let kind = source.classify(value)
        switch kind {
        case .array(let array):
            return .array(try jsonElements(array, node.appending(component)))
        case .object(let object):
            return .object(try jsonMembers(object, node.appending(component)))
        default:
            guard case .done(let scalar) = try jsonStart(kind, node, component, key: nil) else { return .null }
            return scalar
        }
    }

    /// ``jsonValue(_:_:_:)`` without recursion.
    private final func jsonValueIteratively(
        _ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep
    ) throws -> JSONValue {
        var open: DecodingJSONFrame<Source>
        switch try jsonStart(value, node, component, key: nil) {
        case .done(let scalar): return scalar
        case .open(let frame): open = frame
        }
        var stack: [DecodingJSONFrame<Source>] = []
        while true {
            if let (child, step, key) = open.nextChild() {
                switch try jsonStart(child, open.node, step, key: key) {
                case .done(let scalar):
                    open.add(scalar, key: key)
                case .open(let frame):
                    stack.append(open)
                    open = frame
                }
                continue
            }
            let finished = open.built
            guard let parent = stack.popLast() else { return finished }
            parent.add(finished, key: open.key)
            open = parent
        }
    }

    /// What ``jsonValue(_:_:_:)`` does with one value: a scalar (or a value that
    /// already is a `JSONValue`) is done; an array or object opens a container
    /// at `node.appending(component)`, within the depth limit.
    private final func jsonStart(
        _ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep, key: String?
    ) throws -> DecodingJSONStart<Source> {
        if let existing = existingJSONValue(value, depth: node.depth(appending: component)) { return .done(existing) }
        return try jsonStart(source.classify(value), node, component, key: key)
    }

    /// ``jsonStart(_:_:_:key:)`` for a value already classified.
    private final func jsonStart(
        _ kind: DecodingKind<Source>, _ node: DecodingPath, _ component: DecodingStep, key: String?
    ) throws -> DecodingJSONStart<Source> {
        switch kind {
        case .null:
            return .done(.null)
        case .bool(let bool):
            return .done(.bool(bool))
        case .number(let number):
            guard let text = number.jsonText else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: node.codingPath(appending: component),
                        debugDescription: "Number \(number.text) is not representable in JSON."
                    )
                )
            }
            return .done(.number(JSONNumber(unchecked: text)))
        case .string(let string):
            return .done(.string(string))
        case .date(let date):
            guard let text = ISO8601.format(date) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: node.codingPath(appending: component),
                        debugDescription: "Date \(date.timeIntervalSince1970)s since 1970 is out of ISO 8601 range."
                    )
                )
            }
            return .done(.string(text))
        case .url(let url):
            return .done(.string(url.absoluteString))
        case .array(let array):
            let child = node.appending(component)
            try checkDepth(child)
            return .open(DecodingJSONFrame(source: source, array: array, node: child, key: key))
        case .object(let object):
            let child = node.appending(component)
            try checkDepth(child)
            return .open(DecodingJSONFrame(source: source, object: object, node: child, key: key))
        case .other:
            throw mismatch(JSONValue.self, kind, node, component)
        }
    }

    /// `value`, found at `depth`, as a ``JSONValue`` in one step when the source can
    /// make it so and it stays within the depth limit (the limit counts from `depth`).
    @inline(__always)
    final func existingJSONValue(_ value: Source.Value, depth: Int) -> JSONValue? {
        source.existingJSONValue(value, levels: options.depthLimit - depth)
    }

    /// `value` as a `[String: JSONValue]`.
    final func jsonObject(
        _ value: Source.Value,
        _ node: DecodingPath,
        _ component: DecodingStep
    ) throws -> [String: JSONValue] {
        if let existing = existingJSONValue(value, depth: node.depth(appending: component)),
            case .object(let object) = existing
        {
            return object
        }
        let child = node.appending(component)
        return try jsonMembers(objectContainer(value, child), child)
    }

    /// `value` as a `[JSONValue]`.
    final func jsonArray(_ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep) throws -> [JSONValue] {
        if let existing = existingJSONValue(value, depth: node.depth(appending: component)),
            case .array(let array) = existing
        {
            return array
        }
        let child = node.appending(component)
        return try jsonElements(arrayContainer(value, child), child)
    }

    private final func jsonMembers(_ object: Source.Object, _ node: DecodingPath) throws -> [String: JSONValue] {
        try checkDepth(node)
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(source.count(of: object))
        try source.forEachMember(of: object) { key, member in
            members[key] = try jsonValue(member, node, .key(DecodingMemberKey(key)))
        }
        return members
    }

    private final func jsonElements(_ array: Source.Array, _ node: DecodingPath) throws -> [JSONValue] {
        try checkDepth(node)
        let count = source.count(of: array)
        var elements: [JSONValue] = []
        elements.reserveCapacity(count)
        for index in 0..<count {
            elements.append(try jsonValue(source.element(of: array, at: index), node, .index(index)))
        }
        return elements
    }

    // MARK: Errors

    /// `valueNotFound` for a null, `typeMismatch` for anything else, in Foundation's words.
    final func mismatch(
        _ type: any Any.Type,
        _ value: Source.Value,
        _ node: DecodingPath,
        _ component: DecodingStep
    ) -> DecodingError {
        mismatch(type, source.classify(value), node, component)
    }

    final func mismatch(
        _ type: any Any.Type,
        _ kind: DecodingKind<Source>,
        _ node: DecodingPath,
        _ component: DecodingStep
    ) -> DecodingError {
        let path = node.codingPath(appending: component)
        if case .null = kind {
            return .valueNotFound(
                type,
                .init(
                    codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead",
                    underlyingError: DecodingProblem(expected: DecodingProblem.expected(type), found: "null"))
            )
        }
        return .typeMismatch(
            type,
            .init(
                codingPath: path, debugDescription: "Expected to decode \(type) but found \(kind.phrase) instead.",
                underlyingError: DecodingProblem(expected: DecodingProblem.expected(type), found: kind.foundWords))
        )
    }

    /// A number outside the range (or precision) of the type it decodes as.
    final func notRepresentable(
        _ number: DecodingNumber, as type: any Any.Type, _ node: DecodingPath, _ component: DecodingStep
    ) -> DecodingError {
        .dataCorrupted(
            .init(
                codingPath: node.codingPath(appending: component),
                debugDescription: "Number \(number.text) is not representable in Swift.",
                underlyingError: DecodingProblem(
                    expected: type is any FixedWidthInteger.Type
                        ? DecodingProblem.expected(type) : "a number in the range of \(type)",
                    found: DecodingProblem.found(number: number.text))
            )
        )
    }
}

/// One step of ``DecodingCore/jsonValue(_:_:_:)``: a finished value, or a container to fill.
enum DecodingJSONStart<Source: DecodingSource> {
    case done(JSONValue)
    case open(DecodingJSONFrame<Source>)
}

/// An array or object of the source being converted to a ``JSONValue``.
final class DecodingJSONFrame<Source: DecodingSource> {
    /// Where the container is (its children's errors and depth are counted from here).
    let node: DecodingPath
    /// The container's key in its parent object, if its parent is an object.
    let key: String?
    private let source: Source
    private let array: Source.Array?
    private let members: [(key: String, value: Source.Value)]
    private var next = 0
    private var elements: [JSONValue] = []
    private var object: [String: JSONValue] = [:]

    init(source: Source, array: Source.Array, node: DecodingPath, key: String?) {
        self.source = source
        self.array = array
        self.node = node
        self.key = key
        members = []
        elements.reserveCapacity(source.count(of: array))
    }

    init(source: Source, object: Source.Object, node: DecodingPath, key: String?) {
        self.source = source
        array = nil
        self.node = node
        self.key = key
        var members: [(key: String, value: Source.Value)] = []
        members.reserveCapacity(source.count(of: object))
        source.forEachMember(of: object) { key, value in members.append((key, value)) }
        self.members = members
        self.object.reserveCapacity(members.count)
    }

    /// The next child, its step from this container and its key; `nil` when all are done.
    func nextChild() -> (Source.Value, DecodingStep, String?)? {
        if let array {
            guard next < source.count(of: array) else { return nil }
            defer { next += 1 }
            return (source.element(of: array, at: next), .index(next), nil)
        }
        guard next < members.count else { return nil }
        defer { next += 1 }
        let member = members[next]
        return (member.value, .key(DecodingMemberKey(member.key)), member.key)
    }

    /// Adds a converted child.
    func add(_ value: JSONValue, key: String?) {
        if array == nil, let key {
            object[key] = value
        } else {
            elements.append(value)
        }
    }

    /// The converted container.
    var built: JSONValue { array == nil ? .object(object) : .array(elements) }
}
