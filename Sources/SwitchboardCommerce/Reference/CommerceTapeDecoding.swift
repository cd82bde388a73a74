import Switchboard

// `TapeDecodable` for the bodies the reference handlers decode: each reads
// exactly the members its synthesised `init(from:)` reads, so a well-formed
// body decodes without `Decodable`'s containers, and anything else falls back
// to `Decodable` (same value, same errors). `CommerceTapeDecodingTests` checks
// both paths agree.

extension AddCartLine: TapeDecodable {
    package init(tape object: inout TapeObjectReader) throws(TapeMiss) {
        self.init(
            merchandiseId: try object.string("merchandiseId"),
            productId: try object.string("productId"),
            quantity: try object.int("quantity"),
            attributes: try object.stringDictionary("attributes"))
    }
}

extension RemoveCartLine: TapeDecodable {
    package init(tape object: inout TapeObjectReader) throws(TapeMiss) {
        self.init(
            lineId: try object.string("lineId"),
            merchandiseId: try object.string("merchandiseId"),
            productId: try object.string("productId"),
            quantity: try object.int("quantity"),
            attributes: try object.stringDictionary("attributes"))
    }
}

extension ProductCartUpdate: TapeDecodable {
    package init(tape object: inout TapeObjectReader) throws(TapeMiss) {
        self.init(offer: try object.value(ProductCartOffer.self, "offer"))
    }
}

extension ProductCartOffer: TapeDecodable {
    package init(tape object: inout TapeObjectReader) throws(TapeMiss) {
        self.init(
            offerId: try object.string("offerId"),
            groupId: try object.optionalString("groupId"),
            name: try object.optionalString("name"),
            description: try object.optionalString("description"),
            url: try object.optionalString("url"),
            coverUrl: try object.optionalString("coverUrl"),
            imageUrls: try object.strings("imageUrls"),
            currency: try object.optionalString("currency"),
            price: try object.optionalString("price"),
            oldPrice: try object.optionalString("oldPrice"),
            adult: try object.optionalBool("adult"),
            availability: try object.int("availability"),
            size: try object.optionalString("size"),
            color: try object.optionalString("color"),
            quantity: try object.int("quantity"))
    }
}

extension WishlistEntryUpdate: TapeDecodable {
    package init(tape object: inout TapeObjectReader) throws(TapeMiss) {
        self.init(
            id: try object.value(WishlistEntryID.self, "id"),
            isWishlisted: try object.bool("isWishlisted"),
            title: try object.optionalString("title"),
            price: try object.optionalString("price"),
            customData: object.optionalJSON("customData"))
    }
}

extension WishlistEntryID: TapeDecodable {
    package init(tape object: inout TapeObjectReader) throws(TapeMiss) {
        self.init(
            productId: try object.string("productId"),
            listingId: try object.optionalString("listingId"),
            variantId: try object.optionalString("variantId"))
    }
}
