import Dispatch

extension Router {
    // MARK: - Public API

    /// Sets what `channel` does with messages that arrive before it has a handler.
    ///
    /// Switching to ``BufferPolicy/drop`` discards what was kept, reporting each as
    /// ``Diagnostic/unhandled(_:)``; switching to a smaller buffer discards the
    /// oldest kept messages, reporting each as ``Diagnostic/keptOverflow(_:)``.
    /// A discarded request's caller gets ``RequestFailure/noResponder(_:)``.
    public func setBufferPolicy(_ policy: BufferPolicy, for channel: Channel) {
        let capacity = self.capacity(of: policy)
        let discarded = mutate { state -> [KeptMessage] in
            state.updateRoute(channel) { route in route.policy = policy }
            return state.buffer.trim(channel, to: capacity)
        }
        let diagnostic: Diagnostic = policy == .drop ? .unhandled(channel) : .keptOverflow(channel)
        for message in discarded { discard(message, on: channel, diagnostic: diagnostic) }
    }

    /// The channels set to keep messages before they have a handler: an explicit
    /// ``setBufferPolicy(_:for:)`` other than ``BufferPolicy/drop``, sorted by name. The WebKit
    /// bridge registers them with WebKit from the start, so a page's early messages reach the buffer.
    public var bufferingChannels: [Channel] {
        let table = state.withLock { $0.table }
        var channels: [Channel] = []
        table.forEachRoute { channel, route in
            if let policy = route.policy, policy != .drop { channels.append(channel) }
        }
        return channels.sorted { $0.name < $1.name }
    }

    /// The policy in effect for `channel`: the one set with ``setBufferPolicy(_:for:)``,
    /// or ``RouterOptions/defaultBufferPolicy``.
    public func bufferPolicy(for channel: Channel) -> BufferPolicy {
        let route = state.withLock { $0.table.route(channel) }
        return route?.policy ?? options.defaultBufferPolicy
    }

    /// How many messages are kept for `channel`, waiting for a handler.
    public func keptCount(for channel: Channel) -> Int {
        state.withLock { $0.buffer.count(for: channel) }
    }

    /// How many messages are kept on all channels together (at most ``RouterOptions/maxKeptTotal``).
    public var keptTotal: Int {
        state.withLock { $0.buffer.total }
    }

    /// Discards kept messages that waited longer than their channel's policy allows,
    /// reporting each as ``Diagnostic/keptExpired(_:)``. The router also does this on
    /// its own when a kept message's time is up, and before delivering kept messages.
    public func discardExpiredMessages() {
        Router.discardExpiredMessages(state, defaultPolicy: options.defaultBufferPolicy, diagnostics: diagnostics)
    }

    // MARK: - Keeping

    /// ``discardExpiredMessages()`` on a router's state (see ``mutate(_:_:)`` for why not on the router).
    static func discardExpiredMessages(
        _ state: Locked<State>, defaultPolicy: BufferPolicy, diagnostics: DiagnosticSink
    ) {
        let now = ContinuousClock.now
        let expired = state.withLock { state in
            let table = state.table
            return state.buffer.removeExpired(now: now) { channel in
                guard case .keep(_, let limit) = table.route(channel)?.policy ?? defaultPolicy else { return nil }
                return limit
            }
        }
        // Resolved and released here, after unlocking.
        for (channel, message) in expired {
            discard(message, on: channel, diagnostic: .keptExpired(channel), diagnostics: diagnostics)
        }
    }

    func discard(_ kept: KeptMessage, on channel: Channel, diagnostic: Diagnostic) {
        Router.discard(kept, on: channel, diagnostic: diagnostic, diagnostics: diagnostics)
    }

    static func discard(
        _ kept: KeptMessage, on channel: Channel, diagnostic: Diagnostic, diagnostics: DiagnosticSink
    ) {
        diagnostics.emit(diagnostic)
        kept.reply?.answer(.failure(.noResponder(channel)))
    }

    /// How many messages a policy keeps on one channel, within ``RouterOptions/maxKeptPerChannel``.
    func capacity(of policy: BufferPolicy) -> Int {
        switch policy {
        case .drop: return 0
        case .keepLast: return Swift.min(1, Swift.max(0, options.maxKeptPerChannel))
        case .keep(let max, _): return Swift.max(0, Swift.min(max, options.maxKeptPerChannel))
        }
    }

    /// Keeps a message that found no handler, according to `policy`; or, when the
    /// channel's kept messages are being delivered, queues it behind them.
    /// - Parameter fromDrain: the message comes from a drain (it found no handler when
    ///   its turn came): it is kept, not queued behind the drain again.
    func keep(_ message: Message, policy: BufferPolicy, reply: ReplyState?, fromDrain: Bool = false) -> Outcome {
        enum Decision {
            case deliverNow
            case queued(count: Int)
            case refused
            case kept(count: Int, overflow: [KeptMessage])
        }
        let channel = message.channel
        let capacity = self.capacity(of: policy)
        let maxTotal = options.maxKeptTotal
        reply?.markKept()
        let kept = KeptMessage(message: message, arrival: .now, reply: reply)
        let decision = state.withLock { state -> Decision in
            if !fromDrain, let count = state.buffer.queueBehindDrain(kept, on: channel) { return .queued(count: count) }
            // A handler may have registered since delivery looked: deliver instead.
            if state.isLive(channel) { return .deliverNow }
            if capacity == 0 || maxTotal <= 0 { return .refused }
            let (count, overflow) = state.buffer.append(kept, on: channel, capacity: capacity, maxTotal: maxTotal)
            return .kept(count: count, overflow: overflow)
        }
        switch decision {
        case .deliverNow:
            return fromDrain
                ? deliverDirectly(message, on: currentRoute(of: channel), reply: reply)
                : deliver(message, route: nil, reply: reply)
        case .queued(let count):
            diagnostics.emit(.kept(channel, count: count))
            return .kept
        case .refused:
            discard(kept, on: channel, diagnostic: .keptOverflow(channel))
            return .unhandled
        case .kept(let count, let overflow):
            for message in overflow { discard(message, on: channel, diagnostic: .keptOverflow(channel)) }
            // The new message is the last one appended, so it survived if anything is left.
            guard count > 0 else { return .unhandled }
            diagnostics.emit(.kept(channel, count: count))
            if case .keep(_, let limit) = policy {
                let defaultPolicy = options.defaultBufferPolicy
                DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(limit.nanosecondsClamped)) {
                    [weak state, diagnostics] in
                    guard let state else { return }
                    Router.discardExpiredMessages(state, defaultPolicy: defaultPolicy, diagnostics: diagnostics)
                }
            }
            if let reply { armKeptDeadline(reply, on: channel) }
            return .kept
        }
    }

    /// Times out a kept request after ``RouterOptions/defaultDeadline`` unless a
    /// responder took it by then (the responder's own deadline applies from delivery).
    ///
    /// The timer holds the request only weakly (as ``ReplyState/armDeadline(_:)`` does): one
    /// answered before (delivered and replied to, or discarded) is freed then, not when the
    /// timer fires. While kept, the buffer holds it.
    private func armKeptDeadline(_ reply: ReplyState, on channel: Channel) {
        let deadline = options.defaultDeadline
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(deadline.nanosecondsClamped)) {
            [weak state, weak reply, diagnostics] in
            guard let reply, !reply.isResolved else { return }
            // Taken out under the lock, released (with its body) after unlocking.
            let removed = state?.withLock { state in state.buffer.remove(replying: reply, on: channel) }
            // Reported before the caller resumes, as the other deadline paths do.
            // (Reported only while the router lives, which its state does not outlive.)
            reply.answer(.failure(.timedOut(channel, after: deadline)), by: .unlessResponder) {
                if state != nil { diagnostics.emit(.deadlinePassed(channel, after: deadline, usedFallback: false)) }
            }
            withExtendedLifetime(removed) {}
        }
    }

    /// Delivers one message of a drain to the channel's handler or responder.
    ///
    /// When the channel has neither any more (its handler went during the drain), the
    /// drain ends instead: this message, `rest` (what the drain still held) and what was
    /// queued behind the drain are kept again in their order, or discarded under
    /// `.drop`, in one step under the lock. A handler that registers meanwhile so gets
    /// them in arrival order, never a later message before an earlier one.
    ///
    /// A kept message was checked against the origin policy when it arrived, maybe before
    /// a policy was set: its sender is checked again against the policy of the channel at
    /// delivery (read under the lock with the route, checked after unlocking). A refused
    /// one is rejected — ``Diagnostic/rejected(_:)``, and ``RequestFailure/rejected(_:_:)``
    /// for a request — and never delivered; the drain goes on.
    /// - Returns: what became of the message (``KeptDelivery/ended``: the drain ended,
    ///   `rest` is taken care of).
    func deliverKept(_ kept: KeptMessage, rest: ArraySlice<KeptMessage>) -> KeptDelivery {
        enum Step {
            case deliver(Route, OriginPolicy?)
            case ended(dropped: [KeptMessage], keptCounts: [Int], overflow: [KeptMessage])
        }
        let channel = kept.message.channel
        let defaultPolicy = options.defaultBufferPolicy
        let maxTotal = options.maxKeptTotal
        let step = mutate { state -> Step in
            let route = state.table.route(channel)
            if let route, route.isLive { return .deliver(route, state.originPolicy(of: route)) }
            var again = [kept] + rest.filter { !($0.reply?.isResolved ?? false) }
            again += state.buffer.endDrain(channel)
            state.updateRoute(channel) { route in route.isDraining = false }
            let policy = route?.policy ?? defaultPolicy
            guard policy != .drop else { return .ended(dropped: again, keptCounts: [], overflow: []) }
            let capacity = self.capacity(of: policy)
            var counts: [Int] = []
            var overflow: [KeptMessage] = []
            for message in again {
                let (count, pushedOut) = state.buffer.append(
                    message, on: channel, capacity: capacity, maxTotal: maxTotal)
                counts.append(count)
                overflow += pushedOut
            }
            return .ended(dropped: [], keptCounts: counts, overflow: overflow)
        }
        switch step {
        case .deliver(let route, let access):
            if let access, let rejection = access.rejection(of: kept.message.sender, on: channel) {
                diagnostics.emit(.rejected(rejection))
                kept.reply?.answer(.failure(.rejected(channel, rejection)))
                return .rejected
            }
            _ = deliverDirectly(kept.message, on: route, reply: kept.reply)
            return .delivered
        case .ended(let dropped, let keptCounts, let overflow):
            for message in dropped { discard(message, on: channel, diagnostic: .unhandled(channel)) }
            for message in overflow { discard(message, on: channel, diagnostic: .keptOverflow(channel)) }
            for count in keptCounts where count > 0 { diagnostics.emit(.kept(channel, count: count)) }
            return .ended
        }
    }

    /// What ``deliverKept(_:rest:)`` did with a kept message.
    enum KeptDelivery {
        /// Delivered to the channel's handler or responder.
        case delivered
        /// Refused by the channel's origin policy at delivery: dropped, reported, answered.
        case rejected
        /// The channel has no handler any more: the drain ended.
        case ended
    }
}
