/// What a page states once per load, its *hello*: the digest of each channel's contract it was
/// built against (the generated client's `contract.channels[name].digest`):
/// ```json
/// {"contracts": {"addCartLine": "sha256:…", "productCartGetState": "sha256:…"}}
/// ```
/// The app compares them with its own (``Router/checkContracts(_:from:)``) and answers with the
/// channels that differ, so the page can switch a feature off instead of sending bodies the app
/// will refuse. The WebKit bridge takes a hello on the script message handler named after its
/// `globalName`; the wire format as a `{"hello": {…}}` line. A hello is `Decodable`: read one from a
/// body with `BodyDecoder().decode(PageHello.self, from: body)`.
public struct PageHello: Sendable, Hashable, Decodable {
    /// The digest (`sha256:…`) of each channel's contract the page was built against, by channel name.
    public var contracts: [String: String]

    /// Creates a hello.
    /// - Parameter contracts: each channel's digest, by name.
    public init(contracts: [String: String]) {
        self.contracts = contracts
    }

    /// Reads a hello from a message body, as `BodyDecoder().decode(PageHello.self, from: body)` does
    /// (the one way for a user): for the WebKit bridge and the wire format.
    /// - Parameter body: the body the page posted.
    /// - Throws: ``BodyDecodingError`` with the key path of the problem (`body.contracts.addCartLine`)
    ///   when the body is not `{"contracts": {NAME: DIGEST, …}}` (other keys are ignored).
    package init(body: MessageBody) throws(BodyDecodingError) {
        self = try body.decode(PageHello.self)
    }
}
