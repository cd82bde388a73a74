import Foundation

// The one decoder front end (`SourceDecoder`, `SourceKeyedContainer`,
// `SourceUnkeyedContainer`) bound to each source. These classes add the source
// type, their stored fields and, for `decodeSpecialValue`, a method of their own
// that runs the shared body with this concrete class: a protocol extension's
// generic method would run over an unknown decoder, looking its source's types
// up at run time. `TapeDecoder`, the wire's and the CLI's, does the same for
// `container(keyedBy:)` and `decodeValue`; the Foundation one uses `SourceDecoder`'s
// default bodies.

/// The decoder for one decode of a Foundation tree (`Any`).
final class FoundationDecoder: DecoderCore<FoundationSource>, SourceDecoder {
    typealias Source = FoundationSource
    typealias Unkeyed = FoundationUnkeyedContainer
    var core: DecoderCore<FoundationSource> { self }

    func keyedContainer<Key: CodingKey>(
        _ value: Any, _ node: DecodingPath, keyedBy type: Key.Type
    ) throws -> KeyedDecodingContainer<Key> {
        KeyedContainerTypes.container(
            FoundationKeyedFields(decoder: self, object: try objectContainer(value, node), node: node),
            keyedBy: Key.self, tables: Self.containerTypes)
    }

    /// Each thread's keyed container types of this source, by key type.
    static let containerTypes = ThreadSpare<KeyedContainerTypes<FoundationKeyedFields>>()

    @inline(never)
    func decodeSpecialValue<T: Decodable>(
        _ type: T.Type, _ value: Any, _ node: DecodingPath, _ component: DecodingStep
    ) throws -> T {
        try specialValue(T.self, value, node, component)
    }
}

/// The decoder for one decode of JSON bytes, as the scanner parsed them.
final class TapeDecoder: DecoderCore<TapeSource>, SourceDecoder {
    typealias Source = TapeSource
    typealias Unkeyed = TapeUnkeyedContainer
    var core: DecoderCore<TapeSource> { self }

    func keyedContainer<Key: CodingKey>(
        _ value: TapeValue, _ node: DecodingPath, keyedBy type: Key.Type
    ) throws -> KeyedDecodingContainer<Key> {
        KeyedContainerTypes.container(
            TapeKeyedFields(decoder: self, object: try objectContainer(value, node), node: node), keyedBy: Key.self,
            tables: Self.containerTypes)
    }

    /// Each thread's keyed container types of this source, by key type.
    static let containerTypes = ThreadSpare<KeyedContainerTypes<TapeKeyedFields>>()

    @inline(never)
    func decodeSpecialValue<T: Decodable>(
        _ type: T.Type, _ value: TapeValue, _ node: DecodingPath, _ component: DecodingStep
    ) throws -> T {
        try specialValue(T.self, value, node, component)
    }

    /// The top-level keyed container, made with this concrete class (see the note above).
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try keyedContainer(value, node, keyedBy: Key.self)
    }

    /// ``SourceDecoder/decodeValue(_:_:_:_:)`` run with this concrete class.
    func decodeValue<T: Decodable>(
        _ type: T.Type, _ value: TapeValue, _ node: DecodingPath, _ component: DecodingStep
    ) throws -> T {
        try decodeValueBody(T.self, value, node, component)
    }
}

/// What the keyed container of a Foundation tree object reads.
final class FoundationKeyedFields: KeyedContainerFields<FoundationDecoder>, KeyedMemberReader {}

/// What the keyed container of an object in JSON bytes reads.
final class TapeKeyedFields: KeyedContainerFields<TapeDecoder>, KeyedMemberReader {}

/// What an unkeyed container reads, shared by its copies (the position is each copy's own:
/// ``SourceUnkeyedContainer``).
final class UnkeyedContainerFields<Owner: SourceDecoder> {
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
struct FoundationUnkeyedContainer: SourceUnkeyedContainer {
    let fields: UnkeyedContainerFields<FoundationDecoder>
    var currentIndex = 0

    init(fields: UnkeyedContainerFields<FoundationDecoder>) {
        self.fields = fields
    }
}

/// The unkeyed container of an array in JSON bytes.
struct TapeUnkeyedContainer: SourceUnkeyedContainer {
    let fields: UnkeyedContainerFields<TapeDecoder>
    var currentIndex = 0

    init(fields: UnkeyedContainerFields<TapeDecoder>) {
        self.fields = fields
    }
}
