import Switchboard

// The replies of the reference handlers write their JSON directly (the
// `switchboard` CLI's hot path), byte for byte what their synthesised
// `Encodable` conformances give through `BodyEncoder`: members in declaration
// order, `nil` optionals left out. CommerceJSONWritingTests compares the two.

extension ProductCartOffer: JSONWritable {
    /// Writes the offer as its `Encodable` conformance encodes it.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(plain: "offerId")
        writer.write(offerId)
        if let groupId {
            writer.key(plain: "groupId")
            writer.write(groupId)
        }
        if let name {
            writer.key(plain: "name")
            writer.write(name)
        }
        if let description {
            writer.key(plain: "description")
            writer.write(description)
        }
        if let url {
            writer.key(plain: "url")
            writer.write(url)
        }
        if let coverUrl {
            writer.key(plain: "coverUrl")
            writer.write(coverUrl)
        }
        writer.key(plain: "imageUrls")
        writer.beginArray()
        for imageUrl in imageUrls { writer.write(imageUrl) }
        writer.endArray()
        if let currency {
            writer.key(plain: "currency")
            writer.write(currency)
        }
        if let price {
            writer.key(plain: "price")
            writer.write(price)
        }
        if let oldPrice {
            writer.key(plain: "oldPrice")
            writer.write(oldPrice)
        }
        if let adult {
            writer.key(plain: "adult")
            writer.write(adult)
        }
        writer.key(plain: "availability")
        writer.write(availability)
        if let size {
            writer.key(plain: "size")
            writer.write(size)
        }
        if let color {
            writer.key(plain: "color")
            writer.write(color)
        }
        writer.key(plain: "quantity")
        writer.write(quantity)
        writer.endObject()
    }
}

extension ProductCart: JSONWritable {
    /// Writes the cart as its `Encodable` conformance encodes it.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(plain: "offers")
        writer.beginArray()
        // The offers' text as the cart wrote it (with the writer's default escaping), else each offer.
        if let offersJSON, offersJSON.count == offers.count, writer.escapesLineSeparators {
            for json in offersJSON { writer.writeRaw(json) }
        } else {
            for index in offers.indices { offers[index].writeJSON(to: &writer) }
        }
        writer.endArray()
        writer.key(plain: "price")
        writer.write(price)
        if let oldPrice {
            writer.key(plain: "oldPrice")
            writer.write(oldPrice)
        }
        writer.key(plain: "priceCurrency")
        writer.write(priceCurrency)
        writer.endObject()
    }
}

extension WishlistEntryID: JSONWritable {
    /// Writes the identifier as its `Encodable` conformance encodes it.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(plain: "productId")
        writer.write(productId)
        if let listingId {
            writer.key(plain: "listingId")
            writer.write(listingId)
        }
        if let variantId {
            writer.key(plain: "variantId")
            writer.write(variantId)
        }
        writer.endObject()
    }
}

extension WishlistEntry: JSONWritable {
    /// Writes the entry as its `Encodable` conformance encodes it.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(plain: "id")
        id.writeJSON(to: &writer)
        if let title {
            writer.key(plain: "title")
            writer.write(title)
        }
        if let price {
            writer.key(plain: "price")
            writer.write(price)
        }
        if let customData {
            writer.key(plain: "customData")
            writer.write(customData)
        }
        writer.endObject()
    }
}

extension WishlistState: JSONWritable {
    /// Writes the state as its `Encodable` conformance encodes it.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key(plain: "entries")
        writer.beginArray()
        // The entries' text as the wishlist wrote it (with the writer's default escaping), else each entry.
        if let entriesJSON, entriesJSON.count == entries.count, writer.escapesLineSeparators {
            for json in entriesJSON { writer.writeRaw(json) }
        } else {
            for index in entries.indices { entries[index].writeJSON(to: &writer) }
        }
        writer.endArray()
        writer.endObject()
    }
}
