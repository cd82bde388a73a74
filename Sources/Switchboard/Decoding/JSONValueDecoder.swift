import Foundation

// Front ends for `JSONValue` tree: the `Decoder` and containers that `Decodable`
// code calls, forwarding to the rules in `DecoderCore`. Keep this file and its
// sibling for the other source identical apart from the source type.

/// The decoder for one decode of a `JSONValue` tree; also its single-value container.
final class JSONValueDecoder: DecoderCore<JSONValueSource>, Decoder, SingleValueDecodingContainer, FrontEnd {
    var core: DecoderCore<JSONValueSource> { self }

    var codingPath: [any CodingKey] { node.codingPath }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let object = try objectContainer(value, node)
        return KeyedDecodingContainer(JSONValueKeyedContainer<Key>(decoder: self, object: object, node: node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let array = try arrayContainer(value, node)
        return JSONValueUnkeyedContainer(decoder: self, array: array, node: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    func decodeNil() -> Bool {
        JSONValueSource.isNull(value)
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

    /// Decodes `T` from `value`, found at `component` below `node`.
    @inline(__always)
    func decodeValue<T: Decodable>(
        _ type: T.Type,
        _ value: JSONValueSource.Value,
        _ node: DecodingPath,
        _ component: DecodingStep
    ) throws -> T {
        // Only the special types go through `decodeSpecial`: its `T?` result costs a
        // runtime metadata lookup per call for a `T` the optimiser cannot see.
        if DecoderCore<JSONValueSource>.isSpecial(T.self) { return try decodeSpecialValue(T.self, value, node, component) }
        return try decodeStructured(T.self, value, node, component)
    }

    /// Decodes one of the types ``DecoderCore/isSpecial(_:)`` names.
    @inline(never)
    func decodeSpecialValue<T: Decodable>(
        _ type: T.Type,
        _ value: JSONValueSource.Value,
        _ node: DecodingPath,
        _ component: DecodingStep
    ) throws -> T {
        if let special = try decodeSpecial(T.self, value, node, component) { return special }
        return try decodeStructured(T.self, value, node, component)
    }

    /// Decodes `T` through its own `init(from:)`, with this decoder moved to `value`.
    @inline(__always)
    func decodeStructured<T: Decodable>(
        _ type: T.Type,
        _ value: JSONValueSource.Value,
        _ node: DecodingPath,
        _ component: DecodingStep
    ) throws -> T {
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

}

// The containers are classes: the standard library's container box copies its
// container for every call, and copying one reference is cheaper than copying
// a struct of three.

/// The keyed container of a `JSONValue` tree object.
final class JSONValueKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    typealias Source = JSONValueSource

    let decoder: JSONValueDecoder
    let object: Source.Object
    let node: DecodingPath

    init(decoder: JSONValueDecoder, object: Source.Object, node: DecodingPath) {
        self.decoder = decoder
        self.object = object
        self.node = node
    }

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
        let value = try member(key)
        if let result = Source.bool(value) { return result }
        return try decoder.decodeBool(value, node, .key(key))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let value = try member(key)
        if let result = Source.string(value) { return result }
        return try decoder.decodeString(value, node, .key(key))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let value = try member(key)
        if case .double(let result)? = Source.number(value), result.isFinite { return result }
        return try decoder.decodeDouble(value, node, .key(key))
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decoder.decodeFloat(member(key), node, .key(key))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let value = try member(key)
        if case .int(let int)? = Source.number(value), let result = Int(exactly: int) { return result }
        return try decoder.decodeInteger(Int.self, value, node, .key(key))
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        let value = try member(key)
        if case .int(let int)? = Source.number(value), let result = Int8(exactly: int) { return result }
        return try decoder.decodeInteger(Int8.self, value, node, .key(key))
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        let value = try member(key)
        if case .int(let int)? = Source.number(value), let result = Int16(exactly: int) { return result }
        return try decoder.decodeInteger(Int16.self, value, node, .key(key))
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        let value = try member(key)
        if case .int(let int)? = Source.number(value), let result = Int32(exactly: int) { return result }
        return try decoder.decodeInteger(Int32.self, value, node, .key(key))
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        let value = try member(key)
        if case .int(let int)? = Source.number(value), let result = Int64(exactly: int) { return result }
        return try decoder.decodeInteger(Int64.self, value, node, .key(key))
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        let value = try member(key)
        if case .int(let int)? = Source.number(value), let result = UInt(exactly: int) { return result }
        return try decoder.decodeInteger(UInt.self, value, node, .key(key))
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        let value = try member(key)
        if case .int(let int)? = Source.number(value), let result = UInt8(exactly: int) { return result }
        return try decoder.decodeInteger(UInt8.self, value, node, .key(key))
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        let value = try member(key)
        if case .int(let int)? = Source.number(value), let result = UInt16(exactly: int) { return result }
        return try decoder.decodeInteger(UInt16.self, value, node, .key(key))
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        let value = try member(key)
        if case .int(let int)? = Source.number(value), let result = UInt32(exactly: int) { return result }
        return try decoder.decodeInteger(UInt32.self, value, node, .key(key))
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        let value = try member(key)
        if case .int(let int)? = Source.number(value), let result = UInt64(exactly: int) { return result }
        return try decoder.decodeInteger(UInt64.self, value, node, .key(key))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decodeValue(T.self, member(key), node, .key(key))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if let result = Source.bool(value) { return result }
        if Source.isNull(value) { return nil }
        return try decoder.decodeBool(value, node, .key(key))
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if let result = Source.string(value) { return result }
        if Source.isNull(value) { return nil }
        return try decoder.decodeString(value, node, .key(key))
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if case .double(let result)? = Source.number(value), result.isFinite { return result }
        if Source.isNull(value) { return nil }
        return try decoder.decodeDouble(value, node, .key(key))
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let value = Source.value(in: object, forKey: key.stringValue), !Source.isNull(value) else { return nil }
        return try decoder.decodeFloat(value, node, .key(key))
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if case .int(let int)? = Source.number(value), let result = Int(exactly: int) { return result }
        if Source.isNull(value) { return nil }
        return try decoder.decodeInteger(Int.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if case .int(let int)? = Source.number(value), let result = Int8(exactly: int) { return result }
        if Source.isNull(value) { return nil }
        return try decoder.decodeInteger(Int8.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if case .int(let int)? = Source.number(value), let result = Int16(exactly: int) { return result }
        if Source.isNull(value) { return nil }
        return try decoder.decodeInteger(Int16.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if case .int(let int)? = Source.number(value), let result = Int32(exactly: int) { return result }
        if Source.isNull(value) { return nil }
        return try decoder.decodeInteger(Int32.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if case .int(let int)? = Source.number(value), let result = Int64(exactly: int) { return result }
        if Source.isNull(value) { return nil }
        return try decoder.decodeInteger(Int64.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if case .int(let int)? = Source.number(value), let result = UInt(exactly: int) { return result }
        if Source.isNull(value) { return nil }
        return try decoder.decodeInteger(UInt.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if case .int(let int)? = Source.number(value), let result = UInt8(exactly: int) { return result }
        if Source.isNull(value) { return nil }
        return try decoder.decodeInteger(UInt8.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if case .int(let int)? = Source.number(value), let result = UInt16(exactly: int) { return result }
        if Source.isNull(value) { return nil }
        return try decoder.decodeInteger(UInt16.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if case .int(let int)? = Source.number(value), let result = UInt32(exactly: int) { return result }
        if Source.isNull(value) { return nil }
        return try decoder.decodeInteger(UInt32.self, value, node, .key(key))
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let value = Source.value(in: object, forKey: key.stringValue) else { return nil }
        if case .int(let int)? = Source.number(value), let result = UInt64(exactly: int) { return result }
        if Source.isNull(value) { return nil }
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
        return KeyedDecodingContainer(JSONValueKeyedContainer<NestedKey>(decoder: decoder, object: object, node: child))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let value = try member(key)
        let child = node.appending(.key(key))
        let array = try decoder.arrayContainer(value, child)
        return JSONValueUnkeyedContainer(decoder: decoder, array: array, node: child)
    }

    func superDecoder() throws -> any Decoder {
        superDecoder(named: MemberKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        superDecoder(named: key)
    }

    private func superDecoder(named key: any CodingKey) -> any Decoder {
        let value = Source.value(in: object, forKey: key.stringValue) ?? Source.null
        return JSONValueDecoder(value: value, node: node.appending(.key(key)), options: decoder.options)
    }
}

/// The unkeyed container of a `JSONValue` tree array.
final class JSONValueUnkeyedContainer: UnkeyedDecodingContainer {
    typealias Source = JSONValueSource

    let decoder: JSONValueDecoder
    let array: Source.Array
    let node: DecodingPath
    let total: Int
    private(set) var currentIndex = 0

    init(decoder: JSONValueDecoder, array: Source.Array, node: DecodingPath) {
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

    func decodeNil() throws -> Bool {
        if Source.isNull(try peek((Any?).self)) {
            currentIndex += 1
            return true
        }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        let value = try peek(Bool.self)
        if let result = Source.bool(value) {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeBool(value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: String.Type) throws -> String {
        let value = try peek(String.self)
        if let result = Source.string(value) {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeString(value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: Double.Type) throws -> Double {
        let value = try peek(Double.self)
        if case .double(let result)? = Source.number(value), result.isFinite {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeDouble(value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: Float.Type) throws -> Float {
        let result = try decoder.decodeFloat(peek(Float.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: Int.Type) throws -> Int {
        let value = try peek(Int.self)
        if case .int(let int)? = Source.number(value), let result = Int(exactly: int) {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeInteger(Int.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: Int8.Type) throws -> Int8 {
        let value = try peek(Int8.self)
        if case .int(let int)? = Source.number(value), let result = Int8(exactly: int) {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeInteger(Int8.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: Int16.Type) throws -> Int16 {
        let value = try peek(Int16.self)
        if case .int(let int)? = Source.number(value), let result = Int16(exactly: int) {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeInteger(Int16.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: Int32.Type) throws -> Int32 {
        let value = try peek(Int32.self)
        if case .int(let int)? = Source.number(value), let result = Int32(exactly: int) {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeInteger(Int32.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: Int64.Type) throws -> Int64 {
        let value = try peek(Int64.self)
        if case .int(let int)? = Source.number(value), let result = Int64(exactly: int) {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeInteger(Int64.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: UInt.Type) throws -> UInt {
        let value = try peek(UInt.self)
        if case .int(let int)? = Source.number(value), let result = UInt(exactly: int) {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeInteger(UInt.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: UInt8.Type) throws -> UInt8 {
        let value = try peek(UInt8.self)
        if case .int(let int)? = Source.number(value), let result = UInt8(exactly: int) {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeInteger(UInt8.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: UInt16.Type) throws -> UInt16 {
        let value = try peek(UInt16.self)
        if case .int(let int)? = Source.number(value), let result = UInt16(exactly: int) {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeInteger(UInt16.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: UInt32.Type) throws -> UInt32 {
        let value = try peek(UInt32.self)
        if case .int(let int)? = Source.number(value), let result = UInt32(exactly: int) {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeInteger(UInt32.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode(_ type: UInt64.Type) throws -> UInt64 {
        let value = try peek(UInt64.self)
        if case .int(let int)? = Source.number(value), let result = UInt64(exactly: int) {
            currentIndex += 1
            return result
        }
        let result = try decoder.decodeInteger(UInt64.self, value, node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let result = try decoder.decodeValue(T.self, peek(T.self), node, .index(currentIndex))
        currentIndex += 1
        return result
    }

    func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
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

    func decodeIfPresent(_ type: String.Type) throws -> String? {
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

    func decodeIfPresent(_ type: Double.Type) throws -> Double? {
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

    func decodeIfPresent(_ type: Float.Type) throws -> Float? {
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

    func decodeIfPresent(_ type: Int.Type) throws -> Int? {
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

    func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
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

    func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
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

    func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
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

    func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
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

    func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
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

    func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
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

    func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
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

    func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
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

    func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
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

    func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
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

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try peek(KeyedDecodingContainer<NestedKey>.self)
        let child = node.appending(.index(currentIndex))
        let object = try decoder.objectContainer(value, child)
        currentIndex += 1
        return KeyedDecodingContainer(JSONValueKeyedContainer<NestedKey>(decoder: decoder, object: object, node: child))
    }

    func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try peek((any UnkeyedDecodingContainer).self)
        let child = node.appending(.index(currentIndex))
        let nested = try decoder.arrayContainer(value, child)
        currentIndex += 1
        return JSONValueUnkeyedContainer(decoder: decoder, array: nested, node: child)
    }

    func superDecoder() throws -> any Decoder {
        let value = try peek((any Decoder).self)
        let child = node.appending(.index(currentIndex))
        currentIndex += 1
        return JSONValueDecoder(value: value, node: child, options: decoder.options)
    }
}
