import Foundation
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// Types whose `init(from:)` loops until `isAtEnd` and swallows the reads that fail (a lossy array).
enum ProbeLoops {
    /// A raw-value enum that is not `CaseIterable`: the probe can make no value of it.
    enum Flavor: String, Decodable, Sendable {
        case a
    }

    /// Keeps the elements it can read, skips the others.
    struct LossyFlavors: Decodable, Sendable {
        let flavors: [Flavor]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var flavors: [Flavor] = []
            while !container.isAtEnd {
                if let flavor = try? container.decode(Flavor.self) { flavors.append(flavor) }
            }
            self.flavors = flavors
        }
    }

    /// Asks for null until the end, never reading an element.
    struct NullSkipper: Decodable, Sendable {
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            while !container.isAtEnd { _ = try? container.decodeNil() }
        }
    }

    /// Reads nothing at all until the end.
    struct EndWatcher: Decodable, Sendable {
        init(from decoder: any Decoder) throws {
            let container = try decoder.unkeyedContainer()
            while !container.isAtEnd {}
        }
    }

    struct Lossy: Event {
        static let channel: Channel = "lossy"
        let flavors: LossyFlavors
    }

    struct Nulls: Event {
        static let channel: Channel = "nulls"
        let nulls: NullSkipper
    }

    struct Watcher: Event {
        static let channel: Channel = "watcher"
        let watcher: EndWatcher
    }

    /// An `Int8` enum with the case the probe's unlikely value truncates to (121).
    enum Level: Int8, Decodable, Sendable {
        case low = 1
        case high = 2
        case odd = 121
    }

    struct Leveled: Event {
        static let channel: Channel = "leveled"
        let level: Level
    }

    /// A range-checked `Int8` whose check overflows at `Int8.max`: the probe must not try it.
    struct Step: RawRepresentable, Decodable, Sendable {
        let rawValue: Int8
        init?(rawValue: Int8) {
            guard rawValue + 1 > 0 else { return nil }
            self.rawValue = rawValue
        }
    }

    struct Stepped: Event {
        static let channel: Channel = "stepped"
        let step: Step
    }
}

@Suite struct ProbeLoopTests {
    /// The contract of `type`, derived on a thread of its own: `nil` when it has not finished in
    /// a minute (a derivation that never ends fails the test instead of hanging it).
    private func derived(_ type: any Event.Type) -> Contract? {
        let result = Locked<Contract?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let contract = Contract(types: [type])
            result.withLock { $0 = contract }
            done.signal()
        }
        thread.stackSize = 8 << 20
        thread.start()
        guard done.wait(timeout: .now() + 60) == .success else { return nil }
        return result.withLock { $0 }
    }

    private func property(_ contract: Contract?, _ channel: Channel, _ key: String) -> JSONValue? {
        contract?.channels[channel]?.body?.json.objectValue?["properties"]?.objectValue?[key]
    }

    @Test func aLoopThatSwallowsAnElementThePropertyCannotMakeEnds() throws {
        let contract = try #require(derived(ProbeLoops.Lossy.self), "the derivation did not end")
        let flavors = try #require(property(contract, "lossy", "flavors"))
        // An array of what it reads: a flavor, which itself is marked (not CaseIterable).
        #expect(flavors.objectValue?["type"] == "array", "\(flavors)")
        let items = flavors.objectValue?["items"]?.objectValue
        #expect(items?[ContractKeyword.underivable]?.stringValue?.contains("CaseIterable") == true, "\(flavors)")
        #expect(contract.isExact == false)
    }

    @Test func aLoopThatOnlyAsksForNullEndsWithinTheBudget() throws {
        let contract = try #require(derived(ProbeLoops.Nulls.self), "the derivation did not end")
        // The budget is the derivation's: the channel's whole body may be the one marked.
        let body = try #require(contract.channels["nulls"]?.body?.json)
        #expect("\(body)".contains("more than the probe allows"), "\(body)")
        #expect(contract.isExact == false)
    }

    @Test func aLoopThatOnlyAsksWhetherItIsAtTheEndEndsWithinTheBudget() throws {
        let contract = try #require(derived(ProbeLoops.Watcher.self), "the derivation did not end")
        // The budget is the derivation's: the channel's whole body may be the one marked.
        let body = try #require(contract.channels["watcher"]?.body?.json)
        #expect("\(body)".contains("more than the probe allows"), "\(body)")
        #expect(contract.isExact == false)
    }

    /// Truncated to `Int8` the probe's unlikely raw value is 121, one of `Level`'s cases.
    @Test func aNarrowRawValueEnumWithTheTruncatedUnlikelyValueIsStillMarked() throws {
        let contract = Contract(types: [ProbeLoops.Leveled.self])
        let level = try #require(property(contract, "leveled", "level"))
        let reason = level.objectValue?[ContractKeyword.underivable]?.stringValue
        #expect(reason?.contains("CaseIterable") == true, "\(level)")
    }

    /// The values tried next to a narrow type's extremes are not the extremes: a check that
    /// overflows at `Int8.max` (`rawValue + 1`) does not trap while the contract is built, and
    /// the type, which refuses some values, is marked.
    @Test func aRangeCheckedRawValueIsMarkedWithoutTrappingOnTheProbesValues() throws {
        let contract = Contract(types: [ProbeLoops.Stepped.self])
        let step = try #require(property(contract, "stepped", "step"))
        #expect(step.objectValue?[ContractKeyword.underivable] != nil, "\(step)")
    }
}
