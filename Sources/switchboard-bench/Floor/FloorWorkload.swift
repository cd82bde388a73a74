import Foundation
import Switchboard
import SwitchboardCommerce

/// One corpus as the CLI handles it, captured for ``FloorSection``: the bodies the
/// reference handlers decode (the events of `addCartLine`, `removeCartLine`,
/// `productCartUpdate` and `wishlistEntryUpdate`, valid or not, on the JSON tape the
/// CLI decodes them from) and the replies it encodes (routed through a router with the
/// reference handlers installed, in order, so the cart and wishlist are the CLI's).
///
/// The real decoder's answers are recorded once into a ``ReplayDecoder``; the four
/// `…Loop` methods are what is timed (and what `--floor-profile` runs for callgrind).
final class FloorWorkload {
    /// The event types the reference handlers decode (the other channels' events are bodyless).
    typealias Kind = DecodeSection.Kind

    /// A reply as its responder made it.
    enum TypedReply {
        case cart(ProductCart)
        case wishlist(WishlistState)
    }

    let corpus: String
    let messages: Int
    private(set) var kinds: [Kind] = []
    private(set) var bodies: [MessageBody] = []
    /// The replies as the router gave them (what the CLI encodes), and the same values typed.
    private(set) var replies: [ReplyValue] = []
    private(set) var typedReplies: [TypedReply] = []
    /// Requests that were still waiting for their reply when `receive` returned (none expected).
    private(set) var pending = 0
    /// Bodies that did not decode.
    private(set) var invalid = 0
    let replay = ReplayDecoder()
    /// The containers the "containers reused" variants keep.
    let reusedContainers = ContainerCache()
    let reusedEncoderContainers = ContainerCache()

    /// Routes `lines` (NDJSON lines of valid JSON) through a router with the reference
    /// handlers, keeping the bodies and replies; records the real decoder's answers.
    init(corpus: String, lines: [[UInt8]]) throws {
        self.corpus = corpus
        messages = lines.count
        let router = Router()
        let installation = try router.installReferenceCommerce()
        defer { withExtendedLifetime(installation) {} }
        for line in lines {
            let tape = try JSONTape.parse(line)
            guard tape.kind(0) == .object, let nameIndex = tape.member("name", in: 0), tape.kind(nameIndex) == .string
            else { continue }
            let name = tape.string(nameIndex)
            let body = tape.member("body", in: 0).map { MessageBody(tape: tape, index: $0) } ?? .absent
            let id = tape.member("id", in: 0).map { tape.kind($0) == .string ? tape.string($0) : "\(tape.text($0))" }
            if let kind = FloorWorkload.kind(of: name) {
                kinds.append(kind)
                bodies.append(body)
                if record(kind, body) { invalid += 1 }
            }
            switch router.receive(name: name, body: body, id: id, replyHandler: { _ in }) {
            case .replied(let value):
                if let cart = value.value(as: ProductCart.self) {
                    typedReplies.append(.cart(cart))
                } else if let wishlist = value.value(as: WishlistState.self) {
                    typedReplies.append(.wishlist(wishlist))
                } else {
                    continue
                }
                replies.append(value)
            case .awaitingReply:
                pending += 1
            default:
                break
            }
        }
    }

    private static func kind(of channel: String) -> Kind? {
        switch channel {
        case AddCartLine.channel.name: return .addCartLine
        case RemoveCartLine.channel.name: return .removeCartLine
        case ProductCartUpdate.channel.name: return .productCartUpdate
        case WishlistEntryUpdate.channel.name: return .wishlistEntryUpdate
        default: return nil
        }
    }

    /// Records one decode of `body`; returns whether it failed.
    private func record(_ kind: Kind, _ body: MessageBody) -> Bool {
        func run<T: Decodable>(_ type: T.Type) -> Bool {
            if case .failure = replay.recordRoot(T.self, { try body.decode(RecordedValue<T>.self) }) { return true }
            return false
        }
        switch kind {
        case .addCartLine: return run(AddCartLine.self)
        case .removeCartLine: return run(RemoveCartLine.self)
        case .productCartUpdate: return run(ProductCartUpdate.self)
        case .wishlistEntryUpdate: return run(WishlistEntryUpdate.self)
        }
    }

    // MARK: Checks

    /// Replays every body and compares it with the real decoder's result (the same value, or
    /// both an error); returns the number that differ. The replay's call counts are then
    /// readable with `replay.counts(replayed: true)`.
    func disagreements() -> Int {
        replay.rewind()
        var differ = 0
        func compare<T: Decodable & Equatable>(_ type: T.Type, _ body: MessageBody) {
            let real = try? body.decode(T.self)
            let floor = try? T(from: replay)
            if real != floor { differ += 1 }
        }
        for (kind, body) in zip(kinds, bodies) {
            switch kind {
            case .addCartLine: compare(AddCartLine.self, body)
            case .removeCartLine: compare(RemoveCartLine.self, body)
            case .productCartUpdate: compare(ProductCartUpdate.self, body)
            case .wishlistEntryUpdate: compare(WishlistEntryUpdate.self, body)
            }
        }
        return differ
    }

    /// The encoding calls of every reply, counted on the real encoder (`real: true`, which must
    /// then write the same bytes as without counting) or on the floor's ``DiscardEncoder``;
    /// `nil` when the counted real encoder wrote other bytes.
    func encodingCounts(real: Bool) -> CallCounts? {
        let tally = CallTally()
        for (reply, typed) in zip(replies, typedReplies) {
            do {
                switch (typed, real) {
                case (.cart(let cart), true):
                    guard try BodyEncoder().encodeJSON(CountedValue(value: cart, tally: tally)) == reply.jsonBytes()
                    else { return nil }
                case (.wishlist(let state), true):
                    guard try BodyEncoder().encodeJSON(CountedValue(value: state, tally: tally)) == reply.jsonBytes()
                    else { return nil }
                case (.cart(let cart), false): try CountedValue(value: cart, tally: tally).encode(to: DiscardEncoder())
                case (.wishlist(let state), false):
                    try CountedValue(value: state, tally: tally).encode(to: DiscardEncoder())
                }
            } catch {
                return nil
            }
        }
        return tally.counts
    }

    // MARK: Timed loops

    /// The real decoder on every body, from the JSON tape, as the handlers decode them.
    @inline(never)
    func realDecodeLoop() -> Int {
        var sum = 0
        for (kind, body) in zip(kinds, bodies) {
            do {
                switch kind {
                case .addCartLine: sum &+= try body.decode(AddCartLine.self).quantity
                case .removeCartLine: sum &+= try body.decode(RemoveCartLine.self).quantity
                case .productCartUpdate: sum &+= try body.decode(ProductCartUpdate.self).offer.quantity
                case .wishlistEntryUpdate: sum &+= try body.decode(WishlistEntryUpdate.self).isWishlisted ? 1 : 2
                }
            } catch {
                sum &+= 7
            }
        }
        return sum
    }

    /// The floor: the same synthesized `init(from:)` calls, answered by the replay.
    @inline(never)
    func replayDecodeLoop() -> Int {
        replay.replayAll(kinds, failed: 7)
    }

    /// The floor with one keyed container per key type, reused (``ContainerCache``).
    @inline(never)
    func reusedDecodeLoop() -> Int {
        replay.reusedContainers = reusedContainers
        defer { replay.reusedContainers = nil }
        return replayDecodeLoop()
    }

    /// The floor of encoding with one keyed container per key type, reused (``ContainerCache``).
    @inline(never)
    func reusedEncodeLoop() -> Int {
        DiscardEncoder.reusedContainers = reusedEncoderContainers
        defer { DiscardEncoder.reusedContainers = nil }
        return discardEncodeLoop()
    }

    /// The real encoder on every reply, into one reused writer, as the CLI's session encodes them.
    @inline(never)
    func realEncodeLoop() -> Int {
        var writer = JSONWriter(capacity: 4096)
        var sum = 0
        for reply in replies {
            writer.reset()
            do {
                try reply.writeJSON(into: &writer)
                sum &+= writer.byteCount
            } catch {
                sum &+= 7
            }
        }
        return sum
    }

    /// The floor: the same synthesized `encode(to:)` calls into containers that write nothing.
    @inline(never)
    func discardEncodeLoop() -> Int {
        var sum = 0
        for reply in typedReplies {
            do {
                switch reply {
                case .cart(let cart): try cart.encode(to: DiscardEncoder())
                case .wishlist(let state): try state.encode(to: DiscardEncoder())
                }
                sum &+= 1
            } catch {
                sum &+= 7
            }
        }
        return sum
    }
}
