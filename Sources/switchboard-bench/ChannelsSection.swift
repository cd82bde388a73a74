import Foundation
import Switchboard
import SwitchboardCommerce

/// An event whose channel is read from a variable when it registers (the router
/// reads `Event.channel` once, at registration), so one type registers any number
/// of channels. Bodyless: delivering it decodes nothing.
struct NumberedChannelEvent: BodylessEvent {
    /// Set by the one thread that registers at a time.
    nonisolated(unsafe) static var current: Channel = "numbered0"
    static var channel: Channel { current }
}

/// A content controller stand-in for the bench: counts handlers and keeps the script.
@MainActor
final class StubRegistry: ScriptMessageHandlerRegistry {
    private(set) var handlers = 0
    /// Whether the script was set after the last handler change.
    private(set) var scriptIsFresh = false

    func addHandler(named name: String) {
        handlers += 1
        scriptIsFresh = false
    }

    func removeHandler(named name: String) {
        handlers -= 1
        scriptIsFresh = false
    }

    func setUserScript(source: String?) {
        checksum &+= source?.utf8.count ?? 0
        scriptIsFresh = true
    }
}

/// Section 7: many channels. Registering and cancelling n channels, the cost of a
/// receive with n channels registered, and receive latency while another thread
/// registers and cancels channels.
struct ChannelsSection {
    /// How many channels each size registers (1k, 10k, 100k by default).
    let counts: [Int]
    /// How many channels the churning thread registers, then cancels, during the latency run.
    let churn: Int

    func run(into report: inout Report) {
        let name = "7 many channels"
        for count in counts {
            let channels = (0..<count).compactMap { try? Channel(validating: "channel\($0)") }
            let router = Router()
            var tokens: [Registration] = []
            tokens.reserveCapacity(count)
            let registered = time {
                for channel in channels { tokens.append(register(channel, on: router)) }
            }
            let receive = receiveCost(router, name: "channel\(count / 2)")
            // The manifest carries the contract's digest (kept per set of channels and types):
            // its cost next to writing and hashing the contract anew.
            let manifest = median((0..<5).map { _ in time { checksum &+= router.manifest.channels.count } })
            let contract = median((0..<5).map { _ in time { checksum &+= Contract(router: router).digest.utf8.count } })
            let cancelled = time {
                for token in tokens { token.cancel() }
            }
            report.add(
                name, "register \(Format.count(count)) channels", span(registered),
                ratio: "\(span(registered / Double(count))) per channel")
            report.add(
                name, "cancel \(Format.count(count)) channels", span(cancelled),
                ratio: "\(span(cancelled / Double(count))) per channel")
            report.add(name, "receive with \(Format.count(count)) channels", span(receive))
            observedRows(channels, into: &report)
            report.add(
                name, "manifest with \(Format.count(count)) channels (with the contract digest)", span(manifest),
                ratio: "Contract(router:).digest (written and hashed anew) \(span(contract)), "
                    + "\(Format.fixed(contract / manifest, 1))x the manifest")
        }
        let quiet = latencies(churning: false)
        let busy = latencies(churning: true)
        for (label, histogram) in [("quiet", quiet), ("while another thread registers and cancels", busy)] {
            report.add(
                name, "receive latency, \(label): p50 / p99 / p99.9 / max",
                [0.5, 0.99, 0.999].map { span(histogram.percentile($0)) }.joined(separator: " / ")
                    + " / " + span(Double(histogram.maximum)),
                ratio: "\(Format.count(histogram.count)) receives")
        }
    }

    /// Registering then cancelling the channels with a manifest observer attached (it keeps
    /// the last manifest told, as an app would), and with a ``RouterBridge`` on a stub
    /// registry, each reported per change so that growth with the channels shows. The
    /// bridge follows the router on the main actor once per burst: its figures include
    /// running the main run loop until the registry matches the router (the sync and the
    /// script of the manifest, O(n), once per burst).
    private func observedRows(_ channels: [Channel], into report: inout Report) {
        let name = "7 many channels"
        let count = Format.count(channels.count)
        let observed = Router()
        let last = Locked<Manifest?>(nil)
        let seen = observed.observeManifest { manifest in last.withLock { $0 = manifest } }
        var tokens: [Registration] = []
        tokens.reserveCapacity(channels.count)
        let registered = time {
            for channel in channels { tokens.append(register(channel, on: observed)) }
        }
        let cancelled = time {
            for token in tokens { token.cancel() }
        }
        tokens.removeAll()
        checksum &+= last.withLock { $0?.channels.count ?? 0 }
        seen.cancel()
        report.add(
            name, "register \(count) channels, a manifest observer attached", span(registered),
            ratio: "\(span(registered / Double(channels.count))) per channel")
        report.add(
            name, "cancel \(count) channels, a manifest observer attached", span(cancelled),
            ratio: "\(span(cancelled / Double(channels.count))) per channel")
        guard Thread.isMainThread else { return }
        let (bridgeRegistered, bridgeCancelled) = MainActor.assumeIsolated { bridgeTimes(channels) }
        report.add(
            name, "register \(count) channels, a RouterBridge attached (stub registry)", span(bridgeRegistered),
            ratio: "\(span(bridgeRegistered / Double(channels.count))) per channel")
        report.add(
            name, "cancel \(count) channels, a RouterBridge attached (stub registry)", span(bridgeCancelled),
            ratio: "\(span(bridgeCancelled / Double(channels.count))) per channel")
    }

    /// Nanoseconds to register the channels with a bridge attached until its registry has
    /// them all and the script of the router's manifest, then the same to cancel them.
    @MainActor
    private func bridgeTimes(_ channels: [Channel]) -> (register: Double, cancel: Double) {
        let router = Router()
        let registry = StubRegistry()
        let bridge = RouterBridge(router: router, registry: registry)
        // The bridge keeps one handler of its own, for the page's hello (its `globalName`).
        let own = 1
        settle(registry, handlers: own)
        var tokens: [Registration] = []
        tokens.reserveCapacity(channels.count)
        let registered = time {
            for channel in channels { tokens.append(register(channel, on: router)) }
            settle(registry, handlers: own + channels.count)
        }
        let cancelled = time {
            for token in tokens { token.cancel() }
            settle(registry, handlers: own)
        }
        bridge.stop()
        return (registered, cancelled)
    }

    /// Runs the main run loop until the registry holds `handlers` handlers and a script was set after them.
    @MainActor
    private func settle(_ registry: StubRegistry, handlers: Int) {
        let deadline = Date(timeIntervalSinceNow: 60)
        while registry.handlers != handlers || !registry.scriptIsFresh, Date() < deadline {
            _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
        }
    }

    /// A duration in nanoseconds, as ns, µs, ms or s.
    private func span(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<10_000: return "\(Format.fixed(nanoseconds, 0)) ns"
        case ..<10_000_000: return "\(Format.fixed(nanoseconds / 1e3, 1)) µs"
        case ..<10_000_000_000: return "\(Format.fixed(nanoseconds / 1e6, 1)) ms"
        default: return "\(Format.fixed(nanoseconds / 1e9, 2)) s"
        }
    }

    private func register(_ channel: Channel, on router: Router) -> Registration {
        NumberedChannelEvent.current = channel
        return router.on(NumberedChannelEvent.self) { _ in }
    }

    /// Nanoseconds `body` took.
    private func time(_ body: () -> Void) -> Double {
        let start = nowNanoseconds()
        body()
        return Double(nowNanoseconds() - start)
    }

    /// The median nanoseconds of one receive on `name` (a registered channel, no body).
    private func receiveCost(_ router: Router, name: String) -> Double {
        let iterations = 100_000
        return medianNanosecondsPerItem(repetitions: 5, items: iterations) {
            var handled = 0
            for _ in 0..<iterations {
                if case .handled = router.receive(name: name, body: nil) { handled &+= 1 }
            }
            return handled
        }
    }

    /// Receive latency on this thread over a churn of ``churn`` channels on another
    /// thread (registered one by one, then cancelled), or over as long without it.
    private func latencies(churning: Bool) -> LatencyHistogram {
        let router = Router()
        let anchor = router.on(SDKReady.self) { _ in }
        let base = (0..<10_000).compactMap { try? Channel(validating: "base\($0)") }
        var baseTokens = base.map { register($0, on: router) }
        let churnChannels = (0..<churn).compactMap { try? Channel(validating: "churn\($0)") }
        let finished = DispatchSemaphore(value: 0)
        let done = Locked(false)
        let started = nowNanoseconds()
        if churning {
            let thread = Thread { [churnChannels] in
                var tokens: [Registration] = []
                for channel in churnChannels { tokens.append(register(channel, on: router)) }
                for token in tokens { token.cancel() }
                done.withLock { $0 = true }
                finished.signal()
            }
            thread.start()
        }
        var histogram = LatencyHistogram()
        // Without churn, run for 200 ms.
        while churning ? !done.withLock({ $0 }) : nowNanoseconds() - started < 200_000_000 {
            for _ in 0..<100 {
                let start = nowNanoseconds()
                _ = router.receive(name: "sdkReady", body: nil)
                histogram.add(nowNanoseconds() - start)
            }
        }
        if churning { finished.wait() }
        baseTokens.removeAll()
        withExtendedLifetime(anchor) {}
        return histogram
    }
}

/// Latencies in log-spaced buckets (16 per power of two: about 4 % wide), with the exact maximum.
struct LatencyHistogram {
    private var buckets = [Int](repeating: 0, count: 64 * 16)
    private(set) var count = 0
    private(set) var maximum: UInt64 = 0

    mutating func add(_ nanoseconds: UInt64) {
        let value = max(1, nanoseconds)
        let log = Int(Foundation.log2(Double(value)) * 16)
        buckets[min(buckets.count - 1, max(0, log))] += 1
        count += 1
        maximum = max(maximum, nanoseconds)
    }

    /// The latency below which `fraction` of the samples fall (the bucket's lower bound).
    func percentile(_ fraction: Double) -> Double {
        let target = Int((Double(count) * fraction).rounded(.up))
        var seen = 0
        for (index, bucketCount) in buckets.enumerated() {
            seen += bucketCount
            if seen >= target { return Foundation.pow(2, Double(index) / 16) }
        }
        return Double(maximum)
    }
}
