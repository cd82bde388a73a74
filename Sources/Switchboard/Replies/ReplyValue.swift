/// A reply on its way back to the sender, kept as the responder's typed value
/// and encoded only when the caller asks for a representation.
public struct ReplyValue: Sendable, CustomStringConvertible {
    /// The reply as the responder gave it.
    public var value: any Encodable & Sendable { box.value }

    /// The value, boxed: a bare existential would make every copy of an
    /// ``Outcome`` (returned through each middleware) a runtime value-witness call.
    private let box: Box

    private final class Box: Sendable {
        let value: any Encodable & Sendable

        init(_ value: any Encodable & Sendable) {
            self.value = value
        }
    }

    /// Wraps a reply.
    public init(_ value: any Encodable & Sendable) {
        box = Box(value)
    }

    /// The empty reply (`null`), given to requests on channels that only have event handlers.
    public static let none = ReplyValue(NoReply())

    /// The reply as a JSON-compatible Foundation tree, as `WKScriptMessageHandlerWithReply` expects.
    /// - Throws: ``BodyEncodingError`` when the value cannot be represented in JSON.
    public func foundationObject() throws(BodyEncodingError) -> Any {
        func encode<T: Encodable>(_ value: T) throws(BodyEncodingError) -> Any {
            try BodyEncoder().encodeFoundationObject(value)
        }
        let encodable: any Encodable = value
        return try encode(encodable)
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
        func encode<T: Encodable>(_ value: T, into writer: inout JSONWriter) throws(BodyEncodingError) {
            try BodyEncoder().encodeJSON(value, into: &writer)
        }
        let encodable: any Encodable = value
        try encode(encodable, into: &writer)
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
        value as? T
    }
}
