/// One difference between two contracts, classified by the direction its values travel
/// (see ``ContractDiff``).
///
/// As JSON (`switchboard schema diff --format json`): `{"channel", "direction", "path",
/// "change"}`, and `"example"` on a breaking change to what the page sends: a body the old
/// contract accepts and the new one refuses.
public struct ContractChange: Sendable, Hashable {
    /// Which way the values of the changed part travel.
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        /// Bodies the page sends (event and request bodies): the new contract must accept
        /// every body the old one accepted.
        case pageToApp = "page-to-app"
        /// What the app sends (replies and push bodies): every value the new contract lets the
        /// app produce must satisfy the old one.
        case appToPage = "app-to-page"
    }

    /// What a change means for a page and an app built against different versions.
    public enum Severity: String, Sendable, Hashable, CaseIterable {
        /// Something that worked with the old contract fails with the new one.
        case breaking
        /// Everything that worked with the old contract still works.
        case compatible
        /// Cannot be judged (a part is marked underivable, or uses a keyword not compared).
        case unknown
    }

    /// The channel's name.
    public let channel: String
    /// Which way the changed values travel.
    public let direction: Direction
    /// A JSON Pointer into the body or the reply (`""` for the whole of it, `/offer/quantity`);
    /// `*` stands for every element of an array or every other member of an object.
    public let path: String
    /// What changed, in words (`key newly required`, `maximum narrowed from 10 to 5`).
    public let change: String
    /// Breaking, compatible or unknown.
    public let severity: Severity
    /// For a breaking change to what the page sends: a body the old contract accepts and the
    /// new one refuses (both checked with the router's validator); `nil` when none was found.
    public let example: JSONValue?

    /// Creates a change.
    /// - Parameters:
    ///   - channel: the channel's name.
    ///   - direction: which way the values travel.
    ///   - path: a JSON Pointer into the body or reply.
    ///   - change: what changed, in words.
    ///   - severity: breaking, compatible or unknown.
    ///   - example: a body the old contract accepts and the new one refuses, if any.
    package init(
        channel: String, direction: Direction, path: String, change: String, severity: Severity,
        example: JSONValue? = nil
    ) {
        self.channel = channel
        self.direction = direction
        self.path = path
        self.change = change
        self.severity = severity
        self.example = example
    }

    /// `{"channel","direction","path","change"}` and `"example"` when there is one, in that order.
    /// - Parameter writer: the writer to write the object with.
    package func write(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("channel")
        writer.write(channel)
        writer.key("direction")
        writer.write(direction.rawValue)
        writer.key("path")
        writer.write(path)
        writer.key("change")
        writer.write(change)
        if let example {
            writer.key("example")
            writer.write(example)
        }
        writer.endObject()
    }

    /// One line: severity, channel, direction, path (`(root)` for the whole body or reply) and the change,
    /// with the example appended (`breaking addCartLine page-to-app /quantity: key newly required;
    /// example: {…}`).
    public var line: String {
        let shown = path.isEmpty ? "(root)" : path
        var text = "\(severity.rawValue) \(channel) \(direction.rawValue) \(shown): \(change)"
        if let example { text += "; example: \(example)" }
        return text
    }
}
