extension Router {
    /// The delivery of a channel's kept messages to the handler or responder that
    /// just registered, on the registering thread.
    ///
    /// Started under the lock in the same step as the registration: the kept
    /// messages are taken and the route is marked draining, so a message that
    /// arrives meanwhile (on any thread, or from a handler) is queued behind them
    /// instead of overtaking them. ``run(by:)`` delivers the kept messages in
    /// arrival order, then what was queued, until nothing is; then the route stops
    /// draining. Nothing waits for anything: a thread whose message is queued gets
    /// ``Outcome/kept`` and its reply (if any) is answered on delivery.
    struct Drain: Sendable {
        let channel: Channel
        let kept: [KeptMessage]
        let expired: [KeptMessage]
        /// Whether this thread delivers (`false` when a drain of the channel runs already,
        /// which then delivers `kept`, or when everything kept had expired).
        let delivers: Bool

        /// Takes what was kept for `channel` (under the lock), discarding what expired
        /// under its policy; `nil` when nothing was kept.
        static func start(
            on channel: Channel, in state: inout State, now: ContinuousClock.Instant, defaultPolicy: BufferPolicy
        ) -> Drain? {
            let taken = state.buffer.take(channel)
            guard !taken.isEmpty else { return nil }
            var fresh = taken
            var expired: [KeptMessage] = []
            if case .keep(_, let limit) = state.table.route(channel)?.policy ?? defaultPolicy {
                fresh = []
                for kept in taken {
                    if now - kept.arrival >= limit { expired.append(kept) } else { fresh.append(kept) }
                }
            }
            guard !fresh.isEmpty, state.buffer.startDrain(channel, fresh) else {
                return Drain(channel: channel, kept: [], expired: expired, delivers: false)
            }
            state.updateRoute(channel) { route in route.isDraining = true }
            return Drain(channel: channel, kept: fresh, expired: expired, delivers: true)
        }

        /// Reports what expired, then delivers the kept messages and everything queued behind them.
        func run(by router: Router) {
            for message in expired { router.discard(message, on: channel, diagnostic: .keptExpired(channel)) }
            guard delivers else { return }
            var batch = kept
            var isFirst = true
            while !batch.isEmpty {
                var delivered = 0
                var goesOn = true
                for (index, message) in batch.enumerated() where !(message.reply?.isResolved ?? false) {
                    // The handler went: the drain ended, keeping this message and the rest again.
                    switch router.deliverKept(message, rest: batch[(index + 1)...]) {
                    case .delivered: delivered += 1
                    case .rejected: continue
                    case .ended: goesOn = false
                    }
                    if !goesOn { break }
                }
                if isFirst, delivered > 0 { router.diagnostics.emit(.keptDelivered(channel, count: delivered)) }
                guard goesOn else { return }
                isFirst = false
                let channel = self.channel
                batch = router.mutate { state -> [KeptMessage] in
                    let queued = state.buffer.takeQueued(channel)
                    if queued.isEmpty { state.updateRoute(channel) { route in route.isDraining = false } }
                    return queued
                }
            }
        }
    }
}
