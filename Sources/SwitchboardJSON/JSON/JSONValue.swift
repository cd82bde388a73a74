/// A JSON value of any shape, for free-form fields such as LoyaltyLion's `attributes`.
///
/// `JSONValue` is `Codable`, `Sendable` and `Hashable`, and converts to and from
/// the loosely typed trees that `JSONSerialization` and `WKScriptMessage.body` hold.
/// Numbers keep their exact digits (see ``JSONNumber``).
///
/// A value built in code may nest any number of levels deep. Switchboard walks such a value
/// (to compare, hash, describe, write, convert, decode from or route it) with a stack of its
/// own, or stops at a depth limit with an error; it never recurses once per level without a
/// bound. (Swift itself releases a nested value by recursion: a value nested some thousands
/// of levels deep takes more stack to release than a 512 KiB thread has.)
public enum JSONValue: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, with its exact digits.
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object. Keys are unique; their order is not kept.
    case object([String: JSONValue])
}

extension JSONValue {
    /// Whether the value nests at most `levels` arrays and objects deep (a scalar
    /// nests 0 deep, `[]` 1, `[[1]]` 2). Walks without recursion and stops at the
    /// first container one level too deep.
    package func nests(within levels: Int) -> Bool {
        switch self {
        case .array, .object: break
        default: return true
        }
        var pending: [(value: JSONValue, depth: Int)] = [(self, 0)]
        while let (value, depth) = pending.popLast() {
            switch value {
            case .array(let elements):
                guard depth < levels else { return false }
                for element in elements {
                    if case .array = element { pending.append((element, depth + 1)) }
                    if case .object = element { pending.append((element, depth + 1)) }
                }
            case .object(let members):
                guard depth < levels else { return false }
                for member in members.values {
                    if case .array = member { pending.append((member, depth + 1)) }
                    if case .object = member { pending.append((member, depth + 1)) }
                }
            default:
                continue
            }
        }
        return true
    }
}

extension JSONValue {
    /// Whether two values are equal: the same kind, and equal Booleans, number texts (`1` and
    /// `1.0` differ) or strings, or arrays with equal elements in the same order, or objects
    /// with the same keys and equal values under them.
    ///
    /// Compares with a stack of its own, not by recursion, so values nested any number of
    /// levels deep compare on the smallest thread stack.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.equals(rhs) { $0 == $1 }
    }

    /// Whether this value equals `other` as ``==(_:_:)`` says, numbers compared by
    /// `numbersEqual` (JSON Schema compares them by value: `1` equals `1.0`). Compares with a
    /// stack of its own, not by recursion.
    package func equals(_ other: JSONValue, numbersEqual: (JSONNumber, JSONNumber) -> Bool) -> Bool {
        var pending: [(JSONValue, JSONValue)] = []
        var pair = (self, other)
        while true {
            switch pair {
            case (.null, .null): break
            case (.bool(let left), .bool(let right)): guard left == right else { return false }
            case (.number(let left), .number(let right)): guard numbersEqual(left, right) else { return false }
            case (.string(let left), .string(let right)): guard left == right else { return false }
            case (.array(let left), .array(let right)):
                guard left.count == right.count else { return false }
                pending.append(contentsOf: zip(left, right))
            case (.object(let left), .object(let right)):
                guard left.count == right.count else { return false }
                for (key, value) in left {
                    guard let other = right[key] else { return false }
                    pending.append((value, other))
                }
            default:
                return false
            }
            guard let next = pending.popLast() else { return true }
            pair = next
        }
    }

    /// Feeds the value to `hasher`: equal values (see ``==(_:_:)``) hash the same, object
    /// members taken in ascending order of their keys. Walks with a stack of its own, not by
    /// recursion.
    /// - Parameter hasher: the hasher.
    public func hash(into hasher: inout Hasher) {
        var walk = JSONValueWalk(self, sortsKeys: true)
        while let event = walk.next() {
            switch event {
            case .scalar(.bool(let flag)):
                hasher.combine(1 as UInt8)
                hasher.combine(flag)
            case .scalar(.number(let number)):
                hasher.combine(2 as UInt8)
                hasher.combine(number)
            case .scalar(.string(let string)):
                hasher.combine(3 as UInt8)
                hasher.combine(string)
            case .scalar:
                hasher.combine(0 as UInt8)
            case .beginArray(let count):
                hasher.combine(4 as UInt8)
                hasher.combine(count)
            case .beginObject(let count):
                hasher.combine(5 as UInt8)
                hasher.combine(count)
            case .key(let key):
                hasher.combine(key)
            case .endArray, .endObject:
                break
            }
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text, object keys in ascending order (`{"a":[1,true]}`).
    ///
    /// Without it Swift would describe the value by reflection, which takes
    /// several kilobytes of stack per level and overflows a 512 KiB thread
    /// stack well within the default depth limit. ``JSONWriter`` writes a value
    /// nested any number of levels deep without recursing that deep.
    public var description: String {
        var writer = JSONWriter()
        writer.write(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
