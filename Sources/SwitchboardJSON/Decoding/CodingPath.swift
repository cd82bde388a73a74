// The coding path as a cheap linked list, turned into `[any CodingKey]` only
// when an error is thrown or someone asks for `codingPath` (swift-foundation's
// `_CodingPathNode` shape).

/// One step below a value: nothing (the value itself), a key, or an array index.
enum DecodingStep {
    case none
    case key(any CodingKey)
    case index(Int)
}

/// A node of the coding path, from the root down.
indirect enum DecodingPath {
    case root
    case key(any CodingKey, parent: DecodingPath, depth: Int)
    case index(Int, parent: DecodingPath, depth: Int)

    /// The number of keys and indexes from the root to this node.
    var depth: Int {
        switch self {
        case .root: return 0
        case .key(_, _, let depth), .index(_, _, let depth): return depth
        }
    }

    /// The depth of this node with `component` appended, without making that node.
    @inline(__always)
    func depth(appending component: DecodingStep) -> Int {
        if case .none = component { return depth }
        return depth + 1
    }

    /// This node with `component` appended (itself for `.none`).
    @inline(__always)
    func appending(_ component: DecodingStep) -> DecodingPath {
        switch component {
        case .none: return self
        case .key(let key): return .key(key, parent: self, depth: depth + 1)
        case .index(let index): return .index(index, parent: self, depth: depth + 1)
        }
    }

    /// The path from the root as coding keys.
    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        keys.reserveCapacity(depth)
        var node = self
        while true {
            switch node {
            case .root:
                keys.reverse()
                return keys
            case .key(let key, let parent, _):
                keys.append(key)
                node = parent
            case .index(let index, let parent, _):
                keys.append(DecodingElementKey(index))
                node = parent
            }
        }
    }

    /// The path from the root with `component` appended, as coding keys.
    func codingPath(appending component: DecodingStep) -> [any CodingKey] {
        var path = codingPath
        switch component {
        case .none: break
        case .key(let key): path.append(key)
        case .index(let index): path.append(DecodingElementKey(index))
        }
        return path
    }
}

/// The key of an array element, spelled as Foundation spells it (`Index 2`).
struct DecodingElementKey: CodingKey, Sendable {
    let intValue: Int?
    let stringValue: String

    init(_ index: Int) {
        self.intValue = index
        self.stringValue = "Index \(index)"
    }

    init?(stringValue: String) {
        return nil
    }

    init?(intValue: Int) {
        self.init(intValue)
    }
}

/// A key given by name: `decode(_:from:at:)`'s key and the members of a ``JSONValue`` object.
struct DecodingMemberKey: CodingKey, Sendable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) {
        self.stringValue = name
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        return nil
    }
}

extension CodingPathRendering {
    /// Renders `path` from the root: `body.lines[2].quantity`.
    ///
    /// Array indexes (Foundation's `Index n` keys) become `[n]`; names made only of
    /// letters, digits, `_`, `$` and `-` follow a dot; any other name is quoted,
    /// as in `body["first name"]`.
    ///
    /// The text is written as UTF-8 bytes and made a `String` once (appending to a
    /// `String` piece by piece costs several times as much).
    package static func render(_ path: [any CodingKey], root: String = "body") -> String {
        var bytes = start(root)
        for key in path { append(key, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Renders `path` and then `last` (a missing key), as ``render(_:root:)`` renders
    /// `path + [last]`, without making that array.
    static func render(_ path: [any CodingKey], then last: any CodingKey, root: String = "body") -> String {
        var bytes = start(root)
        for key in path { append(key, to: &bytes) }
        append(last, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func start(_ root: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        bytes.append(contentsOf: root.utf8)
        return bytes
    }

    private static func append(_ key: any CodingKey, to bytes: inout [UInt8]) {
        if let index = key.intValue, key is DecodingElementKey || key.stringValue == "Index \(index)" {
            bytes.append(UInt8(ascii: "["))
            appendDecimal(index, to: &bytes)
            bytes.append(UInt8(ascii: "]"))
            return
        }
        let name = key.stringValue
        // A plain name is copied from the string's own bytes, when it has them in one piece.
        let appended = name.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            guard isPlainName(utf8) else { return false }
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: utf8)
            return true
        }
        if appended == true { return }
        if appended == nil, isPlainName(name.utf8) {
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: name.utf8)
            return
        }
        bytes.append(UInt8(ascii: "["))
        bytes.append(contentsOf: quoted(name).utf8)
        bytes.append(UInt8(ascii: "]"))
    }

    /// `value`'s decimal digits (with `-` when negative), as `"\(value)"` writes them.
    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let first = bytes.count
        repeat {
            bytes.append(UInt8(truncatingIfNeeded: magnitude % 10) &+ UInt8(ascii: "0"))
            magnitude /= 10
        } while magnitude > 0
        bytes[first...].reverse()
    }

    /// Whether `name` is made only of letters, digits, `_`, `$` and `-` (and is not empty).
    private static func isPlainName(_ name: some Collection<UInt8>) -> Bool {
        guard !name.isEmpty else { return false }
        for byte in name {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "-"):
                continue
            default:
                return false
            }
        }
        return true
    }

    private static func quoted(_ name: String) -> String {
        var text = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }
}

/// Namespace for path rendering.
package enum CodingPathRendering {}
