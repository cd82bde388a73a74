import Foundation
import Switchboard
import Testing

@testable import SwitchboardCommerce

/// The reference bodies read themselves off the tape (`TapeDecodable`) when
/// they are well-formed; these tests hold that path to `Decodable`'s answers:
/// the same value, or (after the fast path gives up) the same error.
@Suite struct CommerceTapeDecodingTests {
    /// Decodes `text` as a body the way a handler does: through the fast path
    /// when `fast`, through `Decodable` alone otherwise (a `maxDepth` the fast path does not run under).
    static func decode<T: Decodable & Sendable>(_ type: T.Type, _ text: String, fast: Bool) -> Result<T, BodyDecodingError> {
        let bytes = Array(text.utf8)
        guard let body = try? bytes.withUnsafeBufferPointer({ try MessageBody(jsonBytes: $0) }) else {
            Issue.record("not JSON: \(text)")
            return .failure(BodyDecodingError(.dataCorrupted(.init(codingPath: [], debugDescription: "not JSON"))))
        }
        let options = DecodingOptions(maxDepth: fast ? 512 : BodyDecoder.tapeFastPathDepth)
        do throws(BodyDecodingError) {
            return .success(try body.decode(T.self, options: options))
        } catch {
            return .failure(error)
        }
    }

    /// Both paths agree on `text`; returns whether it decoded.
    @discardableResult
    static func agree<T: Decodable & Hashable & Sendable>(_ type: T.Type, _ text: String) -> Bool {
        let fast = decode(T.self, text, fast: true)
        let reference = decode(T.self, text, fast: false)
        switch (fast, reference) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(text)")
            return true
        case (.failure(let a), .failure(let b)):
            #expect(a.description == b.description, "\(text)")
        default:
            Issue.record("the paths disagree on \(text): \(fast) vs \(reference)")
        }
        return false
    }

    /// The fast path itself takes `text` (so the agreement above is about it, not about the fallback).
    static func takenByFastPath<T: TapeDecodable>(_ type: T.Type, _ text: String) -> Bool {
        guard let tape = JSONTape.parse(Array(text.utf8)) else { return false }
        return withExtendedLifetime(tape) {
            guard var reader = try? TapeObjectReader(tape: tape, index: 0) else { return false }
            return (try? T(tape: &reader)) != nil
        }
    }

    static let attributes = #"{"__lion_sfp_id":"e4f0d2b9","_lion_reward_name":"Gift card €10","_campaign":"VIP \"double\" week","é\u0301":"x"}"#

    static let cartLines: [String] = [
        #"{"merchandiseId":"gid://v/1","productId":"gid://p/1","quantity":2,"attributes":\#(attributes)}"#,
        #"{"attributes":{},"quantity":1,"productId":"p","merchandiseId":"m","extra":[1,{"a":null}]}"#,
        #"{"merchandiseId":"m","productId":"p","quantity":2.0,"attributes":{}}"#,
        #"{"merchandiseId":"m","productId":"p","quantity":"2","attributes":{}}"#,
        #"{"merchandiseId":"m","productId":"p","quantity":-0,"attributes":{}}"#,
        #"{"merchandiseId":"m","productId":"p","quantity":99999999999999999999,"attributes":{}}"#,
        #"{"merchandiseId":"m","productId":"p","quantity":1,"attributes":{"a":1}}"#,
        #"{"merchandiseId":"m","productId":"p","quantity":1,"attributes":{"a":{"b":"c"}}}"#,
        #"{"merchandiseId":"m","productId":"p","quantity":1,"attributes":["a"]}"#,
        #"{"merchandiseId":null,"productId":"p","quantity":1,"attributes":{}}"#,
        #"{"productId":"p","quantity":1,"attributes":{}}"#,
        #"{"merchandiseId":"m","productId":"p","quantity":1}"#,
        #"{"merch\u0061ndiseId":"m","productId":"p","quantity":1,"attributes":{}}"#,
        #"["gid://v/1"]"#,
        #"{"lineId":"gid://l/1","merchandiseId":"m","productId":"p","quantity":3,"attributes":{"k":"v"}}"#,
    ]

    @Test func cartLineBodiesDecodeTheSameOnBothPaths() {
        var decoded = 0
        for text in Self.cartLines {
            if Self.agree(AddCartLine.self, text) { decoded += 1 }
            Self.agree(RemoveCartLine.self, text)
        }
        #expect(decoded >= 4)
        #expect(Self.takenByFastPath(AddCartLine.self, Self.cartLines[0]))
        #expect(Self.takenByFastPath(RemoveCartLine.self, Self.cartLines[14]))
        #expect(!Self.takenByFastPath(AddCartLine.self, Self.cartLines[2]), "2.0 is left to Decodable")
    }

    static let offers: [String] = [
        #"{"offer":{"offerId":"sku-1","groupId":"g","name":"knit 🙂","description":"d\n","url":"u","coverUrl":"c","imageUrls":["a","b"],"currency":"EUR","price":"7.99","oldPrice":"9.00","adult":false,"availability":2,"size":"XL","color":"red","quantity":4}}"#,
        #"{"offer":{"offerId":"sku-2","imageUrls":[],"availability":1,"quantity":0,"groupId":null,"adult":null}}"#,
        #"{"offer":{"offerId":"sku-2","imageUrls":[1],"availability":1,"quantity":0}}"#,
        #"{"offer":{"offerId":"sku-2","imageUrls":[["a"]],"availability":1,"quantity":0}}"#,
        #"{"offer":{"offerId":"sku-2","imageUrls":null,"availability":1,"quantity":0}}"#,
        #"{"offer":{"offerId":"sku-2","imageUrls":[],"availability":1,"quantity":0,"adult":"true"}}"#,
        #"{"offer":{"offerId":"sku-2","imageUrls":[],"availability":1,"quantity":0,"price":7.99}}"#,
        #"{"offer":{"offerId":"sku-2","imageUrls":[],"quantity":0}}"#,
        #"{"offer":null}"#,
        #"{"offer":[]}"#,
        #"{}"#,
    ]

    @Test func productCartUpdatesDecodeTheSameOnBothPaths() {
        let decoded = Self.offers.filter { Self.agree(ProductCartUpdate.self, $0) }.count
        #expect(decoded == 2)
        #expect(Self.takenByFastPath(ProductCartUpdate.self, Self.offers[0]))
    }

    static let wishlist: [String] = [
        #"{"id":{"productId":"P-1","listingId":"L-1","variantId":"V-1"},"isWishlisted":true,"title":"t","price":"1.00","customData":{"score":0.62,"tags":["a"],"n":{"x":null},"big":1e400}}"#,
        #"{"id":{"productId":"P-1"},"isWishlisted":false,"customData":null,"title":null}"#,
        #"{"id":{"productId":"P-1"},"isWishlisted":false,"customData":"text"}"#,
        #"{"id":{"productId":"P-1"},"isWishlisted":0}"#,
        #"{"id":{"productId":1},"isWishlisted":true}"#,
        #"{"id":"P-1","isWishlisted":true}"#,
        #"{"isWishlisted":true}"#,
    ]

    @Test func wishlistUpdatesDecodeTheSameOnBothPaths() {
        let decoded = Self.wishlist.filter { Self.agree(WishlistEntryUpdate.self, $0) }.count
        #expect(decoded == 3)
        #expect(Self.takenByFastPath(WishlistEntryUpdate.self, Self.wishlist[0]))
    }

    @Test func aShallowMaxDepthStillGetsDecodablesDepthError() {
        let result = Self.decode(AddCartLine.self, Self.cartLines[0], fast: false)
        let shallow: Result<AddCartLine, BodyDecodingError> = {
            let bytes = Array(Self.cartLines[0].utf8)
            guard let body = try? bytes.withUnsafeBufferPointer({ try MessageBody(jsonBytes: $0) }) else {
                return .failure(BodyDecodingError(.dataCorrupted(.init(codingPath: [], debugDescription: "not JSON"))))
            }
            do throws(BodyDecodingError) {
                return .success(try body.decode(AddCartLine.self, options: DecodingOptions(maxDepth: 1)))
            } catch {
                return .failure(error)
            }
        }()
        #expect(throws: BodyDecodingError.self) { try shallow.get() }
        #expect((try? result.get()) != nil)
    }
}
