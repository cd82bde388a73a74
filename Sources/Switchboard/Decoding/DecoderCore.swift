import Foundation

// The decoder proper, generic over where values come from (see `DecodingSource`).
// Shape borrowed from swift-foundation's JSONDecoder: one decoder object per
// decode, which is also the single-value container; struct keyed and unkeyed
// containers; the coding path as a linked `PathNode`, turned into keys only for
// errors; every `decodeIfPresent` overridden to do one lookup; String, Int,
// Bool and Double decoded without going through `Decodable`.

/// The decoder for one decode of one tree.
final class DecoderCore<Source: DecodingSource>: Decoder, SingleValueDecodingContainer {
    /// The value being decoded (changes while nested values decode).
    var value: Source.Value
    /// Where `value` is.
    var node: PathNode
    let options: DecodingOptions

    init(value: Source.Value, node: PathNode, options: DecodingOptions) {
        self.value = value
        self.node = node
        self.options = options
    }

    var codingPath: [any CodingKey] { node.codingPath }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let object = try objectContainer(value, node)
        return KeyedDecodingContainer(KeyedContainer<Key, Source>(decoder: self, object: object, node: node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let array = try arrayContainer(value, node)
        return UnkeyedContainer<Source>(decoder: self, array: array, node: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool {
        Source.isNull(value)
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        try decodeBool(value, node, .none)
    }

    func decode(_ type: String.Type) throws -> String {
        try decodeString(value, node, .none)
    }

    func decode(_ type: Double.Type) throws -> Double {
        try decodeDouble(value, node, .none)
    }

    func decode(_ type: Float.Type) throws -> Float {
        try decodeFloat(value, node, .none)
    }

    func decode(_ type: Int.Type) throws -> Int {
        try decodeInteger(Int.self, value, node, .none)
    }

    func decode(_ type: Int8.Type) throws -> Int8 {
        try decodeInteger(Int8.self, value, node, .none)
    }

    func decode(_ type: Int16.Type) throws -> Int16 {
        try decodeInteger(Int16.self, value, node, .none)
    }

    func decode(_ type: Int32.Type) throws -> Int32 {
        try decodeInteger(Int32.self, value, node, .none)
    }

    func decode(_ type: Int64.Type) throws -> Int64 {
        try decodeInteger(Int64.self, value, node, .none)
    }

    func decode(_ type: UInt.Type) throws -> UInt {
        try decodeInteger(UInt.self, value, node, .none)
    }

    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try decodeInteger(UInt8.self, value, node, .none)
    }

    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try decodeInteger(UInt16.self, value, node, .none)
    }

    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try decodeInteger(UInt32.self, value, node, .none)
    }

    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try decodeInteger(UInt64.self, value, node, .none)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeValue(T.self, value, node, .none)
    }

    // MARK: Containers

    /// `value` as an object whose container sits at `node`, within the depth limit.
    func objectContainer(_ value: Source.Value, _ node: PathNode) throws -> Source.Object {
        guard let object = Source.object(value) else {
            if Source.isNull(value) {
                throw DecodingError.valueNotFound(
                    [String: Any].self,
                    .init(
                        codingPath: node.codingPath,
                        debugDescription: "Cannot get keyed decoding container -- found null value instead"
                    )
                )
            }
            throw mismatch([String: Any].self, value, node, .none)
        }
        try checkDepth(node)
        return object
    }

    /// `value` as an array whose container sits at `node`, within the depth limit.
    func arrayContainer(_ value: Source.Value, _ node: PathNode) throws -> Source.Array {
        guard let array = Source.array(value) else {
            if Source.isNull(value) {
                throw DecodingError.valueNotFound(
                    [Any].self,
                    .init(
                        codingPath: node.codingPath,
                        debugDescription: "Cannot get unkeyed decoding container -- found null value instead"
                    )
                )
            }
            throw mismatch([Any].self, value, node, .none)
        }
        try checkDepth(node)
        return array
    }

    /// Throws when a container at `node` would nest deeper than `options.maxDepth`.
    @inline(__always)
    func checkDepth(_ node: PathNode) throws {
        if node.depth >= options.maxDepth {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: node.codingPath,
                    debugDescription:
                        "The value is nested more than \(options.maxDepth) levels deep (DecodingOptions.maxDepth)."
                )
            )
        }
    }

    // MARK: Scalars

    @inline(__always)
    func decodeString(_ value: Source.Value, _ node: PathNode, _ component: PathComponent) throws -> String {
        if let string = Source.string(value) { return string }
        throw mismatch(String.self, value, node, component)
    }

    @inline(__always)
    func decodeBool(_ value: Source.Value, _ node: PathNode, _ component: PathComponent) throws -> Bool {
        if let bool = Source.bool(value) { return bool }
        if options.lenient, let string = Source.string(value) {
            if string == "true" { return true }
            if string == "false" { return false }
        }
        throw mismatch(Bool.self, value, node, component)
    }

    @inline(__always)
    func decodeInteger<T: FixedWidthInteger>(
        _ type: T.Type,
        _ value: Source.Value,
        _ node: PathNode,
        _ component: PathComponent
    ) throws -> T {
        if let number = Source.number(value) {
            if let result = number.integer(T.self) { return result }
            throw notRepresentable(number, node, component)
        }
        return try lenientNumber(T.self, value, node, component) { $0.integer(T.self) }
    }

    @inline(__always)
    func decodeDouble(_ value: Source.Value, _ node: PathNode, _ component: PathComponent) throws -> Double {
        if let number = Source.number(value) {
            if case .double(let double) = number, double.isFinite { return double }
            if let result = number.double { return result }
            throw notRepresentable(number, node, component)
        }
        return try lenientNumber(Double.self, value, node, component) { $0.double }
    }

    func decodeFloat(_ value: Source.Value, _ node: PathNode, _ component: PathComponent) throws -> Float {
        if let number = Source.number(value) {
            if let result = number.float { return result }
            throw notRepresentable(number, node, component)
        }
        return try lenientNumber(Float.self, value, node, component) { $0.float }
    }

    func decodeDecimal(_ value: Source.Value, _ node: PathNode, _ component: PathComponent) throws -> Decimal {
        if let number = Source.number(value) {
            if let result = number.decimal { return result }
            throw notRepresentable(number, node, component)
        }
        return try lenientNumber(Decimal.self, value, node, component) { $0.decimal }
    }

    /// A numeric string as a number in lenient mode; otherwise a type mismatch.
    func lenientNumber<T>(
        _ type: T.Type,
        _ value: Source.Value,
        _ node: PathNode,
        _ component: PathComponent,
        _ convert: (BodyNumber) -> T?
    ) throws -> T {
        if options.lenient, let string = Source.string(value), JSONNumber.isValid(string.utf8) {
            let number = BodyNumber.text(string)
            if let result = convert(number) { return result }
            throw notRepresentable(number, node, component)
        }
        throw mismatch(T.self, value, node, component)
    }

    func decodeDate(_ value: Source.Value, _ node: PathNode, _ component: PathComponent) throws -> Date {
        let kind = Source.classify(value)
        switch kind {
        case .date(let date):
            return date
        case .string(let string):
            if let date = BodyDates.date(from: string) { return date }
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: node.codingPath(appending: component),
                    debugDescription: "Expected date string to be ISO8601-formatted."
                )
            )
        default:
            throw mismatch(Date.self, kind, node, component)
        }
    }

    func decodeURL(_ value: Source.Value, _ node: PathNode, _ component: PathComponent) throws -> URL {
        let kind = Source.classify(value)
        switch kind {
        case .url(let url):
            return url
        case .string(let string):
            if let url = URL(string: string) { return url }
            throw DecodingError.dataCorrupted(
                .init(codingPath: node.codingPath(appending: component), debugDescription: "Invalid URL string.")
            )
        case .null:
            throw mismatch(URL.self, kind, node, component)
        default:
            // Foundation decodes a URL from a String, and says so.
            throw mismatch(String.self, kind, node, component)
        }
    }

    func decodeData(_ value: Source.Value, _ node: PathNode, _ component: PathComponent) throws -> Data {
        let kind = Source.classify(value)
        switch kind {
        case .string(let string):
            if let data = Data(base64Encoded: string) { return data }
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: node.codingPath(appending: component),
                    debugDescription: "Encountered Data is not valid Base64."
                )
            )
        case .null:
            throw mismatch(Data.self, kind, node, component)
        default:
            throw mismatch(String.self, kind, node, component)
        }
    }

    // MARK: Any Decodable

    /// Decodes `T` from `value`, found at `component` below `node`.
    @inline(__always)
    func decodeValue<T: Decodable>(
        _ type: T.Type,
        _ value: Source.Value,
        _ node: PathNode,
        _ component: PathComponent
    ) throws -> T {
        if let special = try decodeSpecial(T.self, value, node, component) { return special }
        let child = node.appending(component)
        let savedValue = self.value
        let savedNode = self.node
        self.value = value
        self.node = child
        defer {
            self.value = savedValue
            self.node = savedNode
        }
        do {
            return try T(from: self)
        } catch let error as DecodingError {
            throw error
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: child.codingPath, debugDescription: "\(error)", underlyingError: error)
            )
        }
    }

    /// The types decoded without their own `init(from:)`: the scalars (when they
    /// arrive through a generic path, as `[String: String]` members do),
    /// ``JSONValue`` (converted straight from the tree), `Date`, `URL`,
    /// `Decimal` and `Data`.
    @inline(__always)
    func decodeSpecial<T: Decodable>(
        _ type: T.Type,
        _ value: Source.Value,
        _ node: PathNode,
        _ component: PathComponent
    ) throws -> T? {
        if T.self == String.self { return try decodeString(value, node, component) as? T }
        if T.self == Int.self { return try decodeInteger(Int.self, value, node, component) as? T }
        if T.self == Bool.self { return try decodeBool(value, node, component) as? T }
        if T.self == Double.self { return try decodeDouble(value, node, component) as? T }
        if T.self == JSONValue.self { return try jsonValue(value, node, component) as? T }
        if T.self == [String: JSONValue].self { return try jsonObject(value, node, component) as? T }
        if T.self == [JSONValue].self { return try jsonArray(value, node, component) as? T }
        if T.self == Date.self { return try decodeDate(value, node, component) as? T }
        if T.self == URL.self { return try decodeURL(value, node, component) as? T }
        if T.self == Decimal.self { return try decodeDecimal(value, node, component) as? T }
        if T.self == Float.self { return try decodeFloat(value, node, component) as? T }
        if T.self == Int64.self { return try decodeInteger(Int64.self, value, node, component) as? T }
        if T.self == Data.self { return try decodeData(value, node, component) as? T }
        return nil
    }

    // MARK: JSONValue

    /// `value` as a ``JSONValue``, converted directly from the tree.
    func jsonValue(_ value: Source.Value, _ node: PathNode, _ component: PathComponent) throws -> JSONValue {
        if let existing = Source.existingJSONValue(value) { return existing }
        let kind = Source.classify(value)
        switch kind {
        case .null:
            return .null
        case .bool(let bool):
            return .bool(bool)
        case .number(let number):
            guard let text = number.jsonText else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: node.codingPath(appending: component),
                        debugDescription: "Number \(number.text) is not representable in JSON."
                    )
                )
            }
            return .number(JSONNumber(unchecked: text))
        case .string(let string):
            return .string(string)
        case .date(let date):
            return .string(BodyDates.string(from: date))
        case .url(let url):
            return .string(url.absoluteString)
        case .array(let array):
            return .array(try jsonElements(array, node.appending(component)))
        case .object(let object):
            return .object(try jsonMembers(object, node.appending(component)))
        case .other:
            throw mismatch(JSONValue.self, kind, node, component)
        }
    }

    /// `value` as a `[String: JSONValue]`.
    func jsonObject(
        _ value: Source.Value,
        _ node: PathNode,
        _ component: PathComponent
    ) throws -> [String: JSONValue] {
        if let existing = Source.existingJSONValue(value), case .object(let object) = existing {
            return object
        }
        let child = node.appending(component)
        return try jsonMembers(objectContainer(value, child), child)
    }

    /// `value` as a `[JSONValue]`.
    func jsonArray(_ value: Source.Value, _ node: PathNode, _ component: PathComponent) throws -> [JSONValue] {
        if let existing = Source.existingJSONValue(value), case .array(let array) = existing {
            return array
        }
        let child = node.appending(component)
        return try jsonElements(arrayContainer(value, child), child)
    }

    private func jsonMembers(_ object: Source.Object, _ node: PathNode) throws -> [String: JSONValue] {
        try checkDepth(node)
        var members: [String: JSONValue] = [:]
        members.reserveCapacity(Source.count(of: object))
        try Source.forEachMember(of: object) { key, member in
            members[key] = try jsonValue(member, node, .key(NameKey(key)))
        }
        return members
    }

    private func jsonElements(_ array: Source.Array, _ node: PathNode) throws -> [JSONValue] {
        try checkDepth(node)
        let count = Source.count(of: array)
        var elements: [JSONValue] = []
        elements.reserveCapacity(count)
        for index in 0..<count {
            elements.append(try jsonValue(Source.element(of: array, at: index), node, .index(index)))
        }
        return elements
    }

    // MARK: Errors

    /// `valueNotFound` for a null, `typeMismatch` for anything else, in Foundation's words.
    func mismatch(
        _ type: any Any.Type,
        _ value: Source.Value,
        _ node: PathNode,
        _ component: PathComponent
    ) -> DecodingError {
        mismatch(type, Source.classify(value), node, component)
    }

    func mismatch(
        _ type: any Any.Type,
        _ kind: SourceKind<Source>,
        _ node: PathNode,
        _ component: PathComponent
    ) -> DecodingError {
        let path = node.codingPath(appending: component)
        if case .null = kind {
            return .valueNotFound(
                type,
                .init(codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead")
            )
        }
        return .typeMismatch(
            type,
            .init(codingPath: path, debugDescription: "Expected to decode \(type) but found \(kind.phrase) instead.")
        )
    }

    /// A number outside the range (or precision) of the type it decodes as.
    func notRepresentable(_ number: BodyNumber, _ node: PathNode, _ component: PathComponent) -> DecodingError {
        .dataCorrupted(
            .init(
                codingPath: node.codingPath(appending: component),
                debugDescription: "Number \(number.text) is not representable in Swift."
            )
        )
    }
}

// MARK: - Keyed

struct KeyedContainer<Key: CodingKey, Source: DecodingSource>: KeyedDecodingContainerProtocol {
    let decoder: DecoderCore<Source>
    let object: Source.Object
    let node: PathNode

    var codingPath: [any CodingKey] { node.codingPath }

    /// The member names that make keys, sorted so that errors come in the same
    /// order on every run (a dictionary's own order changes from run to run).
    var allKeys: [Key] {
        Source.keys(of: object).sorted().compactMap { Key(stringValue: $0) }
    }

    func contains(_ key: Key) -> Bool {
        Source.value(in: object, forKey: key.stringValue) != nil
    }

    @inline(__always)
    func member(_ key: Key) throws -> Source.Value {
        if let value = Source.value(in: object, forKey: key.stringValue) { return value }
        throw DecodingError.keyNotFound(
            key,
            .init(
                codingPath: node.codingPath,
                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."
            )
        )
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        Source.isNull(try member(key))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try decoder.decodeBool(member(key), node, .key(key))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decoder.decodeString(member(key), node, .key(key))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.decodeDouble(member(key), node, .key(key))
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.decodeFloat(member(key), node, .key(key))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decoder.decodeInteger(Int.self, member(key), node, .key(key))
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try decoder.decodeInteger(Int8.self, member(key), node, .key(key))
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try decoder.decodeInteger(Int16.self, member(key), node, .key(key))
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try decoder.decodeInteger(Int32.self, member(key), node, .key(key))
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decoder.decodeInteger(Int64.self, member(key), node, .key(key))
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try decoder.decodeInteger(UInt.self, member(key), node, .key(key))
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try decoder.decodeInteger(UInt8.self, member(key), node, .key(key))
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decoder.decodeInteger(UInt16.self, member(key), node, .key(key))
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decoder.decodeInteger(UInt32.self, member(key), node, .key(key))
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decoder.decodeInteger(UInt64.self, member(key), node, .key(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decodeValue(T.self, member(key), node, .key(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeBool(value, node, .key(key))
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeString(value, node, .key(key))
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeDouble(value, node, .key(key))
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeFloat(value, node, .key(key))
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeInteger(Int.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeInteger(Int8.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeInteger(Int16.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeInteger(Int32.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeInteger(Int64.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeInteger(UInt.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeInteger(UInt8.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeInteger(UInt16.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeInteger(UInt32.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeInteger(UInt64.self, value, node, .key(key))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeValue(T.self, value, node, .key(key))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type,
        forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try member(key)
        let child = node.appending(.key(key))
        let object = try decoder.objectContainer(value, child)
        return KeyedDecodingContainer(KeyedContainer<NestedKey, Source>(decoder: decoder, object: object, node: child))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let value = try member(key)
        let child = node.appending(.key(key))
        let array = try decoder.arrayContainer(value, child)
        return UnkeyedContainer<Source>(decoder: decoder, array: array, node: child)
    }

    func superDecoder() throws -> any Decoder {
        superDecoder(named: NameKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        superDecoder(named: key)
    }

    private func superDecoder(named key: any CodingKey) -> any Decoder {
        let value = Source.value(in: object, forKey: key.stringValue) ?? Source.null
        return DecoderCore<Source>(value: value, node: node.appending(.key(key)), options: decoder.options)
    }
}

// MARK: - Unkeyed

struct UnkeyedContainer<Source: DecodingSource>: UnkeyedDecodingContainer {
    let decoder: DecoderCore<Source>
    let array: Source.Array
    let node: PathNode
    let total: Int
    private(set) var currentIndex = 0

    init(decoder: DecoderCore<Source>, array: Source.Array, node: PathNode) {
        self.decoder = decoder
        self.array = array
        self.node = node
        self.total = Source.count(of: array)
    }

    var codingPath: [any CodingKey] { node.codingPath }

    var count: Int? { total }

    var isAtEnd: Bool { currentIndex >= total }

    /// The current element, or `valueNotFound` at the end.
    @inline(__always)
    func peek(_ type: any Any.Type) throws -> Source.Value {
        guard currentIndex < total else {
            throw DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: node.codingPath(appending: .index(currentIndex)),
                    debugDescription: "Unkeyed container is at end."
                )
            )
        }
        return Source.element(of: array, at: currentIndex)
    }

    mutating func decodeNil() throws -> Bool {
        if Source.isNull(try peek((Any?).self)) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let result = try decoder.decodeBool(peek(Bool.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let result = try decoder.decodeString(peek(String.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let result = try decoder.decodeDouble(peek(Double.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        let result = try decoder.decodeFloat(peek(Float.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        let result = try decoder.decodeInteger(Int.self, peek(Int.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        let result = try decoder.decodeInteger(Int8.self, peek(Int8.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        let result = try decoder.decodeInteger(Int16.self, peek(Int16.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        let result = try decoder.decodeInteger(Int32.self, peek(Int32.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        let result = try decoder.decodeInteger(Int64.self, peek(Int64.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: UInt.Type) throws -> UInt {
        let result = try decoder.decodeInteger(UInt.self, peek(UInt.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        let result = try decoder.decodeInteger(UInt8.self, peek(UInt8.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        let result = try decoder.decodeInteger(UInt16.self, peek(UInt16.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        let result = try decoder.decodeInteger(UInt32.self, peek(UInt32.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        let result = try decoder.decodeInteger(UInt64.self, peek(UInt64.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let result = try decoder.decodeValue(T.self, peek(T.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeBool(value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeString(value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeDouble(value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeFloat(value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeInteger(Int.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeInteger(Int8.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeInteger(Int16.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeInteger(Int32.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeInteger(Int64.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeInteger(UInt.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeInteger(UInt8.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeInteger(UInt16.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeInteger(UInt32.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeInteger(UInt64.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        guard currentIndex < total else { return nil }
        let value = Source.element(of: array, at: currentIndex)
        if Source.isNull(value) {
            currentIndex += 1
            return nil
        }
        let result = try decoder.decodeValue(T.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try peek(KeyedDecodingContainer<NestedKey>.self)
        let child = node.appending(.index(currentIndex))
        let object = try decoder.objectContainer(value, child)
        currentIndex += 1
        return KeyedDecodingContainer(KeyedContainer<NestedKey, Source>(decoder: decoder, object: object, node: child))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try peek((any UnkeyedDecodingContainer).self)
        let child = node.appending(.index(currentIndex))
        let nested = try decoder.arrayContainer(value, child)
        currentIndex += 1
        return UnkeyedContainer<Source>(decoder: decoder, array: nested, node: child)
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try peek((any Decoder).self)
        let child = node.appending(.index(currentIndex))
        currentIndex += 1
        return DecoderCore<Source>(value: value, node: child, options: decoder.options)
    }
}
