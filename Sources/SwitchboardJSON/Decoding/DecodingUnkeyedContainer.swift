import Foundation

/// The unkeyed container over an array of any ``DecodingSource``: implemented once,
/// in the extension below; a source binds it to a struct (at the end of `DecodingFrontEnd.swift`).
///
/// A value, as Foundation's containers are: what it reads (its decoder, its array)
/// is in one shared ``DecodingUnkeyedFields``, its position is its own, so a copy
/// moves on its own (the "peek with a copy" idiom: decode an element's kind through
/// a copy, then the element through the original). Two words: held inline by the
/// `any UnkeyedDecodingContainer` it is handed out as, with no box of its own. It
/// owns its fields, which own the decoder and the array, so one a user type keeps
/// stays valid.
protocol DecodingUnkeyedContainer: UnkeyedDecodingContainer {
    associatedtype Owner: DecodingFrontEnd
    typealias Source = Owner.Source

    /// Creates the container at the first element of what `fields` reads.
    init(fields: DecodingUnkeyedFields<Owner>)
    /// What the container reads.
    var fields: DecodingUnkeyedFields<Owner> { get }
    /// The index of the next element.
    var currentIndex: Int { get set }
}

extension DecodingUnkeyedContainer {
    /// Creates the container over `array`, at `node`.
    @inline(__always)
    init(decoder: Owner, array: Source.Array, node: DecodingPath) {
        self.init(fields: DecodingUnkeyedFields(decoder: decoder, array: array, node: node))
    }

    /// The decode this container belongs to.
    @inline(__always) var decoder: Owner { fields.decoder }
    /// The decode's source (its decoder's).
    @inline(__always) var source: Source { fields.source }
    /// The array read.
    @inline(__always) var array: Source.Array { fields.array }
    /// Where the array is.
    @inline(__always) var node: DecodingPath { fields.node }
    /// The number of elements.
    @inline(__always) var total: Int { fields.total }

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
        return source.element(of: array, at: currentIndex)
    }

    mutating func decodeNil() throws -> Bool {
        if source.isNull(try peek((Any?).self)) {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        next(try bool(peek(Bool.self)))
    }

    mutating func decode(_ type: String.Type) throws -> String {
        next(try string(peek(String.self)))
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        next(try double(peek(Double.self)))
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        next(try decoder.core.decodeFloat(peek(Float.self), node, .index(currentIndex)))
    }

    mutating func decode(_ type: Int.Type) throws -> Int { next(try integer(peek(Int.self))) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { next(try integer(peek(Int8.self))) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { next(try integer(peek(Int16.self))) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { next(try integer(peek(Int32.self))) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { next(try integer(peek(Int64.self))) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { next(try integer(peek(UInt.self))) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { next(try integer(peek(UInt8.self))) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { next(try integer(peek(UInt16.self))) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { next(try integer(peek(UInt32.self))) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { next(try integer(peek(UInt64.self))) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        next(try decoder.decodeValue(T.self, peek(T.self), node, .index(currentIndex)))
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
        guard let value = present() else { return skipNull() }
        return next(try bool(value))
    }

    mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
        guard let value = present() else { return skipNull() }
        return next(try string(value))
    }

    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
        guard let value = present() else { return skipNull() }
        return next(try double(value))
    }

    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
        guard let value = present() else { return skipNull() }
        return next(try decoder.core.decodeFloat(value, node, .index(currentIndex)))
    }

    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try presentInteger() }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try presentInteger() }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try presentInteger() }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try presentInteger() }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try presentInteger() }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try presentInteger() }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try presentInteger() }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try presentInteger() }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try presentInteger() }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try presentInteger() }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        guard let value = present() else { return skipNull() }
        return next(try decoder.decodeValue(T.self, value, node, .index(currentIndex)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try peek(KeyedDecodingContainer<NestedKey>.self)
        let child = node.appending(.index(currentIndex))
        let container = try decoder.keyedContainer(value, child, keyedBy: NestedKey.self)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try peek((any UnkeyedDecodingContainer).self)
        let child = node.appending(.index(currentIndex))
        let nested = try decoder.core.arrayContainer(value, child)
        currentIndex += 1
        return Self(decoder: decoder, array: nested, node: child)
    }

    mutating func superDecoder() throws -> any Decoder {
        let value = try peek((any Decoder).self)
        let child = node.appending(.index(currentIndex))
        currentIndex += 1
        return decoder.superDecoder(value, child, source: source)
    }

    // MARK: Steps

    /// `result`, moving past the current element (only once it decoded).
    @inline(__always)
    private mutating func next<T>(_ result: T) -> T {
        currentIndex += 1
        return result
    }

    /// The current element when there is one and it is not null; `nil` otherwise.
    @inline(__always)
    private func present() -> Source.Value? {
        guard currentIndex < total else { return nil }
        let value = source.element(of: array, at: currentIndex)
        return source.isNull(value) ? nil : value
    }

    /// `nil`, moving past the current element when there is one (it is a null).
    @inline(__always)
    private mutating func skipNull<T>() -> T? {
        if currentIndex < total { currentIndex += 1 }
        return nil
    }

    @inline(__always)
    private func bool(_ value: Source.Value) throws -> Bool {
        if let result = source.bool(value) { return result }
        return try decoder.core.decodeBool(value, node, .index(currentIndex))
    }

    @inline(__always)
    private func string(_ value: Source.Value) throws -> String {
        if let result = source.string(value) { return result }
        return try decoder.core.decodeString(value, node, .index(currentIndex))
    }

    @inline(__always)
    private func double(_ value: Source.Value) throws -> Double {
        if case .double(let result)? = source.number(value), result.isFinite { return result }
        return try decoder.core.decodeDouble(value, node, .index(currentIndex))
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ value: Source.Value) throws -> T {
        if case .int(let int)? = source.number(value), let result = T(exactly: int) { return result }
        return try decoder.core.decodeInteger(T.self, value, node, .index(currentIndex))
    }

    @inline(__always)
    private mutating func presentInteger<T: FixedWidthInteger>() throws -> T? {
        guard let value = present() else { return skipNull() }
        return next(try integer(value) as T)
    }
}
