import Foundation

/// The loosely typed body of a message, as `WKScriptMessage.body` or
/// `JSONSerialization` gives it, or as a ``JSONValue``.
///
/// The body is decoded on demand by ``BodyDecoder`` (a Foundation tree or JSON bytes
/// in place; a ``JSONValue`` through a tape of its JSON text): `BodyDecoder().decode(T.self, from: body)` for the
/// whole body, `decode(_:from:at:)` for an extra payload under one key (Poq's `customData`).
public struct MessageBody: @unchecked Sendable {
    // `@unchecked`: a Foundation body is a JSON tree (strings, numbers, NSNull,
    // arrays, dictionaries) that Switchboard only reads and never mutates; the
    // caller hands it over with the message and must not mutate a mutable
    // container it passed afterwards. A `JSONValue` body is Sendable in itself,
    // and so is a tape (immutable once parsed).
    package enum Storage {
        case absent
        /// A Foundation tree, boxed: a bare `Any` would make every copy of a message
        /// (through middleware, into a context) a runtime value-witness call.
        case foundation(FoundationTree)
        case json(JSONValue)
        /// A value on a byte tape (the strict reader's output): entry `index` of the tape.
        case tape(JSONTape, index: Int)
    }

    package let storage: Storage

    /// A message with no body at all (`postMessage()` with no argument, or no `"body"` key).
    public static let absent = MessageBody(storage: .absent)

    init(storage: Storage) {
        self.storage = storage
    }

    /// Wraps a Foundation tree; `nil` means the body is absent.
    ///
    /// This is the initialiser for a body whose type is known only at run time: what
    /// `WKScriptMessage.body` or `JSONSerialization.jsonObject` returned, or whatever a
    /// loosely typed API was given (`Router.receive(name:body:)`, `Message(channel:body:)`,
    /// `Router.request(name:body:)` all pass their `Any?` body here). So that those APIs
    /// route every body as itself, a ``MessageBody`` given here (as `Any`) is that body, and
    /// a ``JSONValue`` is wrapped exactly as ``init(json:)`` wraps it.
    ///
    /// To wrap a ``JSONValue`` you hold, use ``init(json:)``: its type says what it takes,
    /// and it needs no check at run time. Both give the same body.
    /// - Parameter value: what `WKScriptMessage.body` or `JSONSerialization.jsonObject` returned.
    public init(_ value: Any?) {
        guard let value else {
            storage = .absent
            return
        }
        // Compared by type first (a cheap metadata check), so a Foundation tree pays no dynamic cast.
        let type = ObjectIdentifier(Swift.type(of: value))
        if type == ObjectIdentifier(MessageBody.self), let body = value as? MessageBody {
            self = body
        } else if type == ObjectIdentifier(JSONValue.self), let json = value as? JSONValue {
            storage = .json(json)
        } else {
            storage = .foundation(FoundationTree(value))
        }
    }

    /// Wraps a ``JSONValue``: the way to make a body from one (``init(_:)`` is for a Foundation
    /// tree, or a value whose type is known only at run time).
    /// - Parameter json: the body.
    public init(json: JSONValue) {
        storage = .json(json)
    }

    /// Whether the message came without a body.
    public var isAbsent: Bool {
        if case .absent = storage { return true }
        return false
    }

    /// The body as a Foundation tree, or `nil` when absent.
    public var foundationValue: Any? {
        switch storage {
        case .absent: return nil
        case .foundation(let tree): return tree.value
        case .json(let value): return value.foundationValue
        case .tape(let tape, let index): return tape.jsonValue(index).foundationValue
        }
    }

    /// Decodes the whole body as `T`.
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - options: decoding options (lenient numbers, depth limit).
    /// - Returns: the decoded value.
    /// - Throws: ``BodyDecodingError`` with the key path of the first problem.
    package func decode<T: Decodable>(_ type: T.Type = T.self, options: DecodingOptions = DecodingOptions())
        throws(BodyDecodingError) -> T
    {
        let decoder = BodyDecoder(options: options)
        switch storage {
        case .absent: return try decoder.decode(type, from: nil)
        case .foundation(let tree): return try decoder.decode(type, from: tree.value)
        case .json(let value): return try decoder.decode(type, from: value)
        case .tape(let tape, let index): return try decoder.decode(type, fromTape: tape, at: index)
        }
    }

    /// Decodes the value under `key` in an object body as `T`; errors name the
    /// path from the root (`body.customData.isPersonalisable`).
    ///
    /// A missing key, or a body that is not an object, decodes as `nil` when `T`
    /// is optional, as in `decodeIfPresent`.
    package func decode<T: Decodable>(
        _ type: T.Type = T.self, at key: String, options: DecodingOptions = DecodingOptions()
    )
        throws(BodyDecodingError) -> T
    {
        let decoder = BodyDecoder(options: options)
        switch storage {
        case .absent: return try decoder.decode(type, from: nil, at: key)
        case .foundation(let tree): return try decoder.decode(type, from: tree.value, at: key)
        case .json(let value): return try decoder.decode(type, from: value, at: key)
        case .tape(let tape, let index): return try decoder.decode(type, fromTape: tape, at: index, member: key)
        }
    }
}

/// A Foundation tree held by a ``MessageBody`` (one reference, so a body copies as a pointer).
package final class FoundationTree: @unchecked Sendable {
    // `@unchecked`: see ``MessageBody``: the tree is only read, never mutated.
    package let value: Any

    init(_ value: Any) {
        self.value = value
    }
}

extension MessageBody: CustomStringConvertible, CustomReflectable {
    /// `absent`, a Foundation tree as Foundation prints it, or a JSON body as compact JSON.
    public var description: String {
        switch storage {
        case .absent: return "absent"
        case .foundation(let tree): return String(describing: tree.value)
        case .json(let value): return value.description
        case .tape(let tape, let index): return tape.jsonValue(index).description
        }
    }

    /// The body's value (a Foundation tree or a ``JSONValue``), or no child when it is absent.
    public var customMirror: Mirror {
        switch storage {
        case .absent: return Mirror(self, children: [:], displayStyle: .enum)
        case .foundation(let tree): return Mirror(self, children: ["foundation": tree.value], displayStyle: .enum)
        case .json(let value): return Mirror(self, children: ["json": value], displayStyle: .enum)
        case .tape(let tape, let index):
            return Mirror(self, children: ["json": tape.jsonValue(index)], displayStyle: .enum)
        }
    }
}
