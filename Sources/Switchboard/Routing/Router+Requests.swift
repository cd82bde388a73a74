extension Router {
    /// Sends a request by channel name and waits for its reply, as a web page's
    /// `postMessage` with a reply would. By default the app sends it: its sender is
    /// ``MessageSender/app``, which every ``OriginPolicy`` admits; pass another sender to
    /// send it as a page would (checked against the channel's policy).
    ///
    /// It keeps the caller's isolation: called on the main actor, the request is delivered
    /// there, so a main-actor responder or handler runs at once, with no hop. (For a callback
    /// instead of `await`, shaped for `WKScriptMessageHandlerWithReply`, use
    /// ``receive(name:body:id:sender:isolation:replyHandler:)-(String,Any?,_,_,_,_)`` with a `replyHandler`.)
    /// - Parameters:
    ///   - name: the channel name.
    ///   - body: the loosely typed body; `nil` for none.
    ///   - sender: who sends it; the app by default.
    ///   - isolation: the caller's isolation; `#isolation` by default (leave it).
    /// - Returns: the reply, or the ``RequestFailure`` that says why there is none
    ///   (no responder, invalid body, responder failed, dropped, timed out;
    ///   ``RequestFailure/rejected(_:_:)`` when the channel's policy refuses `sender`).
    public func request(
        name: String, body: Any? = nil, sender: MessageSender = .app, isolation: isolated (any Actor)? = #isolation
    ) async -> Result<ReplyValue, RequestFailure> {
        await request(name: name, body: MessageBody(body), sender: sender, isolation: isolation)
    }

    /// Sends a request with a ``MessageBody`` and waits for its reply.
    /// See ``request(name:body:sender:isolation:)-(String,Any?,_,_)``.
    /// - Parameters:
    ///   - name: the channel name.
    ///   - body: the body.
    ///   - sender: who sends it; the app by default.
    ///   - isolation: the caller's isolation; `#isolation` by default (leave it).
    /// - Returns: the reply, or the ``RequestFailure`` that says why there is none.
    public func request(
        name: String, body: MessageBody, sender: MessageSender = .app, isolation: isolated (any Actor)? = #isolation
    ) async -> Result<ReplyValue, RequestFailure> {
        await withCheckedContinuation(isolation: isolation) { continuation in
            _ = receive(
                name: name, body: body, sender: sender, isolation: isolation,
                replyHandler: { continuation.resume(returning: $0) })
        }
    }

    /// Sends a typed request in process and returns its typed reply.
    ///
    /// The request goes through the same middleware and responder as one from
    /// the web side: it is encoded to a body first.
    /// Its sender is ``MessageSender/app`` by default, which every ``OriginPolicy`` admits; pass
    /// another sender to try a request as a page would send it (checked against the channel's policy).
    /// It keeps the caller's isolation (see ``request(name:body:sender:isolation:)-(String,Any?,_,_)``).
    /// - Parameters:
    ///   - request: the request.
    ///   - sender: who sends it; the app by default.
    ///   - isolation: the caller's isolation; `#isolation` by default (leave it).
    /// - Returns: the responder's reply. A reply of another type (from a middleware
    ///   that stopped the request with ``Outcome/replied(_:)``) is converted through JSON,
    ///   decoded with the router's ``RouterOptions/decoding`` options, as bodies are.
    /// - Throws: ``RequestFailure`` when there is no reply:
    ///   ``RequestFailure/unencodableRequest(_:_:)`` when the request does not encode,
    ///   ``RequestFailure/unencodableReply(_:_:)`` when a reply of another type does not,
    ///   ``RequestFailure/undecodableReply(_:_:)`` when it does not decode as `R.Reply`
    ///   (with the key path of the first problem).
    public func request<R: Request & Encodable>(
        _ request: R, sender: MessageSender = .app, isolation: isolated (any Actor)? = #isolation
    ) async throws(RequestFailure) -> R.Reply {
        let body: MessageBody
        do {
            body = MessageBody(try BodyEncoder(rootName: "body").encodeFoundationObject(request))
        } catch {
            throw .unencodableRequest(R.channel, error)
        }
        let result = await withCheckedContinuation(isolation: isolation) { continuation in
            _ = receive(Message(channel: R.channel, body: body, sender: sender), isolation: isolation) {
                continuation.resume(returning: $0)
            }
        }
        switch result {
        case .failure(let failure):
            throw failure
        case .success(let value):
            return try Router.typedReply(value, as: R.Reply.self, on: R.channel, options: options.decoding)
        }
    }

    /// `value` as a `T`: the value itself when it is one; else converted through JSON and
    /// decoded with `options` (a router's ``RouterOptions/decoding``). Used by every typed
    /// request (``request(_:sender:isolation:)``, `StrictHarness.request(_:)`).
    /// - Throws: ``RequestFailure/unencodableReply(_:_:)`` when `value` does not encode,
    ///   ``RequestFailure/undecodableReply(_:_:)`` when it does not decode as `T`, and
    ///   ``RequestFailure/responderFailed(_:message:data:)`` when `T` is not `Decodable`.
    package static func typedReply<T>(
        _ value: ReplyValue, as type: T.Type, on channel: Channel, options: DecodingOptions
    ) throws(RequestFailure) -> T {
        if let reply = value.value(as: T.self) { return reply }
        // Built only when it is thrown: formatting the types' names costs more than the conversion.
        var mismatch: RequestFailure {
            .responderFailed(channel, message: "the reply is a \(Swift.type(of: value.value)), not a \(T.self)")
        }
        guard let decodable = T.self as? any Decodable.Type else { throw mismatch }
        let object: Any
        do {
            object = try value.foundationObject()
        } catch {
            throw .unencodableReply(channel, error)
        }
        let decoded: any Decodable
        do {
            decoded = try BodyDecoder(options: options).decode(decodable, from: object)
        } catch {
            throw .undecodableReply(channel, error)
        }
        guard let reply = decoded as? T else { throw mismatch }
        return reply
    }
}
