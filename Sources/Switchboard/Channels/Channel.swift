/// The name of a message channel, such as `addCartLine` or `productCartUpdate`.
///
/// A channel name is what a web page passes to
/// `window.webkit.messageHandlers.<name>.postMessage(…)`. Names are validated:
/// they are non-empty, at most ``maxLength`` bytes of UTF-8, and contain no
/// control characters (Unicode general category `Cc`), so a name taken from
/// untrusted input can always be printed and logged safely.
///
/// ```swift
/// static let channel: Channel = "addCartLine"          // a literal, checked when first used
/// let channel = try Channel(validating: message.name)  // untrusted input
/// ```
public struct Channel: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The longest name accepted, in bytes of UTF-8.
    public static let maxLength = 256

    /// The name, exactly as registered or received.
    public let name: String

    /// Creates a channel from an untrusted name.
    /// - Parameter name: the channel's name.
    /// - Throws: ``ChannelNameError`` when the name is empty, too long or holds a control character.
    public init(validating name: String) throws(ChannelNameError) {
        if let problem = Channel.problem(in: name) { throw problem }
        self.name = name
    }

    /// Wraps a name known to be valid (one the router found in its routing table,
    /// where every name was validated when it was registered).
    init(uncheckedName name: String) {
        self.name = name
    }

    /// Returns the reason `name` is not a valid channel name, or `nil` when it is valid.
    package static func problem(in name: String) -> ChannelNameError? {
        if name.isEmpty { return .empty }
        let bytes = name.utf8.count
        if bytes > maxLength { return .tooLong(byteCount: bytes, limit: maxLength) }
        // Printable ASCII has no control character: skip the scalar properties lookup.
        if name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
        // Fast path for ASCII (every channel name in practice): the control
        // characters are C0 and DEL, and a byte's offset is its scalar's offset.
        var ascii = true
        for (offset, byte) in name.utf8.enumerated() {
            if byte >= 0x80 {
                ascii = false
                break
            }
            if byte < 0x20 || byte == 0x7F { return .controlCharacter(scalar: UInt32(byte), offset: offset) }
        }
        if ascii { return nil }
        for (offset, scalar) in name.unicodeScalars.enumerated() where scalar.properties.generalCategory == .control {
            return .controlCharacter(scalar: scalar.value, offset: offset)
        }
        return nil
    }

    /// The channel's name.
    public var description: String { name }

    /// Orders channels by name, so manifests list them in a stable order.
    public static func < (lhs: Channel, rhs: Channel) -> Bool { lhs.name < rhs.name }
}

extension Channel: ExpressibleByStringLiteral {
    /// Creates a channel from a string literal written in source code.
    ///
    /// A literal is the programmer's own constant, not outside data, so an invalid
    /// literal is a programming error and stops the program with the reason;
    /// use ``init(validating:)`` for names that come from outside.
    public init(stringLiteral value: String) {
        if let problem = Channel.problem(in: value) {
            preconditionFailure("invalid channel name literal \"\(value)\": \(problem)")
        }
        self.name = value
    }
}

extension Channel: Codable {
    /// Decodes a channel from a string, validating it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        do {
            try self.init(validating: name)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Invalid channel name: \(error)")
        }
    }

    /// Encodes the channel as its name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// Why a string is not a valid ``Channel`` name.
public enum ChannelNameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name is the empty string.
    case empty
    /// The name is longer than the limit, in bytes of UTF-8.
    case tooLong(byteCount: Int, limit: Int)
    /// The name holds a control character (its scalar value, at this scalar offset).
    case controlCharacter(scalar: UInt32, offset: Int)

    /// A sentence that explains the problem.
    public var description: String {
        switch self {
        case .empty:
            return "channel name is empty"
        case .tooLong(let byteCount, let limit):
            return "channel name is \(byteCount) bytes long; the limit is \(limit)"
        case .controlCharacter(let scalar, let offset):
            let hex = String(scalar, radix: 16, uppercase: true)
            return
                "channel name holds control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex) at offset \(offset)"
        }
    }
}
