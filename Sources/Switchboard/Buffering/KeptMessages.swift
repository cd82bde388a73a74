extension Router {
    /// A message kept for a channel with no handler yet.
    struct KeptMessage: Sendable {
        let message: Message
        let arrival: ContinuousClock.Instant
        let reply: ReplyState?
    }

    /// The messages kept for channels with no handler yet, per channel in arrival
    /// order, and those queued behind the delivery of kept messages.
    ///
    /// When a handler registers on a channel with kept messages, they are delivered
    /// on the registering thread; a message that arrives on another thread
    /// meanwhile is queued here behind them (a drain), so the channel's messages
    /// reach the handler in the order of the `receive` calls.
    ///
    /// Part of the router's state: every method runs under its lock. A method that
    /// removes messages returns them, for the caller to resolve and release after
    /// unlocking (a body or a reply's completion may hold user code).
    struct KeptMessages: Sendable {
        /// No empty lists.
        private var lists: [Channel: [KeptMessage]] = [:]
        /// Channels whose kept messages are being delivered, each with the messages queued behind them.
        private var drains: [Channel: [KeptMessage]] = [:]
        /// How many messages are kept on all channels together (not counting drains).
        private(set) var total = 0

        func count(for channel: Channel) -> Int { lists[channel]?.count ?? 0 }

        /// Whether the kept messages of `channel` are being delivered.
        func isDraining(_ channel: Channel) -> Bool { drains[channel] != nil }

        /// Takes every message kept for `channel`, in arrival order.
        mutating func take(_ channel: Channel) -> [KeptMessage] {
            guard let kept = lists.removeValue(forKey: channel) else { return [] }
            total -= kept.count
            return kept
        }

        /// Keeps `message` at the end of its channel's list; past `capacity` (on the
        /// channel) or `maxTotal` (on all), the channel's oldest messages go.
        /// - Returns: how many are kept on the channel now (0: the message itself went)
        ///   and the messages pushed out, oldest first.
        mutating func append(
            _ message: KeptMessage, on channel: Channel, capacity: Int, maxTotal: Int
        ) -> (count: Int, overflow: [KeptMessage]) {
            var overflow: [KeptMessage] = []
            var list = lists.removeValue(forKey: channel) ?? []
            total += 1
            list.append(message)
            while list.count > capacity || (total > maxTotal && !list.isEmpty) {
                overflow.append(list.removeFirst())
                total -= 1
            }
            let count = list.count
            if !list.isEmpty { lists[channel] = list }
            return (count, overflow)
        }

        /// Keeps only the newest `capacity` messages of `channel`; returns the others, oldest first.
        mutating func trim(_ channel: Channel, to capacity: Int) -> [KeptMessage] {
            guard var list = lists[channel], list.count > capacity else { return [] }
            let excess = Array(list.prefix(list.count - capacity))
            list.removeFirst(excess.count)
            lists[channel] = list.isEmpty ? nil : list
            total -= excess.count
            return excess
        }

        /// Removes the messages that have waited `limit(channel)` or longer (channels
        /// whose limit is `nil` keep theirs); returns them with their channels, oldest first per channel.
        mutating func removeExpired(
            now: ContinuousClock.Instant, limit: (Channel) -> Duration?
        ) -> [(Channel, KeptMessage)] {
            var expired: [(Channel, KeptMessage)] = []
            for (channel, list) in lists {
                guard let limit = limit(channel), let first = list.first, now - first.arrival >= limit else { continue }
                var fresh: [KeptMessage] = []
                for kept in list {
                    if now - kept.arrival >= limit { expired.append((channel, kept)) } else { fresh.append(kept) }
                }
                total -= list.count - fresh.count
                lists[channel] = fresh.isEmpty ? nil : fresh
            }
            return expired
        }

        /// Removes the message whose reply is `reply` from `channel`'s list, if it is there.
        mutating func remove(replying reply: ReplyState, on channel: Channel) -> KeptMessage? {
            guard var list = lists[channel], let index = list.firstIndex(where: { $0.reply === reply }) else {
                return nil
            }
            let removed = list.remove(at: index)
            lists[channel] = list.isEmpty ? nil : list
            total -= 1
            return removed
        }

        // MARK: Drains

        /// Starts delivering `kept` on `channel`. When a drain runs already, `kept`
        /// goes first in its queue (it was kept before anything queued there) and
        /// `false` says that the running drain delivers it.
        mutating func startDrain(_ channel: Channel, _ kept: [KeptMessage]) -> Bool {
            if let queued = drains[channel] {
                drains[channel] = kept + queued
                return false
            }
            drains[channel] = []
            return true
        }

        /// Queues `message` behind the drain of `channel`; returns how many are queued
        /// there now, or `nil` when no drain runs.
        mutating func queueBehindDrain(_ message: KeptMessage, on channel: Channel) -> Int? {
            guard drains[channel] != nil else { return nil }
            drains[channel, default: []].append(message)
            return drains[channel]?.count
        }

        /// Ends the drain of `channel` before its end (its handler went): returns what was
        /// queued behind it, in order, for the caller to keep again after what the drain still held.
        mutating func endDrain(_ channel: Channel) -> [KeptMessage] {
            drains.removeValue(forKey: channel) ?? []
        }

        /// Takes what was queued behind the drain of `channel`; when nothing was, the drain ends.
        mutating func takeQueued(_ channel: Channel) -> [KeptMessage] {
            guard let queued = drains[channel], !queued.isEmpty else {
                drains[channel] = nil
                return []
            }
            drains[channel] = []
            return queued
        }
    }
}
