import Foundation
import SwitchboardTestSupport
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// Decoders a type keeps, or hands to another thread, while its schema is derived.
enum KeptProbes {
    static let kept = Locked<[Box]>([])

    /// A decoder handed across threads, as a hostile type would (a probe is not `Sendable`).
    struct Box: @unchecked Sendable {
        let decoder: any Decoder
    }
    static let otherThreadErrors = Locked<[String]>([])

    /// Keeps its decoder, and uses it on another thread while its `init(from:)` runs.
    struct Keeper: Event {
        static let channel: Channel = "keeper"
        let name: String

        private enum CodingKeys: String, CodingKey { case name, other }

        init(from decoder: any Decoder) throws {
            let box = Box(decoder: decoder)
            KeptProbes.kept.withLock { $0.append(box) }
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                do {
                    let container = try box.decoder.container(keyedBy: CodingKeys.self)
                    _ = try container.decode(Int.self, forKey: .other)
                    _ = container.allKeys
                } catch {
                    KeptProbes.otherThreadErrors.withLock { $0.append("\(error)") }
                }
                done.signal()
            }
            thread.start()
            done.wait()
            name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
        }
    }

    struct Keepers: Event {
        static let channel: Channel = "keepers"
        let list: [Keeper]
    }
}

@Suite struct KeptProbeTests {
    /// The probe's records are not shared between threads: used off its derivation, it throws and records nothing.
    @Test func aProbeKeptOrUsedOnAnotherThreadRecordsNothingAndThrows() async throws {
        let contract = Contract(types: [KeptProbes.Keepers.self])
        let schema = try #require(contract.channels["keepers"]?.body?.json)
        let keeper = schema.objectValue?["properties"]?.objectValue?["list"]?.objectValue?["items"]
        #expect(keeper?.objectValue?["properties"] == ["name": ["type": "string"]])
        #expect(KeptProbes.otherThreadErrors.withLock { $0.count } >= 2)
        // Used after the derivation, on many threads at once: every operation throws or answers inertly.
        let decoders = KeptProbes.kept.withLock { $0 }
        #expect(!decoders.isEmpty)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for box in decoders {
                        let decoder = box.decoder
                        for _ in 0..<200 {
                            #expect(throws: (any Error).self) { try decoder.container(keyedBy: AnyKey.self) }
                            #expect(throws: (any Error).self) { try decoder.singleValueContainer().decode(Int.self) }
                            #expect(throws: (any Error).self) { try decoder.unkeyedContainer() }
                        }
                    }
                }
            }
        }
        #expect(Contract(types: [KeptProbes.Keepers.self]).digest == contract.digest)
    }
}
