import Foundation
import Switchboard
import SwitchboardJSON

/// Redaction of named keys in loosely typed bodies.
package enum Redaction {
    /// The value written in place of a redacted one.
    package static let placeholder = "[redacted]"

    /// `value` with the value of every object key in `keys` (compared
    /// case-insensitively), at any depth and inside arrays, replaced by ``placeholder``.
    package static func redact(_ value: Any, keys: Set<String>) -> Any {
        jsonSafe(value, redacting: Set(keys.map { $0.lowercased() }))
    }

    /// A JSON-safe copy of `value` with keys in `keys` (lowercased) redacted: strings,
    /// finite numbers, Booleans, `NSNull`, arrays and string-keyed objects are kept;
    /// dates become ISO 8601 strings; a ``JSONValue`` is read as its Foundation tree would be;
    /// anything else becomes its description.
    static func jsonSafe(_ value: Any, redacting keys: Set<String>, depth: Int = 0) -> Any {
        // The depth limit, or fewer levels when the thread's stack runs short (a level takes a few frames).
        if depth > DecodingOptions.defaultMaxDepth || StackRoom.isShort(depth: depth) { return "[too deep]" }
        switch value {
        case let object as [String: Any]:
            var copy: [String: Any] = [:]
            for (key, element) in object {
                copy[key] =
                    keys.contains(key.lowercased()) ? placeholder : jsonSafe(element, redacting: keys, depth: depth + 1)
            }
            return copy
        case let array as [Any]:
            return array.map { jsonSafe($0, redacting: keys, depth: depth + 1) }
        case let string as String:
            return string
        case is NSNull:
            return value
        case let bool as Bool where type(of: value) == Bool.self:
            return bool
        case let number as NSNumber:
            if isBool(number) { return number }
            return number.doubleValue.isFinite ? number : String(describing: number)
        case let date as Date:
            return ISO8601.format(date) ?? String(describing: date)
        case let json as JSONValue:
            // One level at a time (the children stay `JSONValue`s until reached), so a value built
            // in code nested past the limit stops there, not converted whole first.
            switch json {
            case .array(let elements): return jsonSafe(elements.map { $0 as Any }, redacting: keys, depth: depth)
            case .object(let members): return jsonSafe(members.mapValues { $0 as Any }, redacting: keys, depth: depth)
            default: return jsonSafe(json.foundationValue, redacting: keys, depth: depth)
            }
        case Optional<Any>.none:
            return NSNull()
        default:
            return String(describing: value)
        }
    }

    /// Writes a tree `jsonSafe` produced; object keys in ascending order.
    static func write(_ value: Any, into writer: inout JSONWriter, depth: Int = 0) {
        if StackRoom.isShort(depth: depth) { return writer.write("[too deep]") }
        switch value {
        case let object as [String: Any]:
            writer.beginObject()
            for key in object.keys.sorted() {
                writer.key(key)
                write(object[key] ?? NSNull(), into: &writer, depth: depth + 1)
            }
            writer.endObject()
        case let array as [Any]:
            writer.beginArray()
            for element in array { write(element, into: &writer, depth: depth + 1) }
            writer.endArray()
        case let string as String:
            writer.write(string)
        case let bool as Bool where type(of: value) == Bool.self:
            writer.write(bool)
        case let number as NSNumber:
            writeNumber(number, into: &writer)
        default:
            writer.writeNull()
        }
    }

    /// Whether an `NSNumber` holds a Boolean: Foundation gives Booleans their own
    /// `NSNumber` subclass (`__NSCFBoolean`) on every platform.
    private static func isBool(_ number: NSNumber) -> Bool {
        String(describing: type(of: number)).contains("Boolean")
    }

    private static func writeNumber(_ number: NSNumber, into writer: inout JSONWriter) {
        if isBool(number) {
            writer.write(number.boolValue)
            return
        }
        if let decimal = number as? NSDecimalNumber {
            if let exact = JSONNumber(decimal.stringValue) {
                writer.write(exact)
            } else {
                writer.write(decimal.stringValue)
            }
            return
        }
        switch String(cString: number.objCType) {
        case "d", "f":
            do {
                try writer.write(number.doubleValue)
            } catch {
                writer.write(number.stringValue)
            }
        case "Q", "L", "I", "S", "C":
            writer.write(number.uint64Value)
        default:
            writer.write(number.int64Value)
        }
    }
}
