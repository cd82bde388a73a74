import Foundation

/// A single-use handle through which a responder answers one request.
///
/// Call it once with a `Result`, as InAppStory's `complete` closure:
/// ```swift
/// router.respond(to: ProductCartUpdate.self) { request, reply in
///     reply(.success(cart.set(request.offer)))
/// }
/// ```
/// The handle may be stored and completed later, from any thread. It is
/// single-use by construction: a second completion is ignored and reported to
/// diagnostics as a duplicate (or late) reply, never a crash. Releasing the last
/// reference without replying resolves the caller with
/// ``RequestFailure/dropped(_:)``, so no caller waits forever.
public final class Reply<Value: Encodable & Sendable>: Sendable {
    let state: ReplyState
    /// `TypedReplyBox<Value>`, looked up once per responder (``TypedResponder``), not per reply.
    private let boxType: TypedReplyBox<Value>.Type

    init(state: ReplyState, boxType: TypedReplyBox<Value>.Type) {
        self.state = state
        self.boxType = boxType
    }

    deinit {
        state.handleReleased()
    }

    /// The channel of the request this handle answers.
    public var channel: Channel { state.channel }

    /// Whether the caller has been resolved already (replied, dropped or timed out).
    public var isResolved: Bool { state.isResolved }

    /// Completes the request with a value or an error.
    /// - Parameter result: the reply, or the error whose message the caller receives.
    /// - Returns: `true` when this completion resolved the caller; `false` when the
    ///   request was already resolved (the call is then reported and ignored).
    @discardableResult
    public func callAsFunction(_ result: Result<Value, any Error>) -> Bool {
        switch result {
        case .success(let value): return succeed(value)
        case .failure(let error): return fail(error)
        }
    }

    /// Completes the request with a value.
    /// - Returns: whether this completion resolved the caller.
    @discardableResult
    public func succeed(_ value: consuming Value) -> Bool {
        state.reply(.success(ReplyValue(typed: value, boxType: boxType)))
    }

    /// Completes the request with an error; the caller receives
    /// ``RequestFailure/responderFailed(_:message:data:)`` with the error's message and, when the
    /// error is `Encodable` (a typed error such as `struct OutOfStock: Error, Encodable`), its
    /// encoding as `data`, which reaches the page as the ``ErrorEnvelope``'s `data`.
    /// - Returns: whether this completion resolved the caller.
    @discardableResult
    public func fail(_ error: any Error) -> Bool {
        state.reply(.failure(.responderFailed(state.channel, message: errorMessage(error), data: errorData(error))))
    }

    /// Completes the request with an error unless it is resolved already; an error thrown once the
    /// request is resolved (by its deadline, say, which cancels an `async` responder's task) is
    /// ignored without a ``Diagnostic/lateReply(_:)``: it answers nothing.
    func failUnlessResolved(_ error: any Error) {
        state.reply(
            .failure(.responderFailed(state.channel, message: errorMessage(error), data: errorData(error))),
            reportIfIgnored: false)
    }
}

/// An `Encodable` error's encoding (the ``ErrorEnvelope``'s `data`); `nil` for other errors and
/// for an error whose encoding fails.
func errorData(_ error: any Error) -> JSONValue? {
    guard let encodable = error as? any Encodable else { return nil }
    return try? BodyEncoder().encodeJSONValue(encodable)
}

/// The readable message of an error: its `LocalizedError` description when it has one.
func errorMessage(_ error: any Error) -> String {
    if let localized = error as? any LocalizedError, let description = localized.errorDescription {
        return description
    }
    return String(describing: error)
}
