/// A call into the page the bridge asks its registry to make: a fixed function body and its
/// arguments, passed as values (WebKit's `callAsyncJavaScript(_:arguments:in:in:)`), so nothing
/// the app or a user sends is ever written into script text.
public struct PageScript: Sendable {
    /// The function body: fixed text that reads its arguments by name.
    public let source: String
    /// The arguments, by name: JSON values.
    public let arguments: [String: JSONValue]
    /// Whether a frame may receive the call (the channel's origin policy); the registry asks it
    /// for each frame it would run the call in.
    public let admits: @Sendable (MessageSender) -> Bool

    /// Creates a call.
    package init(
        source: String, arguments: [String: JSONValue],
        admits: @escaping @Sendable (MessageSender) -> Bool = { _ in true }
    ) {
        self.source = source
        self.arguments = arguments
        self.admits = admits
    }

    /// Publishes `manifest` to the loaded page: sets `window[globalName].manifest` and dispatches
    /// `"<globalName>:manifest"`, as the user script does at each load.
    package static func manifest(_ manifest: Manifest, globalName: String) -> PageScript {
        let value = (try? BodyEncoder().encodeJSONValue(manifest)) ?? .object([:])
        return PageScript(
            source: """
                var root = window[globalName] = window[globalName] || {};
                root.manifest = manifest;
                window.dispatchEvent(new CustomEvent(globalName + ":manifest", { detail: manifest }));
                """,
            arguments: ["globalName": .string(globalName), "manifest": value])
    }

    /// Delivers a push: dispatches `"<globalName>:push"` with `{name, body}` as its detail.
    package static func push(
        channel: Channel, body: JSONValue, globalName: String, admits: @escaping @Sendable (MessageSender) -> Bool
    ) -> PageScript {
        PageScript(
            source: """
                window.dispatchEvent(new CustomEvent(globalName + ":push", { detail: { name: name, body: body } }));
                """,
            arguments: ["globalName": .string(globalName), "name": .string(channel.name), "body": body],
            admits: admits)
    }
}
