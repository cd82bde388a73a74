import Foundation
import Switchboard
import SwitchboardCommerce

/// The floor of synthesized `Codable` under the decode section (``DecodeSection``): the
/// same `init(from:)` calls its bodies make on `BodyDecoder`, answered by a
/// ``ReplayDecoder`` recorded off the real decoder (each answer taken from a queue, no
/// lookup, no cast), so what is left is what any `Decoder` pays: the calls, the
/// standard library's container boxes, the values built. A per-type ratio of the floor to
/// the hand-written casts says how much of the 1.2× budget the floor alone takes.
final class DecodeFloor {
    let replay = ReplayDecoder()
    let kinds: [DecodeSection.Kind]

    /// Records the real decoder's answers for every sample; `nil` when the replay does not
    /// give the real decoder's values (it must, for the floor to be the same work).
    init?(_ section: DecodeSection) {
        kinds = section.samples.map(\.kind)
        let decoder = BodyDecoder()
        func record<T: Decodable>(_ type: T.Type, _ body: Any) {
            _ = replay.recordRoot(T.self) { try decoder.decode(RecordedValue<T>.self, from: body) }
        }
        for sample in section.samples {
            switch sample.kind {
            case .addCartLine: record(AddCartLine.self, sample.body)
            case .removeCartLine: record(RemoveCartLine.self, sample.body)
            case .productCartUpdate: record(ProductCartUpdate.self, sample.body)
            case .wishlistEntryUpdate: record(WishlistEntryUpdate.self, sample.body)
            }
        }
        guard loop() == section.switchboard() else { return nil }
    }

    /// The replayed decodes, with the decode section's checksum.
    @inline(never)
    func loop() -> Int {
        replay.replayAll(kinds, failed: 1_000_000)
    }
}
