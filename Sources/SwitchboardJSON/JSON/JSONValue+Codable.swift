import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value.
    ///
    /// ``BodyDecoder`` does not call this: it converts its tree to a `JSONValue`
    /// directly. Through other decoders (`JSONDecoder`, say) a number is read as
    /// `Int64`, then `UInt64`, then `Decimal`, then `Double`, keeping as many
    /// digits as the decoder gives.
    /// - Parameter decoder: the decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` when the value is none of the JSON kinds, or
    ///   when it nests so deep that the thread's stack is nearly used up (each level is a call
    ///   through `decoder`, which may have no depth limit of its own).
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() {
                self = .null
                return
            }
            if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
                return
            }
            if let int = try? single.decode(Int64.self) {
                self = .number(JSONNumber(int))
                return
            }
            if let uint = try? single.decode(UInt64.self) {
                self = .number(JSONNumber(uint))
                return
            }
            if let decimal = try? single.decode(Decimal.self), let number = JSONNumber(decimal) {
                self = .number(number)
                return
            }
            if let double = try? single.decode(Double.self), let number = JSONNumber(double) {
                self = .number(number)
                return
            }
            if let string = try? single.decode(String.self) {
                self = .string(string)
                return
            }
        }
        // Each level is a call through the decoder, which may recurse without a limit of its own
        // (a hand-written one): stop while the thread's stack has room, rather than overflow it.
        let container = try StackRoom.nested { depth throws -> JSONValue? in
            if StackRoom.isShort(depth: depth) {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: JSONValue.tooDeepForStack))
            }
            if var unkeyed = try? decoder.unkeyedContainer() {
                var elements: [JSONValue] = []
                elements.reserveCapacity(unkeyed.count ?? 0)
                while !unkeyed.isAtEnd {
                    elements.append(try unkeyed.decode(JSONValue.self))
                }
                return .array(elements)
            }
            if let keyed = try? decoder.container(keyedBy: DecodingMemberKey.self) {
                var members: [String: JSONValue] = [:]
                for key in keyed.allKeys {
                    members[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key)
                }
                return .object(members)
            }
            return nil
        }
        if let container {
            self = container
            return
        }
        throw DecodingError.dataCorrupted(
            .init(codingPath: decoder.codingPath, debugDescription: "Expected a JSON value.")
        )
    }

    /// Encodes this value; numbers as `Int64`, `UInt64`, `Double` or `Decimal`
    /// so that `JSONEncoder` writes their digits.
    /// - Parameter encoder: the encoder to write to.
    /// - Throws: `EncodingError.invalidValue` for a number no Swift type can hold (`1e400`), and
    ///   for an array or object nested so deep that the thread's stack is nearly used up (each
    ///   level is a call through `encoder`): an error, not a stack overflow.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .number(let number):
            var container = encoder.singleValueContainer()
            switch number.representation {
            case .int(let int): try container.encode(int)
            case .uint(let uint): try container.encode(uint)
            case .decimal(let decimal): try container.encode(decimal)
            case .double(let double):
                guard double.isFinite else {
                    throw EncodingError.invalidValue(
                        self,
                        .init(
                            codingPath: encoder.codingPath,
                            debugDescription: "Number \(number.text) is not representable in Swift."
                        )
                    )
                }
                try container.encode(double)
            }
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .array(let array):
            try StackRoom.nested { depth throws in
                if StackRoom.isShort(depth: depth) { throw tooDeep(encoder) }
                var container = encoder.unkeyedContainer()
                for element in array {
                    try container.encode(element)
                }
            }
        case .object(let object):
            try StackRoom.nested { depth throws in
                if StackRoom.isShort(depth: depth) { throw tooDeep(encoder) }
                var container = encoder.container(keyedBy: DecodingMemberKey.self)
                for (key, value) in object {
                    try container.encode(value, forKey: DecodingMemberKey(key))
                }
            }
        }
    }
}

extension JSONValue {
    /// Why a value nested too deep for the thread's stack is not encoded or decoded through
    /// another coder (each level of a `JSONValue` is a call through that coder's code).
    package static let tooDeepForStack =
        "The value is nested too deep for the thread's stack to encode or decode it through this coder."

    /// The error for an array or object nested too deep for the thread's stack to encode.
    private func tooDeep(_ encoder: any Encoder) -> EncodingError {
        EncodingError.invalidValue(
            self, .init(codingPath: encoder.codingPath, debugDescription: JSONValue.tooDeepForStack))
    }
}

extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is `.null`.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// `true` and `false`.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer number.
    public init(integerLiteral value: Int) {
        self = .number(JSONNumber(value))
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A number with its shortest digits (`2.5`); a non-finite literal is `.null`.
    public init(floatLiteral value: Double) {
        self = JSONNumber(value).map(JSONValue.number) ?? .null
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object; for a repeated key the last value wins.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
