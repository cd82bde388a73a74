import Foundation

/// Maps the result of a routed message to the two arguments of WebKit's
/// `WKScriptMessageHandlerWithReply` reply handler: `(value, nil)` resolves the
/// page's promise with `value`; `(nil, message)` rejects it with `message`.
public enum ScriptReply {
    /// The reply handler's arguments for `result`.
    ///
    /// - A reply becomes its JSON-compatible Foundation tree (``ReplyValue/foundationObject()``);
    ///   an event's empty reply (``ReplyValue/none``) becomes `NSNull` (JavaScript `null`).
    /// - A failure becomes `(nil, failure.message)`, a sentence naming the channel
    ///   and what went wrong (no responder, invalid body, responder failed, dropped, timed out, …).
    /// - A reply that cannot be encoded becomes `(nil, message)` of
    ///   ``RequestFailure/unencodableReply(_:_:)``; nothing half-encoded reaches the page.
    /// - Parameters:
    ///   - result: what the router resolved the message's reply with.
    ///   - channel: the channel of the message, named in the message of an unencodable reply.
    /// - Returns: the value and the error message; exactly one of them is non-`nil`.
    public static func arguments(
        for result: Result<ReplyValue, RequestFailure>, on channel: Channel?
    ) -> (value: Any?, error: String?) {
        switch result {
        case .success(let reply):
            do {
                return (try reply.foundationObject(), nil)
            } catch {
                guard let channel else { return (nil, "the reply could not be encoded: \(error)") }
                return (nil, RequestFailure.unencodableReply(channel, error).message)
            }
        case .failure(let failure):
            return (nil, failure.message)
        }
    }
}
