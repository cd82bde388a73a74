import Foundation

@testable import SwitchboardJSON

extension SeededRandom {
    /// True `percent` times in a hundred.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// Generates random valid JSON text, with random whitespace, escapes and UTF-8.
struct JSONTextGenerator {
    var random: SeededRandom
    var maxDepth = 5

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func document() -> String {
        var text = ""
        whitespace(&text)
        value(&text, depth: 0)
        whitespace(&text)
        return text
    }

    mutating func whitespace(_ text: inout String) {
        guard random.chance(25) else { return }
        for _ in 0..<(1 + random.below(3)) { text += [" ", "\n", "\t", "\r"][random.below(4)] }
    }

    mutating func value(_ text: inout String, depth: Int) {
        let kind = depth >= maxDepth ? random.below(4) : random.below(7)
        switch kind {
        case 0: text += ["null", "true", "false"][random.below(3)]
        case 1, 2: text += number()
        case 3: string(&text)
        case 4:
            text += "["
            let count = random.below(5)
            for index in 0..<count {
                if index > 0 { text += "," }
                whitespace(&text)
                value(&text, depth: depth + 1)
                whitespace(&text)
            }
            if count == 0 { whitespace(&text) }
            text += "]"
        default:
            text += "{"
            let count = random.below(6)
            var used = Set<String>()
            for index in 0..<count {
                var key = ""
                string(&key)
                // Keys are compared after unescaping: keep them unique by construction.
                let unique = "k\(index)"
                key.insert(contentsOf: unique, at: key.index(after: key.startIndex))
                guard used.insert(key).inserted else { continue }
                if index > 0 { text += "," }
                whitespace(&text)
                text += key
                whitespace(&text)
                text += ":"
                whitespace(&text)
                value(&text, depth: depth + 1)
                whitespace(&text)
            }
            text += "}"
        }
    }

    mutating func number() -> String {
        var text = random.chance(30) ? "-" : ""
        switch random.below(5) {
        case 0: text += "0"
        case 1: text += String(random.below(10))
        case 2: text += String(1 + random.below(9)) + String(random.next() % 1_000_000_000)
        case 3: text += String(1 + random.below(9)) + String(random.next() % 1_000_000_000_000)
        default: text += String(random.below(100_000))
        }
        if random.chance(35) { text += "." + String(random.next() % 100_000) }
        if random.chance(15) {
            text += ["e", "E"][random.below(2)] + ["", "+", "-"][random.below(3)] + String(random.below(40))
        }
        return text
    }

    mutating func string(_ text: inout String) {
        text += "\""
        for _ in 0..<random.below(12) {
            switch random.below(14) {
            case 0: text += ["\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"][random.below(8)]
            case 1: text += String(format: "\\u%04x", 1 + random.below(0xD7FF))
            case 2: text += ["\\ud83d\\ude00", "\\uD834\\uDD1E", "\\udbff\\udfff"][random.below(3)]
            case 3: text += ["é", "日本", "😀", "\u{7FF}", "\u{FFFD}", "\u{10FFFF}", "\u{2028}"][random.below(7)]
            default:
                let scalar = Unicode.Scalar(UInt8(0x20 + random.below(0x5F)))
                if scalar == "\"" || scalar == "\\" { text += "x" } else { text.unicodeScalars.append(scalar) }
            }
        }
        text += "\""
    }
}

/// Generates random `JSONValue`s (numbers as valid text of many shapes).
struct JSONValueGenerator {
    var random: SeededRandom
    var text: JSONTextGenerator

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
        text = JSONTextGenerator(seed: seed &+ 1)
    }

    mutating func value(depth: Int = 0) -> JSONValue {
        switch depth >= 4 ? random.below(4) : random.below(6) {
        case 0: return [.null, .bool(true), .bool(false)][random.below(3)]
        case 1: return .number(JSONNumber(unchecked: text.number()))
        case 2, 3: return .string(string())
        case 4: return .array((0..<random.below(5)).map { _ in value(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<random.below(6) { members[string()] = value(depth: depth + 1) }
            return .object(members)
        }
    }

    mutating func string() -> String {
        var result = ""
        for _ in 0..<random.below(10) {
            switch random.below(8) {
            case 0: result.unicodeScalars.append(Unicode.Scalar(UInt8(random.below(0x20))))
            case 1: result += ["\"", "\\", "/", "\u{7F}", "\u{2028}", "\u{2029}", "\u{85}"][random.below(7)]
            case 2: result += ["é", "日本", "😀", "\u{10FFFF}", "\u{FEFF}"][random.below(5)]
            default: result.unicodeScalars.append(Unicode.Scalar(UInt8(0x20 + random.below(0x5F))))
            }
        }
        return result
    }
}

/// A shape both JSONValue and a Foundation tree reduce to, for comparing them.
indirect enum NormalizedJSON: Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([NormalizedJSON])
    case object([String: NormalizedJSON])

    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .number(let number): self = .number(Double(number.text) ?? .nan)
        case .string(let string): self = .string(string)
        case .array(let elements): self = .array(elements.map(NormalizedJSON.init))
        case .object(let members): self = .object(members.mapValues(NormalizedJSON.init))
        }
    }

    init?(foundation value: Any) {
        switch value {
        case is NSNull: self = .null
        case let string as String: self = .string(string)
        case let number as NSNumber:
            if String(describing: type(of: number)) == "__NSCFBoolean" {
                self = .bool(number.boolValue)
            } else {
                self = .number(number.doubleValue)
            }
        case let flag as Bool: self = .bool(flag)
        case let elements as [Any]:
            var result: [NormalizedJSON] = []
            for element in elements {
                guard let normalized = NormalizedJSON(foundation: element) else { return nil }
                result.append(normalized)
            }
            self = .array(result)
        case let members as [String: Any]:
            var result: [String: NormalizedJSON] = [:]
            for (key, member) in members {
                guard let normalized = NormalizedJSON(foundation: member) else { return nil }
                result[key] = normalized
            }
            self = .object(result)
        default: return nil
        }
    }

    static func == (lhs: NormalizedJSON, rhs: NormalizedJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)):
            return a == b || abs(a - b) <= 1e-12 * max(abs(a), abs(b))
        case (.string(let a), .string(let b)): return Array(a.unicodeScalars) == Array(b.unicodeScalars)
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }

    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return "\(flag)"
        case .number(let number): return "\(number)"
        case .string(let string): return string.debugDescription
        case .array(let elements): return "[\(elements.map(\.description).joined(separator: ","))]"
        case .object(let members):
            return
                "{\(members.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription):\($0.value)" }.joined(separator: ","))}"
        }
    }
}
