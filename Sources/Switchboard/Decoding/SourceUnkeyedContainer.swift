import Foundation

/// The unkeyed container over an array of any ``BodySource``: implemented once,
/// in the extension below; a source binds it to a class (`DecoderBindings.swift`).
/// It owns its decoder and its array, so one a user type keeps stays valid.
protocol SourceUnkeyedContainer: AnyObject, UnkeyedDecodingContainer {
    associatedtype Owner: SourceDecoder
    typealias Source = Owner.Source

    /// Creates the container over `array`, at `node`.
    init(decoder: Owner, array: Source.Array, node: DecodingPath)
    /// The decode this container belongs to.
    var decoder: Owner { get }
    /// The decode's source (its decoder's).
    var source: Source { get }
    /// The array read.
    var array: Source.Array { get }
    /// Where the array is.
    var node: DecodingPath { get }
    /// The number of elements.
    var total: Int { get }
    /// The index of the next element.
    var currentIndex: Int { get set }
}

extension SourceUnkeyedContainer {
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

    func decodeNil() throws -> Bool {
        if source.isNull(try peek((Any?).self)) {
            currentIndex += 1
            return true
        }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        next(try bool(peek(Bool.self)))
    }

    func decode(_ type: String.Type) throws -> String {
        next(try string(peek(String.self)))
    }

    func decode(_ type: Double.Type) throws -> Double {
        next(try double(peek(Double.self)))
    }

    func decode(_ type: Float.Type) throws -> Float {
        next(try decoder.core.decodeFloat(peek(Float.self), node, .index(currentIndex)))
    }

    func decode(_ type: Int.Type) throws -> Int { next(try integer(peek(Int.self))) }
    func decode(_ type: Int8.Type) throws -> Int8 { next(try integer(peek(Int8.self))) }
    func decode(_ type: Int16.Type) throws -> Int16 { next(try integer(peek(Int16.self))) }
    func decode(_ type: Int32.Type) throws -> Int32 { next(try integer(peek(Int32.self))) }
    func decode(_ type: Int64.Type) throws -> Int64 { next(try integer(peek(Int64.self))) }
    func decode(_ type: UInt.Type) throws -> UInt { next(try integer(peek(UInt.self))) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { next(try integer(peek(UInt8.self))) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { next(try integer(peek(UInt16.self))) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { next(try integer(peek(UInt32.self))) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { next(try integer(peek(UInt64.self))) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        next(try decoder.decodeValue(T.self, peek(T.self), node, .index(currentIndex)))
    }

    func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
        guard let value = present() else { return skipNull() }
        return next(try bool(value))
    }

    func decodeIfPresent(_ type: String.Type) throws -> String? {
        guard let value = present() else { return skipNull() }
        return next(try string(value))
    }

    func decodeIfPresent(_ type: Double.Type) throws -> Double? {
        guard let value = present() else { return skipNull() }
        return next(try double(value))
    }

    func decodeIfPresent(_ type: Float.Type) throws -> Float? {
        guard let value = present() else { return skipNull() }
        return next(try decoder.core.decodeFloat(value, node, .index(currentIndex)))
    }

    func decodeIfPresent(_ type: Int.Type) throws -> Int? { try presentInteger() }
    func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try presentInteger() }
    func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try presentInteger() }
    func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try presentInteger() }
    func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try presentInteger() }
    func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try presentInteger() }
    func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try presentInteger() }
    func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try presentInteger() }
    func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try presentInteger() }
    func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try presentInteger() }

    func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        guard let value = present() else { return skipNull() }
        return next(try decoder.decodeValue(T.self, value, node, .index(currentIndex)))
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let value = try peek(KeyedDecodingContainer<NestedKey>.self)
        let child = node.appending(.index(currentIndex))
        let container = try decoder.keyedContainer(value, child, keyedBy: NestedKey.self)
        currentIndex += 1
        return container
    }

    func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let value = try peek((any UnkeyedDecodingContainer).self)
        let child = node.appending(.index(currentIndex))
        let nested = try decoder.core.arrayContainer(value, child)
        currentIndex += 1
        return Self(decoder: decoder, array: nested, node: child)
    }

    func superDecoder() throws -> any Decoder {
        let value = try peek((any Decoder).self)
        let child = node.appending(.index(currentIndex))
        currentIndex += 1
        return decoder.superDecoder(value, child, source: source)
    }

    // MARK: Steps

    /// `result`, moving past the current element (only once it decoded).
    @inline(__always)
    private func next<T>(_ result: T) -> T {
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
    private func skipNull<T>() -> T? {
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
    private func presentInteger<T: FixedWidthInteger>() throws -> T? {
        guard let value = present() else { return skipNull() }
        return next(try integer(value) as T)
    }
}
