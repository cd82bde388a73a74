/// Renders a ``Contract`` as TypeScript declarations for the page.
///
/// Each named Swift type (a schema with a `title`, or a `$defs` entry) becomes an
/// `export interface` (objects) or `export type` (enums); each channel gets
/// `<Channel>Body` and `<Channel>Reply` aliases; `Channels` maps every channel
/// to `{ body: B; reply: R }` (`void` where there is none), and `MessageHandlers`
/// types `window.webkit.messageHandlers`. An optional key is `key?: T | null`;
/// `Int` and `Double` are both `number` (TypeScript has no integer type: the
/// schema keeps the bounds); free-form JSON is `JSONValue`, an underivable part
/// `unknown`. Object types list their known keys only, so TypeScript's excess
/// property check flags a misspelt key in an object literal, although the
/// decoder ignores unknown keys.
struct ContractTypeScript {
    let contract: Contract

    private var declarations: [String] = []
    private var names: [JSONValue: String] = [:]
    private var taken: Set<String> = [
        "JSONValue", "Channels", "Pushes", "MessageHandlers", "contract", "connect", "SwitchboardError",
        "Switchboard", "ConnectOptions", "Manifest", "ErrorKind", "ErrorEnvelope", "Events", "Requests",
        "ContractTable", "BodyArguments", "Availability", "ChannelName", "createClient",
        // Global types the declarations name: a user type by one of these names would hide it.
        "Promise", "Record", "Array",
    ]
    private var references: [String: String] = [:]
    /// How many schemas deep ``type(of:indent:)`` is: a schema a type supplies
    /// (``ContractDescribable``) may nest any number of levels.
    private var depth = 0
    /// The deepest schema rendered; one nested deeper (or deeper than the thread's stack
    /// has room for, see `StackRoom`) is `unknown`.
    static let maxDepth = 256

    init(contract: Contract) {
        self.contract = contract
    }

    /// The declarations, as one TypeScript module.
    func render() -> String {
        var renderer = self
        return renderer.module()
    }

    /// One channel's TypeScript names: its body type and its reply type (`void` where there is none).
    struct ChannelTypes {
        let channel: Channel
        let kind: Contract.Kind
        let body: String
        let reply: String
    }

    /// The declarations of every named type and each channel's body and reply aliases, in order,
    /// and each channel's names (sorted by channel).
    func rendered() -> (declarations: [String], channels: [ChannelTypes]) {
        var renderer = self
        let channels = renderer.prepare()
        return (renderer.declarations, channels)
    }

    private mutating func prepare() -> [ChannelTypes] {
        // Definitions first, so `$ref`s resolve to their names.
        for key in contract.definitions.keys.sorted() {
            guard let schema = contract.definitions[key]?.json else { continue }
            let base = schema.objectValue?["title"]?.stringValue ?? key
            references["#/$defs/" + key] = reserve(base)
        }
        for key in contract.definitions.keys.sorted() {
            guard let schema = contract.definitions[key]?.json, let name = references["#/$defs/" + key] else {
                continue
            }
            declare(name, schema)
        }
        var channels: [ChannelTypes] = []
        for channel in contract.channels.keys.sorted() {
            guard let entry = contract.channels[channel] else { continue }
            let stem = ContractTypeScript.pascalCase(channel.name)
            var body = "void"
            if let schema = entry.body?.json {
                body = reserve(stem + "Body")
                declarations.append("export type \(body) = \(type(of: schema, indent: 0));")
            }
            var reply = "void"
            if entry.kind == .request {
                reply = reserve(stem + "Reply")
                declarations.append("export type \(reply) = \(type(of: entry.reply?.json ?? [:], indent: 0));")
            }
            channels.append(ChannelTypes(channel: channel, kind: entry.kind, body: body, reply: reply))
        }
        return channels
    }

    /// `JSONValue`'s declaration, then each of `declarations`, each followed by an empty line.
    static func declarationLines(_ declarations: [String]) -> [String] {
        var lines = [
            "/** Any JSON value. */",
            "export type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue };",
            "",
        ]
        for declaration in declarations {
            lines.append(declaration)
            lines.append("")
        }
        return lines
    }

    private mutating func module() -> String {
        let channels = prepare()
        let digest = contract.digest
        var lines = [
            "// The Switchboard contract: generated from the app's channel types; do not edit.",
            "// Regenerate with `switchboard schema --typescript` (or Contract.typeScript).",
            "",
            "/** The digest of the contract these declarations describe; compare with the manifest's `contract`. */",
            "export const contract = \(ContractTypeScript.literal(.string(digest)));",
            "",
        ]
        lines.append(contentsOf: ContractTypeScript.declarationLines(declarations))
        lines.append("/** Every channel the page sends on: the body it takes and the reply it answers with. */")
        lines.append("export interface Channels {")
        for entry in channels where entry.kind != .push {
            lines.append(
                "  \(ContractTypeScript.propertyName(entry.channel.name)): { body: \(entry.body); reply: \(entry.reply) };"
            )
        }
        lines.append("}")
        lines.append("")
        lines.append("/** Every channel the app pushes to the page on: the body the page receives. */")
        lines.append("export interface Pushes {")
        for entry in channels where entry.kind == .push {
            lines.append("  \(ContractTypeScript.propertyName(entry.channel.name)): \(entry.body);")
        }
        lines.append("}")
        lines.append("")
        lines.append(
            "/** `window.webkit.messageHandlers`, typed by channel; a channel's handler exists only while it is live. */"
        )
        lines.append("export type MessageHandlers = {")
        lines.append(
            "  [Name in keyof Channels]?: { postMessage(body: Channels[Name][\"body\"]): Promise<Channels[Name][\"reply\"]> };"
        )
        lines.append("};")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A free identifier starting with `base` (`Offer`, then `Offer2`, `Offer3`…).
    private mutating func reserve(_ base: String) -> String {
        let stem = ContractTypeScript.pascalCase(base)
        var name = stem
        var counter = 2
        while taken.contains(name) {
            name = stem + String(counter)
            counter += 1
        }
        taken.insert(name)
        return name
    }

    /// Declares `name` as `schema`: an interface for an object, a type alias otherwise.
    private mutating func declare(_ name: String, _ schema: JSONValue) {
        names[schema] = name
        let members = schema.objectValue ?? [:]
        if members["type"] == "object", members["additionalProperties"] == nil, let properties = members["properties"] {
            declarations.append("export interface \(name) \(objectBody(properties, members["required"], indent: 0))")
        } else {
            declarations.append("export type \(name) = \(expression(schema, indent: 0));")
        }
    }

    /// The TypeScript type of `schema`: the name of a named type (declared on first use), or an expression.
    private mutating func type(of schema: JSONValue, indent: Int) -> String {
        // Each level takes a few KiB of stack in a debug build: stop at the limit, or sooner
        // when the thread's stack runs short (a 512 KiB thread holds about a hundred levels).
        guard depth < ContractTypeScript.maxDepth, !StackRoom.isShort(depth: depth) else {
            return "unknown /* nested too deep */"
        }
        depth += 1
        defer { depth -= 1 }
        if let name = names[schema] { return name }
        if let title = schema.objectValue?["title"]?.stringValue, schema.objectValue?["type"] != nil {
            let name = reserve(title)
            declare(name, schema)
            return name
        }
        return expression(schema, indent: indent)
    }

    private mutating func expression(_ schema: JSONValue, indent: Int) -> String {
        guard let members = schema.objectValue else { return schema == .bool(false) ? "never" : "JSONValue" }
        if let reason = members[ContractKeyword.underivable]?.stringValue {
            return "unknown /* \(reason.replacingOccurrences(of: "*/", with: "* /")) */"
        }
        if let reference = members["$ref"]?.stringValue { return references[reference] ?? "unknown" }
        if case .array(let values)? = members["enum"] {
            return values.map(ContractTypeScript.literal).joined(separator: " | ")
        }
        if let value = members["const"] { return ContractTypeScript.literal(value) }
        if case .array(let branches)? = members["anyOf"] {
            return branches.map { grouped(type(of: $0, indent: indent)) }.joined(separator: " | ")
        }
        if case .array(let parts)? = members["allOf"] {
            return parts.map { grouped(type(of: $0, indent: indent)) }.joined(separator: " & ")
        }
        switch members["type"] {
        case .string(let name)?:
            return typeName(name, members, indent: indent)
        case .array(let names)?:
            return names.compactMap(\.stringValue).map { grouped(typeName($0, members, indent: indent)) }
                .joined(separator: " | ")
        default:
            return "JSONValue"
        }
    }

    private mutating func typeName(_ name: String, _ members: [String: JSONValue], indent: Int) -> String {
        switch name {
        case "string": return "string"
        case "integer", "number": return "number"
        case "boolean": return "boolean"
        case "null": return "null"
        case "array":
            if case .array(let prefix)? = members["prefixItems"] {
                let items = prefix.map { type(of: $0, indent: indent) }
                return "[" + (items + ["...JSONValue[]"]).joined(separator: ", ") + "]"
            }
            guard let items = members["items"] else { return "JSONValue[]" }
            return grouped(type(of: items, indent: indent)) + "[]"
        case "object":
            if let properties = members["properties"] {
                return objectBody(properties, members["required"], indent: indent)
            }
            let value = members["additionalProperties"].map { type(of: $0, indent: indent + 1) } ?? "JSONValue"
            // The deriver's `propertyNames` for `[Int: Value]`: its keys are integers' text. Any
            // other (a user's schema) names string keys, whatever it allows.
            let key = members["propertyNames"] == JSONSchema.integerKeyNames ? "number" : "string"
            return "{ [key: \(key)]: \(value) }"
        default:
            return "JSONValue"
        }
    }

    private mutating func objectBody(_ properties: JSONValue, _ required: JSONValue?, indent: Int) -> String {
        let requiredKeys = Set(required?.arrayValue?.compactMap(\.stringValue) ?? [])
        let padding = String(repeating: "  ", count: indent + 1)
        var lines: [String] = []
        for (key, schema) in (properties.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            let mark = requiredKeys.contains(key) ? "" : "?"
            lines.append(
                "\(padding)\(ContractTypeScript.propertyName(key))\(mark): \(type(of: schema, indent: indent + 1));")
        }
        if lines.isEmpty { return "{}" }
        return "{\n" + lines.joined(separator: "\n") + "\n" + String(repeating: "  ", count: indent) + "}"
    }

    /// A union or intersection in parentheses, so it can be an array element or a union member.
    private func grouped(_ type: String) -> String {
        type.contains(" | ") || type.contains(" & ") ? "(\(type))" : type
    }

    /// A JSON value as a TypeScript literal (JSON's syntax is TypeScript's).
    static func literal(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// A property key: bare when it is an identifier, else a string literal.
    static func propertyName(_ name: String) -> String {
        isIdentifier(name) ? name : literal(.string(name))
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "$")
        }
    }

    /// `addCartLine` → `AddCartLine`, `Box<Int>` → `BoxInt`, `my.Node` → `MyNode`; never empty,
    /// never starting with a digit.
    static func pascalCase(_ text: String) -> String {
        var result = ""
        var upper = true
        for scalar in text.unicodeScalars {
            guard scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) else {
                upper = true
                continue
            }
            result += upper ? String(scalar).uppercased() : String(scalar)
            upper = false
        }
        if result.isEmpty || ("0"..."9").contains(result.unicodeScalars.first ?? "0") { result = "T" + result }
        return result
    }
}
