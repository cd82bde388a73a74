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
            // With a manifest observer (a RouterBridge keeps one): every change tells it the
            // manifest of all live channels, contract digest included, so the cost per change
            // grows with the channels. Measured up to 2,000 channels (it is quadratic in total).
            if count <= 2_000 {
                let observed = Router()
                let seen = observed.observeManifest { manifest in checksum &+= manifest.channels.count }
                var observedTokens: [Registration] = []
                observedTokens.reserveCapacity(count)
                let withObserver = time {
                    for channel in channels { observedTokens.append(register(channel, on: observed)) }
                }
                report.add(
                    name, "register \(Format.count(count)) channels, a manifest observer attached",
                    span(withObserver), ratio: "\(span(withObserver / Double(count))) per channel")
                for token in observedTokens { token.cancel() }
                seen.cancel()
            }
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
