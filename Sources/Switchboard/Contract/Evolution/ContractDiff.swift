/// The differences between two versions of a contract, channel by channel, each classified
/// by the direction its values travel: what `switchboard schema diff OLD NEW` prints.
///
/// ```swift
/// let diff = ContractDiff(old: try ContractDocument(data: recorded), new: ContractDocument(router.contract))
/// if diff.isBreaking { print(diff.text) }   // one line per change, breaking first
/// ```
///
/// **Bodies the page sends** (event and request bodies, `page-to-app`): the new contract must
/// accept every body the old one accepted. Breaking: a channel removed or changed kind; a key
/// newly required; a type, `format`, `pattern`, bound or `enum` narrowed;
/// `additionalProperties` closed. Compatible: a new channel; a new optional key; a
/// requirement dropped; a type, bound or `enum` widened.
///
/// **What the app sends** (replies and push bodies, `app-to-page`): every value the new
/// contract lets the app produce must satisfy the old one. Breaking: a required key removed
/// or made optional; a type, bound or `enum` widened (a new `enum` case breaks a reader that
/// switches on it). Compatible: a new key; a narrowing.
///
/// A part marked underivable on either side is `unknown`, never compatible: its real shape
/// may have changed behind an unchanged marking. So is a keyword the comparison does not
/// read that differs. A `pattern` or `format` that changed in any way counts as narrowed
/// (whether one regular expression takes all that another takes is undecidable).
///
/// `$ref`s into `$defs` are followed, recursive types included; a definition renamed with
/// the same shape, keys reordered and `title`s changed are no change. A breaking change to
/// what the page sends comes with an ``ContractChange/example``: a body the old contract
/// accepts and the new one refuses, both checked with the router's validator.
public struct ContractDiff: Sendable {
    /// Every change, breaking ones first, then compatible, then unknown; within each, by channel.
    public let changes: [ContractChange]

    /// Compares two contract documents.
    /// - Parameters:
    ///   - old: the contract the page (or the app) was built against.
    ///   - new: the contract of the release to check.
    public init(old: ContractDocument, new: ContractDocument) {
        var changes: [ContractChange] = []
        for name in Set(old.channels.keys).union(new.channels.keys).sorted() {
            changes += ContractDiff.changes(of: name, old.channels[name], new.channels[name], old: old, new: new)
        }
        let rank: [ContractChange.Severity: Int] = [.breaking: 0, .compatible: 1, .unknown: 2]
        self.changes = changes.enumerated().sorted { first, second in
            let left = rank[first.element.severity] ?? 0
            let right = rank[second.element.severity] ?? 0
            return left != right ? left < right : first.offset < second.offset
        }.map(\.element)
    }

    /// Compares two contracts.
    /// - Parameters:
    ///   - old: the old contract.
    ///   - new: the new contract.
    public init(old: Contract, new: Contract) {
        self.init(old: ContractDocument(old), new: ContractDocument(new))
    }

    /// The breaking changes.
    public var breaking: [ContractChange] { changes.filter { $0.severity == .breaking } }
    /// The compatible changes.
    public var compatible: [ContractChange] { changes.filter { $0.severity == .compatible } }
    /// The changes that cannot be judged.
    public var unknown: [ContractChange] { changes.filter { $0.severity == .unknown } }

    /// Whether any change is breaking.
    public var isBreaking: Bool { changes.contains { $0.severity == .breaking } }

    /// `{"breaking":[…],"compatible":[…],"unknown":[…]}` on one line, each item
    /// `{"channel","direction","path","change"}` (and `"example"`).
    public var json: String {
        var writer = JSONWriter(escapesLineSeparators: false)
        writer.beginObject()
        for severity in ContractChange.Severity.allCases {
            writer.key(severity.rawValue)
            writer.beginArray()
            for change in changes where change.severity == severity { change.write(to: &writer) }
            writer.endArray()
        }
        writer.endObject()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// One line per change (``ContractChange/line``), breaking first, each ending with a newline.
    public var text: String {
        changes.map { $0.line + "\n" }.joined()
    }

    /// `2 breaking, 1 compatible, 0 unknown`.
    public var summary: String {
        "\(breaking.count) breaking, \(compatible.count) compatible, \(unknown.count) unknown"
    }

    // MARK: Channels

    private static func changes(
        of name: String, _ before: ContractDocument.Entry?, _ after: ContractDocument.Entry?,
        old: ContractDocument, new: ContractDocument
    ) -> [ContractChange] {
        switch (before, after) {
        case (nil, nil):
            return []
        case (let before?, nil):
            var example: JSONValue?
            if before.bodyDirection == .pageToApp, let body = before.body {
                example = ContractExample(old: body, oldDefinitions: old.definitions, new: false, newDefinitions: [:])
                    .findAtRandom()
            }
            return [
                ContractChange(
                    channel: name, direction: before.bodyDirection, path: "",
                    change: "channel removed (was \(before.kind.rawValue))", severity: .breaking, example: example)
            ]
        case (nil, let after?):
            return [
                ContractChange(
                    channel: name, direction: after.bodyDirection, path: "",
                    change: "new channel (\(after.kind.rawValue))",
                    severity: .compatible)
            ]
        case (let before?, let after?):
            guard before.kind == after.kind else {
                return [
                    ContractChange(
                        channel: name, direction: before.bodyDirection, path: "",
                        change: "kind changed from \(before.kind.rawValue) to \(after.kind.rawValue)",
                        severity: .breaking)
                ]
            }
            var changes = part(
                name, before.bodyDirection, before.body, after.body, old: old, new: new, isReply: false)
            if before.kind == .request {
                changes += part(name, .appToPage, before.reply, after.reply, old: old, new: new, isReply: true)
            }
            return changes
        }
    }

    /// The changes of one body or reply.
    private static func part(
        _ name: String, _ direction: ContractChange.Direction, _ before: JSONValue?, _ after: JSONValue?,
        old: ContractDocument, new: ContractDocument, isReply: Bool
    ) -> [ContractChange] {
        if before == nil && after == nil { return [] }
        if before != nil && after == nil && !isReply {
            let effect: SchemaChange.Effect = direction == .pageToApp ? .widened : .narrowed
            return [
                ContractChange(
                    channel: name, direction: direction, path: "",
                    change: direction == .pageToApp ? "body no longer read" : "body no longer sent",
                    severity: effect.severity(in: direction))
            ]
        }
        let oldSchema = before ?? true
        let newSchema = after ?? true
        let comparison = SchemaComparison(
            direction: direction, oldDefinitions: old.definitions, newDefinitions: new.definitions)
        let finder = ContractExample(
            old: oldSchema, oldDefinitions: old.definitions, new: newSchema, newDefinitions: new.definitions)
        let prefix = before == nil ? "body now read: " : ""
        return comparison.compare(oldSchema, newSchema).map { change in
            let severity = change.effect.severity(in: direction)
            let example = severity == .breaking && direction == .pageToApp ? finder.find(around: change) : nil
            return ContractChange(
                channel: name, direction: direction, path: change.pointer, change: prefix + change.text,
                severity: severity, example: example)
        }
    }
}
