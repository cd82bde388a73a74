import Foundation

/// A ready-made middleware that writes one line per message: its channel, its
/// id (when it has one), its outcome and its body, rendered compactly as JSON
/// with large bodies cut short.
///
/// ```swift
/// let logging = router.use(LoggingMiddleware(maxBodyBytes: 120))
/// // switchboard: addCartLine → handled by 1 {"merchandiseId":"m1","productId":"p1","quantity":2}
/// // switchboard: productCartUpdate #r7 → awaiting reply {"offer":{"id":"o1","price":"9.99…"}… (+1234 bytes)
/// ```
///
/// The line is written after the rest of the chain ran, so it shows the outcome;
/// register the logging middleware first to log what every other middleware did.
/// Object keys are sorted, so the same body always renders the same way. The
/// body is rendered within the byte budget: a huge body costs a walk over it,
/// never a huge string.
public struct LoggingMiddleware: MessageMiddleware {
    /// The most bytes of body text written per line; the rest is summarised as `… (+N bytes)`.
    public let maxBodyBytes: Int
    /// The text each line starts with (`switchboard` by default), followed by `: `; empty for none.
    public let prefix: String
    private let sink: @Sendable (String) -> Void

    /// Writes each line, with a newline, to standard error.
    public static let standardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Creates a logging middleware.
    /// - Parameters:
    ///   - maxBodyBytes: the most bytes of body text per line (at least 0).
    ///   - prefix: the text each line starts with; empty for none.
    ///   - sink: where lines go (without a trailing newline); standard error by default.
    public init(
        maxBodyBytes: Int = 256,
        prefix: String = "switchboard",
        sink: @escaping @Sendable (String) -> Void = LoggingMiddleware.standardError
    ) {
        self.maxBodyBytes = Swift.max(0, maxBodyBytes)
        self.prefix = prefix
        self.sink = sink
    }

    /// Passes the message on, then writes its line.
    /// - Parameters:
    ///   - message: the message.
    ///   - next: the rest of the chain.
    /// - Returns: the outcome of the rest of the chain, unchanged.
    public func handle(_ message: Message, next: MiddlewareNext) -> Outcome {
        let outcome = next(message)
        sink(line(for: message, outcome: outcome))
        return outcome
    }

    /// The line written for a message and its outcome.
    /// - Parameters:
    ///   - message: the message.
    ///   - outcome: what happened to it.
    /// - Returns: one line, with no line break in it.
    public func line(for message: Message, outcome: Outcome) -> String {
        var line = prefix.isEmpty ? "" : prefix + ": "
        line += message.channel.name
        if let id = message.id {
            var renderer = BodyRenderer(limit: 128)
            renderer.string(id)
            line += " #" + renderer.output
        }
        line += " → " + String(describing: outcome)
        line += " " + LoggingMiddleware.render(message.body, maxBytes: maxBodyBytes)
        return line.contains(where: \.isNewline) ? line.split(whereSeparator: \.isNewline).joined(separator: " ") : line
    }

    /// Renders a body as compact JSON with sorted keys, cut to `maxBytes` bytes of UTF-8
    /// (at a character boundary) followed by `… (+N bytes)`; `(no body)` when absent.
    /// Values JSON has no word for are written as `"<TypeName>"`.
    /// - Parameters:
    ///   - body: the body.
    ///   - maxBytes: the most bytes of body text.
    /// - Returns: the rendering.
    package static func render(_ body: MessageBody, maxBytes: Int) -> String {
        var renderer = BodyRenderer(limit: Swift.max(0, maxBytes))
        switch body.storage {
        case .absent: return "(no body)"
        case .foundation(let tree): renderer.value(tree.value, depth: 0)
        case .json(let value): renderer.json(value, depth: 0)
        case .tape(let tape, let index): renderer.json(tape.jsonValue(index), depth: 0)
        }
        return renderer.finished
    }
}

/// Writes JSON text within a byte budget, counting (not keeping) what goes past it.
struct BodyRenderer {
    let limit: Int
    private(set) var output = ""
    private var written = 0
    private var total = 0

    /// How deep the renderer goes before writing `…`.
    static let maxDepth = 32

    init(limit: Int) {
        self.limit = limit
    }

    /// The text, with `… (+N bytes)` when some was cut.
    var finished: String {
        total > written ? output + "… (+\(total - written) bytes)" : output
    }

    mutating func emit(_ text: String) {
        let count = text.utf8.count
        total += count
        guard written < limit else { return }
        if written + count <= limit {
            output += text
            written += count
            return
        }
        for character in text {
            let size = character.utf8.count
            guard written + size <= limit else { break }
            output.append(character)
            written += size
        }
    }

    mutating func string(_ text: String) {
        var escaped = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        emit(escaped + "\"")
    }

    mutating func value(_ value: Any, depth: Int) {
        guard depth < BodyRenderer.maxDepth else { return emit("…") }
        switch value {
        case is NSNull: emit("null")
        case let bool as Bool where type(of: value) == Bool.self: emit(bool ? "true" : "false")
        case let number as NSNumber
        where !(type(of: value) is any BinaryInteger.Type)
            && !(type(of: value) is any BinaryFloatingPoint.Type):
            emit(LoggingMiddlewareNumbers.text(of: number))
        case let integer as any BinaryInteger: emit(String(describing: integer))
        case let double as Double: emit(double.isFinite ? String(describing: double) : "\"\(double)\"")
        case let float as Float: emit(float.isFinite ? String(describing: float) : "\"\(float)\"")
        case let text as String: string(text)
        case let decimal as Decimal: emit(decimal.description)
        case let date as Date: string(date.ISO8601Format())
        case let url as URL: string(url.absoluteString)
        case let json as JSONValue: self.json(json, depth: depth)
        case let dictionary as [String: Any]: object(dictionary.map { ($0.key, $0.value) }, depth: depth)
        case let dictionary as NSDictionary:
            object(dictionary.compactMap { key, value in (key as? String).map { ($0, value) } }, depth: depth)
        case let array as [Any]: self.array(array, depth: depth)
        case let array as NSArray: self.array(array.map { $0 }, depth: depth)
        default: string("<\(type(of: value))>")
        }
    }

    mutating func json(_ value: JSONValue, depth: Int) {
        guard depth < BodyRenderer.maxDepth else { return emit("…") }
        switch value {
        case .null: emit("null")
        case .bool(let bool): emit(bool ? "true" : "false")
        case .number(let number): emit(number.text)
        case .string(let text): string(text)
        case .array(let items):
            emit("[")
            for (index, item) in items.enumerated() {
                if index > 0 { emit(",") }
                json(item, depth: depth + 1)
            }
            emit("]")
        case .object(let members):
            emit("{")
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { emit(",") }
                string(key)
                emit(":")
                json(members[key] ?? .null, depth: depth + 1)
            }
            emit("}")
        }
    }

    private mutating func object(_ members: [(String, Any)], depth: Int) {
        emit("{")
        for (index, member) in members.sorted(by: { $0.0 < $1.0 }).enumerated() {
            if index > 0 { emit(",") }
            string(member.0)
            emit(":")
            value(member.1, depth: depth + 1)
        }
        emit("}")
    }

    private mutating func array(_ items: [Any], depth: Int) {
        emit("[")
        for (index, item) in items.enumerated() {
            if index > 0 { emit(",") }
            value(item, depth: depth + 1)
        }
        emit("]")
    }
}

/// How the logging middleware writes a Foundation number.
enum LoggingMiddlewareNumbers {
    /// `true`/`false` for a boolean `NSNumber`, the number's digits otherwise.
    static func text(of number: NSNumber) -> String {
        if isBoolean(number) { return number.boolValue ? "true" : "false" }
        return number.stringValue
    }

    static func isBoolean(_ number: NSNumber) -> Bool {
        #if canImport(Darwin)
            return CFGetTypeID(number) == CFBooleanGetTypeID()
        #else
            return number === NSNumber(value: true) || number === NSNumber(value: false)
                || String(cString: number.objCType) == "B"
        #endif
    }
}
