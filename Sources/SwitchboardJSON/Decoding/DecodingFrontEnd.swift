import Foundation

/// The `Decoder` of one decode, over any ``DecodingSource``; also its single-value container.
///
/// This is the one decoder front end: everything a `Decodable` type calls is
/// implemented once, in the extension below, on top of the rules in
/// ``DecodingCore``. A source binds it to a concrete class (the end of this file:
/// a subclass of `DecodingCore<Source>` that adopts this protocol and names its
/// container types), so the witnesses `Decodable` code calls are specialised for
/// that source.
///
/// Everything a decoder or container holds is owned (the source's values keep
/// their storage alive): a type that keeps its decoder or a container after
/// `init(from:)` returns can go on using it safely.
protocol DecodingFrontEnd: AnyObject, Decoder, SingleValueDecodingContainer {
    associatedtype Source: DecodingSource
    associatedtype Unkeyed: DecodingUnkeyedContainer where Unkeyed.Owner == Self

    /// Creates the decoder for `value` of `source`, found at `node`.
    init(source: Source, value: Source.Value, node: DecodingPath, options: DecodingOptions)
    /// The rules and the current value (this decoder itself).
    var core: DecodingCore<Source> { get }
    /// A keyed container of this source over `value`, at `node` (an error when `value`
    /// is not an object or nests too deep). Each decoder class implements it, so the
    /// check runs specialised for its source, without run-time metadata lookups.
    func keyedContainer<Key: CodingKey>(
        _ value: Source.Value, _ node: DecodingPath, keyedBy type: Key.Type
    ) throws -> KeyedDecodingContainer<Key>
    /// Decodes `T` from `value`, found at `component` below `node`. ``DecodingTapeDecoder``
    /// implements it by calling ``decodeValueBody(_:_:_:_:)``, so the whole path (the
    /// special types, moving the decoder, `T(from:)`) runs with its concrete class and
    /// source: generic code over `T` (a container's `decode<T>`) makes one call here
    /// instead of running that path over an unknown decoder, with run-time lookups.
    func decodeValue<T: Decodable>(
        _ type: T.Type, _ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep
    ) throws -> T
    /// Decodes one of the types ``DecodingCore/isSpecial(_:)`` names. Each decoder
    /// class implements it by calling ``specialValue(_:_:_:_:)``, so the rules run
    /// specialised for its source (generic code over `T` calls it through here).
    func decodeSpecialValue<T: Decodable>(
        _ type: T.Type, _ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep
    ) throws -> T
}

extension DecodingFrontEnd {
    var codingPath: [any CodingKey] { core.node.codingPath }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The default (``DecodingTapeDecoder`` has its own, run with its concrete class).
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let core = self.core
        return try keyedContainer(core.value, core.node, keyedBy: Key.self)
    }

    /// The default (``DecodingTapeDecoder`` has its own, run with its concrete class).
    func decodeValue<T: Decodable>(
        _ type: T.Type, _ value: Source.Value, _ node: DecodingPath, _ component: DecodingStep
    ) throws -> T {
        try decodeValueBody(T.self, value, node, component)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let core = self.core
        return Unkeyed(decoder: self, array: try core.arrayContainer(core.value, core.node), node: core.node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        self
    }

    func decodeNil() -> Bool {
        core.source.isNull(core.value)
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        try core.decodeBool(core.value, core.node, .none)
    }

    func decode(_ type: String.Type) throws -> String {
        try core.decodeString(core.value, core.node, .none)
    }

    func decode(_ type: Double.Type) throws -> Double {
        try core.decodeDouble(core.value, core.node, .none)
    }

    func decode(_ type: Float.Type) throws -> Float {
        try core.decodeFloat(core.value, core.node, .none)
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self) }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        try core.decodeInteger(T.self, core.value, core.node, .none)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeValue(T.self, core.value, core.node, .none)
    }

    /// The body of every decoder class's ``decodeValue(_:_:_:_:)``.
    @inline(__always)
    func decodeValueBody<T: Decodable>(
        _ type: T.Type,
        _ value: Source.Value,
        _ node: DecodingPath,
        _ component: DecodingStep
    ) throws -> T {
        // Only the special types go through `decodeSpecial`: its `T?` result costs a
        // runtime metadata lookup per call for a `T` the optimiser cannot see.
        if DecodingCore<Source>.isSpecial(T.self) { return try decodeSpecialValue(T.self, value, node, component) }
        return try decodeStructured(T.self, value, node, component)
    }

    /// The body of every decoder class's ``decodeSpecialValue(_:_:_:_:)``: each type
    /// is read by its rule and cast to `T` (no `T?` is made: in code generic over `T`
    /// it costs a run-time metadata lookup); a `[String: String]` or `[String]` the
    /// one-pass rule declines (another element type, too deep) goes through its own
    /// `init(from:)`, which reports the problem.
    @inline(__always)
    func specialValue<T: Decodable>(
        _ type: T.Type,
        _ value: Source.Value,
        _ node: DecodingPath,
        _ component: DecodingStep
    ) throws -> T {
        let core = self.core
        // `_identityCast` (checked, free) rather than `as? T`: in code generic over `T`,
        // a `T?` costs a run-time metadata lookup and the cast a dynamic cast per call.
        if T.self == String.self { return _identityCast(try core.decodeString(value, node, component), to: T.self) }
        if T.self == Int.self {
            return _identityCast(try core.decodeInteger(Int.self, value, node, component), to: T.self)
        }
        if T.self == Bool.self { return _identityCast(try core.decodeBool(value, node, component), to: T.self) }
        if T.self == Double.self { return _identityCast(try core.decodeDouble(value, node, component), to: T.self) }
        if T.self == JSONValue.self { return _identityCast(try core.jsonValue(value, node, component), to: T.self) }
        if T.self == [String: JSONValue].self {
            return _identityCast(try core.jsonObject(value, node, component), to: T.self)
        }
        if T.self == [String: String].self, let strings = try core.stringDictionary(value, node, component) {
            return _identityCast(strings, to: T.self)
        }
        if T.self == [JSONValue].self { return _identityCast(try core.jsonArray(value, node, component), to: T.self) }
        if T.self == Date.self { return _identityCast(try core.decodeDate(value, node, component), to: T.self) }
        if T.self == URL.self { return _identityCast(try core.decodeURL(value, node, component), to: T.self) }
        if T.self == Decimal.self { return _identityCast(try core.decodeDecimal(value, node, component), to: T.self) }
        if T.self == Float.self { return _identityCast(try core.decodeFloat(value, node, component), to: T.self) }
        if T.self == Int64.self {
            return _identityCast(try core.decodeInteger(Int64.self, value, node, component), to: T.self)
        }
        if T.self == Data.self { return _identityCast(try core.decodeData(value, node, component), to: T.self) }
        if T.self == [String].self, let strings = core.stringArray(value, node) {
            return _identityCast(strings, to: T.self)
        }
        return try decodeStructured(T.self, value, node, component)
    }

    /// Decodes `T` through its own `init(from:)`, with this decoder moved to `value`.
    @inline(__always)
    func decodeStructured<T: Decodable>(
        _ type: T.Type,
        _ value: Source.Value,
        _ node: DecodingPath,
        _ component: DecodingStep
    ) throws -> T {
        let core = self.core
        let child = node.appending(component)
        let savedValue = core.value
        let savedNode = core.node
        core.value = value
        core.node = child
        // Put back on both paths by hand: a `defer` block is outlined as a function
        // generic over the decoder and `T`, which looks their types up at run time.
        do {
            let result = try T(from: self)
            core.value = savedValue
            core.node = savedNode
            return result
        } catch let error as DecodingError {
            core.value = savedValue
            core.node = savedNode
            throw error
        } catch {
            core.value = savedValue
            core.node = savedNode
            throw DecodingError.dataCorrupted(
                .init(codingPath: child.codingPath, debugDescription: "\(error)", underlyingError: error)
            )
        }
    }

    /// A decoder of its own for `value` of `source` at `node` (`superDecoder()`).
    func superDecoder(_ value: Source.Value, _ node: DecodingPath, source: Source) -> any Decoder {
        Self(source: source, value: value, node: node, options: core.options)
    }
}

// The one decoder front end (`DecodingFrontEnd`, `DecodingKeyedContainer`,
// `DecodingUnkeyedContainer`) bound to each source. These classes add the source
// type, their stored fields and, for `decodeSpecialValue`, a method of their own
// that runs the shared body with this concrete class: a protocol extension's
// generic method would run over an unknown decoder, looking its source's types
// up at run time. `DecodingTapeDecoder`, the wire's and the CLI's, does the same for
// `container(keyedBy:)` and `decodeValue`; the Foundation one uses `DecodingFrontEnd`'s
// default bodies.

/// The decoder for one decode of a Foundation tree (`Any`).
final class DecodingFoundationDecoder: DecodingCore<DecodingFoundationSource>, DecodingFrontEnd {
    typealias Source = DecodingFoundationSource
    typealias Unkeyed = DecodingFoundationUnkeyed
    var core: DecodingCore<DecodingFoundationSource> { self }

    func keyedContainer<Key: CodingKey>(
        _ value: Any, _ node: DecodingPath, keyedBy type: Key.Type
    ) throws -> KeyedDecodingContainer<Key> {
        DecodingKeyedTypes.container(
            DecodingFoundationKeyedFields(decoder: self, object: try objectContainer(value, node), node: node),
            keyedBy: Key.self, tables: Self.containerTypes)
    }

    /// Each thread's keyed container types of this source, by key type.
    static let containerTypes = ThreadSpare<DecodingKeyedTypes<DecodingFoundationKeyedFields>>()

    @inline(never)
    func decodeSpecialValue<T: Decodable>(
        _ type: T.Type, _ value: Any, _ node: DecodingPath, _ component: DecodingStep
    ) throws -> T {
        try specialValue(T.self, value, node, component)
    }
}

/// The decoder for one decode of JSON bytes, as the scanner parsed them.
final class DecodingTapeDecoder: DecodingCore<DecodingTapeSource>, DecodingFrontEnd {
    typealias Source = DecodingTapeSource
    typealias Unkeyed = DecodingTapeUnkeyed
    var core: DecodingCore<DecodingTapeSource> { self }

    func keyedContainer<Key: CodingKey>(
        _ value: DecodingTapeValue, _ node: DecodingPath, keyedBy type: Key.Type
    ) throws -> KeyedDecodingContainer<Key> {
        DecodingKeyedTypes.container(
            DecodingTapeKeyedFields(decoder: self, object: try objectContainer(value, node), node: node),
            keyedBy: Key.self,
            tables: Self.containerTypes)
    }

    /// Each thread's keyed container types of this source, by key type.
    static let containerTypes = ThreadSpare<DecodingKeyedTypes<DecodingTapeKeyedFields>>()

    @inline(never)
    func decodeSpecialValue<T: Decodable>(
        _ type: T.Type, _ value: DecodingTapeValue, _ node: DecodingPath, _ component: DecodingStep
    ) throws -> T {
        try specialValue(T.self, value, node, component)
    }

    /// The top-level keyed container, made with this concrete class (see the note above).
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyedContainer(value, node, keyedBy: Key.self)
    }

    /// ``DecodingFrontEnd/decodeValue(_:_:_:_:)`` run with this concrete class.
    func decodeValue<T: Decodable>(
        _ type: T.Type, _ value: DecodingTapeValue, _ node: DecodingPath, _ component: DecodingStep
    ) throws -> T {
        try decodeValueBody(T.self, value, node, component)
    }
}

/// What the keyed container of a Foundation tree object reads.
final class DecodingFoundationKeyedFields: DecodingKeyedFields<DecodingFoundationDecoder>, DecodingMemberReader {}

/// What the keyed container of an object in JSON bytes reads.
final class DecodingTapeKeyedFields: DecodingKeyedFields<DecodingTapeDecoder>, DecodingMemberReader {}

/// What an unkeyed container reads, shared by its copies (the position is each copy's own:
/// ``DecodingUnkeyedContainer``).
final class DecodingUnkeyedFields<Owner: DecodingFrontEnd> {
    let decoder: Owner
    /// The decode's source (the decoder's own; kept here so that reads borrow it).
    let source: Owner.Source
    let array: Owner.Source.Array
    let node: DecodingPath
    let total: Int

    init(decoder: Owner, array: Owner.Source.Array, node: DecodingPath) {
        self.decoder = decoder
        self.array = array
        self.node = node
        self.source = decoder.core.source
        self.total = source.count(of: array)
    }
}

/// The unkeyed container of a Foundation tree array.
struct DecodingFoundationUnkeyed: DecodingUnkeyedContainer {
    let fields: DecodingUnkeyedFields<DecodingFoundationDecoder>
    var currentIndex = 0

    init(fields: DecodingUnkeyedFields<DecodingFoundationDecoder>) {
        self.fields = fields
    }
}

/// The unkeyed container of an array in JSON bytes.
struct DecodingTapeUnkeyed: DecodingUnkeyedContainer {
    let fields: DecodingUnkeyedFields<DecodingTapeDecoder>
    var currentIndex = 0

    init(fields: DecodingUnkeyedFields<DecodingTapeDecoder>) {
        self.fields = fields
    }
}
