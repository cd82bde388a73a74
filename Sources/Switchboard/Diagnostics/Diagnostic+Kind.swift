extension Diagnostic {
    /// The kind of a diagnostic: one case per ``Diagnostic`` case, without its values, to
    /// compare, count or expect diagnostics by kind (`StrictHarness.expectDiagnostic(.keptExpired)`).
    ///
    /// The raw value is the case's name (`"unhandled"`, `"invalidBody"`, …).
    public enum Kind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// ``Diagnostic/unhandled(_:)``: no handler; the message was dropped.
        case unhandled
        /// ``Diagnostic/invalidChannel(name:_:)``: the channel name is not valid.
        case invalidChannel
        /// ``Diagnostic/invalidBody(_:_:)``: the body did not decode.
        case invalidBody
        /// ``Diagnostic/handlerFailed(_:message:)``: a handler threw.
        case handlerFailed
        /// ``Diagnostic/responderFailed(_:message:)``: a responder failed.
        case responderFailed
        /// ``Diagnostic/kept(_:count:)``: a message was kept by the channel's policy.
        case kept
        /// ``Diagnostic/keptOverflow(_:)``: a kept message was discarded, the buffer being full.
        case keptOverflow
        /// ``Diagnostic/keptExpired(_:)``: a kept message expired before a handler registered.
        case keptExpired
        /// ``Diagnostic/keptDelivered(_:count:)``: kept messages were delivered.
        case keptDelivered
        /// ``Diagnostic/eventsOverflow(_:)``: an event sequence's buffer was full.
        case eventsOverflow
        /// ``Diagnostic/duplicateReply(_:)``: a second reply was ignored.
        case duplicateReply
        /// ``Diagnostic/lateReply(_:)``: a reply after the deadline was ignored.
        case lateReply
        /// ``Diagnostic/replyDropped(_:)``: a reply handle was released without a reply.
        case replyDropped
        /// ``Diagnostic/deadlinePassed(_:after:usedFallback:)``: a request's deadline passed.
        case deadlinePassed
        /// ``Diagnostic/stopped(_:by:_:)``: a middleware stopped a message.
        case stopped
        /// ``Diagnostic/rejected(_:)``: the origin policy refused a sender.
        case rejected
        /// ``Diagnostic/contractSkew(_:page:app:)``: a page's contract differs from the app's.
        case contractSkew

        /// The raw value.
        public var description: String { rawValue }
    }

    /// The diagnostic's kind (its case, without its values).
    public var kind: Kind {
        switch self {
        case .unhandled: return .unhandled
        case .invalidChannel: return .invalidChannel
        case .invalidBody: return .invalidBody
        case .handlerFailed: return .handlerFailed
        case .responderFailed: return .responderFailed
        case .kept: return .kept
        case .keptOverflow: return .keptOverflow
        case .keptExpired: return .keptExpired
        case .keptDelivered: return .keptDelivered
        case .eventsOverflow: return .eventsOverflow
        case .duplicateReply: return .duplicateReply
        case .lateReply: return .lateReply
        case .replyDropped: return .replyDropped
        case .deadlinePassed: return .deadlinePassed
        case .stopped: return .stopped
        case .rejected: return .rejected
        case .contractSkew: return .contractSkew
        }
    }
}
