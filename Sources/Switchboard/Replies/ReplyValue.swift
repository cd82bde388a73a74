import Foundation

/// A reply on its way back to the sender, kept as the responder's typed value
/// and encoded only when the caller asks for a representation.
public struct ReplyValue: Sendable, CustomStringConvertible {
    /// The reply as the responder gave it.
    public var value: any Encodable & Sendable { box.anyValue }

    /// The value in a box of its own type: one reference to copy (a bare existential
    /// would make every copy of an ``Outcome`` a runtime value-witness call), and the
    /// value encoded as its own type, not re-boxed as `any Encodable` to be opened again.
    private let box: ReplyBox

    /// Wraps a reply.
    public init(_ value: any Encodable & Sendable) {
        self.init(typed: value)
    }

    /// Wraps a reply of a known type: no existential made.
    init<T: Encodable & Sendable>(typed value: consuming T) {
        box = TypedReplyBox(value)
    }

    /// Wraps a reply of a known type in a box of `boxType`, looked up once by whoever makes
    /// replies of that type (what ``Reply/succeed(_:)`` gives): in generic code, naming
    /// `TypedReplyBox<T>` would look its metadata up in the runtime's cache on every reply.
    init<T: Encodable & Sendable>(typed value: consuming T, boxType: TypedReplyBox<T>.Type) {
        box = boxType.init(value)
    }

    /// The empty reply (`null`), given to requests on channels that only have event handlers.
    public static let none = ReplyValue(NoReply())

    /// The reply as a JSON-compatible Foundation tree, as `WKScriptMessageHandlerWithReply` expects.
    /// - Throws: ``BodyEncodingError`` when the value cannot be represented in JSON.
    public func foundationObject() throws(BodyEncodingError) -> Any {
        try box.foundationObject()
    }

    /// The reply as UTF-8 JSON bytes.
    /// - Throws: ``BodyEncodingError`` when the value cannot be represented in JSON.
    public func jsonBytes() throws(BodyEncodingError) -> [UInt8] {
        var writer = JSONWriter()
        try writeJSON(into: &writer)
        return writer.bytes
    }

    /// Writes the reply's JSON into `writer` (what ``jsonBytes()`` returns), so a
    /// caller that writes many replies can reuse one writer.
    /// - Throws: ``BodyEncodingError`` when the reply does not encode; `writer` is then unchanged.
    package func writeJSON(into writer: inout JSONWriter) throws(BodyEncodingError) {
        try box.writeJSON(into: &writer)
    }

    /// The reply's type and, where it encodes, its JSON.
    public var description: String {
        if let bytes = try? jsonBytes() {
            return String(decoding: bytes, as: UTF8.self)
        }
        return "\(type(of: value)) (not encodable)"
    }

    /// The reply as `type`, when it is of that type.
    public func value<T>(as type: T.Type) -> T? {
        box.value(as: type)
    }
}

/// A reply value in a box of its own type (see ``TypedReplyBox``). Every box is a
/// `TypedReplyBox`, which overrides all four members; the base is never used (a
/// debug build stops if it is).
class ReplyBox: @unchecked Sendable {
    // `@unchecked`: not final (see `TypedReplyBox`); it has no stored properties.
    var anyValue: any Encodable & Sendable {
        assertionFailure("every reply box is a TypedReplyBox")
        return NoReply()
    }

    func foundationObject() throws(BodyEncodingError) -> Any {
        assertionFailure("every reply box is a TypedReplyBox")
        return NSNull()
    }

    func writeJSON(into writer: inout JSONWriter) throws(BodyEncodingError) {
        assertionFailure("every reply box is a TypedReplyBox")
    }

    func value<U>(as type: U.Type) -> U? { nil }
}

/// A reply value of type `T`.
final class TypedReplyBox<T: Encodable & Sendable>: ReplyBox, @unchecked Sendable {
    // `@unchecked`: its one stored property is an immutable `Sendable` value.
    let value: T

    init(_ value: consuming T) {
        self.value = value
    }

    override var anyValue: any Encodable & Sendable { value }

    override func foundationObject() throws(BodyEncodingError) -> Any {
        try BodyEncoder().encodeFoundationObject(value)
    }

    override func writeJSON(into writer: inout JSONWriter) throws(BodyEncodingError) {
        try BodyEncoder().encodeJSON(value, into: &writer)
    }

    override func value<U>(as type: U.Type) -> U? {
        // `T` is the value's own type (`ReplyValue.init(_:)` opens the existential it is given).
        value as? U
    }
}
