import Foundation

/// Maps the result of a routed message to the two arguments of WebKit's
/// `WKScriptMessageHandlerWithReply` reply handler: `(value, nil)` resolves the
/// page's promise with `value`; `(nil, error)` rejects it with `error`, the JSON text of an
/// ``ErrorEnvelope`` (`{"kind","channel","message","data"?}`), which the page parses
/// (the generated client turns it into a `SwitchboardError`).
package enum ScriptReply {
    /// The reply handler's arguments for `result`.
    ///
    /// - A reply becomes its JSON-compatible Foundation tree (``ReplyValue/foundationObject()``);
    ///   an event's empty reply (``ReplyValue/none``) becomes `NSNull` (JavaScript `null`).
    /// - A failure becomes `(nil, envelope)`: the JSON text of ``ErrorEnvelope/init(_:)`` of the
    ///   failure, whose `kind` says what went wrong (`noResponder`, `invalid`, `failed`, `dropped`,
    ///   `timedOut`, `rejected`) and whose `message` is a sentence naming the channel.
    /// - A reply that cannot be encoded becomes the envelope of
    ///   ``RequestFailure/unencodableReply(_:_:)`` (kind `failed`); nothing half-encoded reaches the page.
    /// - Parameters:
    ///   - result: what the router resolved the message's reply with.
    ///   - channel: the channel of the message, named in the message of an unencodable reply.
    /// - Returns: the value and the error's envelope text; exactly one of them is non-`nil`.
    package static func arguments(
        for result: Result<ReplyValue, RequestFailure>, on channel: Channel?
    ) -> (value: Any?, error: String?) {
        switch result {
        case .success(let reply):
            do {
                return (try reply.foundationObject(), nil)
            } catch {
                guard let channel else {
                    let envelope = ErrorEnvelope(
                        kind: .failed, channel: nil, message: "the reply could not be encoded: \(error)")
                    return (nil, envelope.jsonText)
                }
                return (nil, ErrorEnvelope(RequestFailure.unencodableReply(channel, error)).jsonText)
            }
        case .failure(let failure):
            return (nil, ErrorEnvelope(failure).jsonText)
        }
    }
}
