import Foundation
import Switchboard
import Testing

@testable import SwitchboardCommerce

/// Hides a value's `JSONWritable` conformance, so `BodyEncoder` goes through `encode(to:)`.
private struct ThroughEncoder<Value: Encodable>: Encodable {
    let value: Value
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
}

private struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance() -> Bool { next() & 1 == 0 }
    mutating func text() -> String {
        let pieces = ["sku", "é", "\"", "\\", "/", "\n", "\u{1}", "\u{2028}", "😀", "tee", " ", "10.50", "日本"]
        return (0..<below(5)).map { _ in pieces[below(pieces.count)] }.joined()
    }
    mutating func maybe() -> String? { chance() ? text() : nil }
    mutating func json(depth: Int = 0) -> JSONValue {
        switch below(depth > 2 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(chance())
        case 2: return .number(JSONNumber(unchecked: ["0", "-1", "2.50", "1e30"][below(4)]))
        case 3: return .string(text())
        case 4: return .array((0..<below(3)).map { _ in json(depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<below(4) { members[text()] = json(depth: depth + 1) }
            return .object(members)
        }
    }
    mutating func offer() -> ProductCartOffer {
        ProductCartOffer(
            offerId: text(), groupId: maybe(), name: maybe(), description: maybe(), url: maybe(), coverUrl: maybe(),
            imageUrls: (0..<below(3)).map { _ in text() }, currency: maybe(), price: maybe(), oldPrice: maybe(),
            adult: chance() ? chance() : nil, availability: below(3) - 1, size: maybe(), color: maybe(),
            quantity: [0, 1, 7, Int.max, Int.min][below(5)])
    }
}

@Suite struct CommerceJSONWritingTests {
    private func expectSameBytes<T: JSONWritable>(_ value: T, _ comment: Comment? = nil) throws {
        let direct = try BodyEncoder().encodeJSON(value)
        let generic = try BodyEncoder().encodeJSON(ThroughEncoder(value: value))
        #expect(String(decoding: direct, as: UTF8.self) == String(decoding: generic, as: UTF8.self), comment)
    }

    @Test func productCartsWriteWhatTheirEncoderConformanceEncodes() throws {
        var random = Random(state: 5)
        for _ in 0..<300 {
            let cart = ProductCart(
                offers: (0..<random.below(4)).map { _ in random.offer() }, price: random.text(), oldPrice: random.maybe(),
                priceCurrency: random.text())
            try expectSameBytes(cart)
        }
    }

    @Test func wishlistStatesWriteWhatTheirEncoderConformanceEncodes() throws {
        var random = Random(state: 9)
        for _ in 0..<300 {
            let entries = (0..<random.below(4)).map { _ in
                WishlistEntry(
                    id: WishlistEntryID(productId: random.text(), listingId: random.maybe(), variantId: random.maybe()),
                    title: random.maybe(), price: random.maybe(), customData: random.chance() ? random.json() : nil)
            }
            try expectSameBytes(WishlistState(entries: entries))
        }
    }

    @Test func aReplyValueUsesTheWriter() throws {
        let cart = ProductCart(offers: [], price: "0", oldPrice: nil, priceCurrency: "EUR")
        #expect(String(decoding: try ReplyValue(cart).jsonBytes(), as: UTF8.self) == #"{"offers":[],"price":"0","priceCurrency":"EUR"}"#)
    }

    /// The bytes `value` writes into a fresh writer with `escapesLineSeparators` as given.
    private func written<T: JSONWritable>(_ value: T, escapingSeparators: Bool = true) -> String {
        var writer = JSONWriter(escapesLineSeparators: escapingSeparators)
        value.writeJSON(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The cart with the same members and no offer text kept with it.
    private func uncached(_ cart: ProductCart) -> ProductCart {
        ProductCart(offers: cart.offers, price: cart.price, oldPrice: cart.oldPrice, priceCurrency: cart.priceCurrency)
    }

    @Test func cartRepliesWrittenFromKeptOfferTextAreTheBytesOfWritingEveryOffer() throws {
        var random = Random(state: 21)
        let cart = Cart()
        var replies = 0
        for round in 0..<400 {
            var offer = random.offer()
            // A few offer IDs, so updates replace and remove offers as well as add them; prices that add up.
            offer.offerId = ["a", "b", "c", "d\u{2028}"][random.below(4)]
            offer.quantity = random.below(4)
            offer.price = ["1.50", "2", "0.333", "10"][random.below(4)]
            offer.oldPrice = random.chance() ? "12.00" : nil
            offer.currency = "EUR"
            let reply: ProductCart
            if round % 5 == 4 {
                reply = try cart.productCart()
            } else {
                guard let updated = try? cart.update(offer) else { continue }
                reply = updated
            }
            #expect(reply.offersJSON != nil)
            #expect(written(reply) == written(uncached(reply)))
            #expect(written(reply, escapingSeparators: false) == written(uncached(reply), escapingSeparators: false))
            try expectSameBytes(reply)
            replies += 1
        }
        #expect(replies > 300)
    }

    @Test func changingACartsOffersDropsTheKeptText() throws {
        let cart = Cart()
        try cart.update(ProductCartOffer(offerId: "a", name: "tee", price: "1.00", quantity: 1))
        var reply = try cart.update(ProductCartOffer(offerId: "b", name: "cap", price: "2.00", quantity: 2))
        reply.offers[0].name = "changed"
        #expect(reply.offersJSON == nil)
        #expect(written(reply).contains(#""name":"changed""#))
        reply.offers.removeAll()
        #expect(written(reply) == #"{"offers":[],"price":"5.00","priceCurrency":""}"#)
    }

    @Test func keptTextIsNotPartOfACartsValue() throws {
        let cart = Cart()
        let reply = try cart.update(ProductCartOffer(offerId: "a", price: "1.00", quantity: 1))
        #expect(reply.offersJSON != nil)
        #expect(reply == uncached(reply))
        #expect(reply.hashValue == uncached(reply).hashValue)
        let decoded = try JSONDecoder().decode(ProductCart.self, from: try JSONEncoder().encode(reply))
        #expect(decoded == reply)
        #expect(decoded.offersJSON == nil)
    }

    @Test func wishlistRepliesWrittenFromKeptEntryTextAreTheBytesOfWritingEveryEntry() throws {
        var random = Random(state: 33)
        let wishlist = Wishlist()
        for _ in 0..<300 {
            let id = WishlistEntryID(
                productId: ["p1", "p2", "p3\u{2028}"][random.below(3)], listingId: random.chance() ? "l" : nil)
            wishlist.apply(
                WishlistEntryUpdate(
                    id: id, isWishlisted: random.below(4) != 0, title: random.maybe(), price: random.maybe(),
                    customData: random.chance() ? random.json() : nil))
            guard random.chance() else { continue }
            let state = wishlist.snapshot
            #expect(state.entriesJSON != nil)
            let plain = WishlistState(entries: state.entries)
            #expect(state == plain)
            #expect(written(state) == written(plain))
            #expect(written(state, escapingSeparators: false) == written(plain, escapingSeparators: false))
            try expectSameBytes(state)
            var changed = state
            changed.entries.removeAll()
            #expect(changed.entriesJSON == nil)
            #expect(written(changed) == #"{"entries":[]}"#)
        }
    }
}
