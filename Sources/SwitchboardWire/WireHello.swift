import Switchboard

/// A page's hello on the wire: a line with a `"hello"` member and no `"name"`,
/// ```json
/// {"hello": {"contracts": {"addCartLine": "sha256:…"}}, "id": "h1"}
/// ```
/// (`PageHello` in Switchboard; `id`, `origin` and `mainFrame` as in a message), answered by one line with
/// the outcome `hello` and the channels whose contract differs from the page's:
/// ```json
/// {"line":1,"id":"h1","outcome":"hello","differing":["addCartLine"]}
/// ```
/// A line with a `"name"` is a message whatever else it holds.
package struct WireHello: Sendable, Hashable {
    /// The digests the page states.
    package var hello: PageHello
    /// The id, when given.
    package var id: WireID?
    /// Who sent it, from `"origin"` and `"mainFrame"` (`MessageSender.unknown` without them).
    package var sender: MessageSender

    /// Creates a hello line.
    package init(hello: PageHello, id: WireID? = nil, sender: MessageSender = .unknown) {
        self.hello = hello
        self.id = id
        self.sender = sender
    }

    /// Whether `value` is a hello line: an object with a `"hello"` member and no `"name"`.
    package static func isHello(_ value: JSONValue) -> Bool {
        guard case .object(let members) = value else { return false }
        return members["hello"] != nil && members["name"] == nil
    }

    /// Reads a hello line from a parsed value (see ``isHello(_:)``).
    /// - Returns: the hello, or why the line is malformed (with the `id` when it could be read).
    package static func parse(value: JSONValue) -> Result<WireHello, WireMalformed> {
        guard case .object(let members) = value, let statement = members["hello"] else {
            return .failure(WireMalformed(message: "a hello line needs a \"hello\" object"))
        }
        var id: WireID?
        switch members["id"] {
        case nil: break
        case .string(let string)?: id = .string(string)
        case .number(let number)?: id = .number(number)
        case let other?:
            return .failure(WireMalformed(message: "\"id\" must be a string or a number, found \(other.kindName)"))
        }
        var origin: String?
        switch members["origin"] {
        case nil: break
        case .string(let text)?: origin = text
        case let other?: return .failure(WireMalformed(message: WireMessage.originProblem(other.kindName), id: id))
        }
        var mainFrame: Bool?
        switch members["mainFrame"] {
        case nil: break
        case .bool(let flag)?: mainFrame = flag
        case let other?: return .failure(WireMalformed(message: WireMessage.mainFrameProblem(other.kindName), id: id))
        }
        let hello: PageHello
        do {
            hello = try PageHello(body: MessageBody(json: statement))
        } catch {
            let path = error.path.hasPrefix("body") ? "hello" + error.path.dropFirst(4) : error.path
            return .failure(
                WireMalformed(
                    message: "\"hello\" must be {\"contracts\": {CHANNEL: DIGEST}}: \(path): \(error.message)", id: id))
        }
        let sender =
            origin == nil && mainFrame == nil ? .unknown : MessageSender(originText: origin, isMainFrame: mainFrame)
        return .success(WireHello(hello: hello, id: id, sender: sender))
    }
}
