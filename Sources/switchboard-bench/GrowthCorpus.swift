import Switchboard

/// A corpus whose reference state grows with its length, for the scaling section.
///
/// The kind corpus (``Corpus``) keeps the cart and the wishlist the size of one
/// shopper's session, which hides any cost that grows with state. These replay
/// what a long stream does to the reference handlers:
///
/// - `lines`: a cart that keeps growing. 40 % of messages add a cart line with a fresh
///   merchandise ID (and, one in four, fresh attributes too), 5 % add again to a
///   line the cart holds (same merchandise and attributes, keys in another order:
///   the quantities merge), 8 % remove a line the cart holds, picked at random (so
///   from the middle of the order). The cart grows by ~0.32 lines a message.
/// - `wishlist`: 40 % of messages wishlist a fresh entry, 5 % refresh one on the list,
///   8 % un-wishlist one on the list. The wishlist grows by ~0.32 entries a message.
/// - `attributes`: like `lines`, but the merchandise comes from twenty variants and
///   what makes each line new is its attributes: two to six keys out of forty,
///   with values that are mostly fresh (a gift message, an engraving, an ID).
///
/// The other ~47 % is the kind corpus's traffic (offers, wishlist or cart from
/// small pools, ready and click events, unknown channels, ~8 % broken bodies), less
/// what would make a reply list the growing state: requests whose reply is the whole
/// of it (`wishlistGetState` when the wishlist grows) are left out, since such a
/// reply costs O(state) by definition. The cart replies (`productCartUpdate`,
/// `productCartGetState`) list the offers, which stay few; cart lines are never replied.
struct GrowthCorpus {
    enum Kind: String, CaseIterable {
        case lines, wishlist, attributes
    }

    let kind: Kind
    private var mixed: CorpusGenerator
    private var random: SeededRandom
    private var writer = JSONWriter(capacity: 2048)
    private var index = 0

    /// A live cart line as the generator tracks it (the reference cart numbers lines from 1).
    private struct Line {
        let lineId: Int
        let merchandise: Int
        let attributes: [(String, String)]
    }

    private var lines: [Line] = []
    private var nextLine = 1
    private var nextMerchandise = 0
    private var entries: [Int] = []
    private var nextEntry = 0
    private var nextValue = 0

    static let attributeKeys = (0..<40).map { "_attr_\($0)" } + ["_gift_message", "_engraving"]

    init(kind: Kind, seed: UInt64) {
        self.kind = kind
        mixed = CorpusGenerator(seed: seed)
        random = SeededRandom(seed: seed &+ 0x5EED)
    }

    /// The next message's NDJSON line, without its newline.
    mutating func next() -> [UInt8] {
        defer { index += 1 }
        let roll = random.int(0...99)
        switch (kind, roll) {
        case (.lines, 0..<40), (.attributes, 0..<40): return addFreshLine()
        case (.lines, 40..<45), (.attributes, 40..<45): if let line = addAgain() { return line }
        case (.lines, 45..<53), (.attributes, 45..<53): if let line = removeLine() { return line }
        case (.wishlist, 0..<40): return wishlist(entry: nil)
        case (.wishlist, 40..<45): if !entries.isEmpty { return wishlist(entry: random.int(0...(entries.count - 1))) }
        case (.wishlist, 45..<53): if let line = unwishlist() { return line }
        default: break
        }
        return mixedMessage()
    }

    /// A message of the kind corpus, without what would list the growing state or
    /// break the generator's line numbering (cart lines come from this generator then).
    private mutating func mixedMessage() -> [UInt8] {
        while true {
            let message = mixed.message(index: index)
            switch (kind, message.channel) {
            case (.lines, "addCartLine"), (.lines, "removeCartLine"),
                (.attributes, "addCartLine"), (.attributes, "removeCartLine"),
                (.wishlist, "wishlistGetState"):
                continue
            default:
                return message.line
            }
        }
    }

    private mutating func header(_ channel: String) {
        writer.reset()
        writer.beginObject()
        writer.key("name")
        writer.write(channel)
        if random.chance(0.7) {
            writer.key("id")
            writer.write("m-\(index)")
        }
    }

    private mutating func freshValue() -> String {
        nextValue += 1
        switch random.int(0...3) {
        case 0: return "For \(mixed.words(1...2)) #\(nextValue)"
        case 1: return "gift-\(nextValue)"
        case 2: return mixed.hex(12)
        default: return "\(mixed.words(1...3)) \(nextValue % 997)"
        }
    }

    private mutating func freshAttributes() -> [(String, String)] {
        var attributes: [(String, String)] = []
        if kind == .attributes {
            var keys = Set<String>()
            for _ in 0..<random.int(2...6) { keys.insert(random.pick(GrowthCorpus.attributeKeys)) }
            for key in keys.sorted() { attributes.append((key, freshValue())) }
        } else {
            let reward = random.int(0...2)
            attributes.append(("__lion_sfp_id", CorpusGenerator.rewardIDs[reward]))
            attributes.append(("_lion_reward_name", CorpusGenerator.rewardNames[reward]))
            attributes.append(("_lion_customer_id", "cus_7Qk2vRz9Lm"))
            if random.chance(0.25) { attributes.append(("_lion_note", freshValue())) }
        }
        return attributes
    }

    private func merchandiseID(_ number: Int) -> String {
        "gid://shopify/ProductVariant/\(44_012_345_678_900 + number)"
    }

    private mutating func writeLine(lineId: Int?, merchandise: Int, attributes: [(String, String)]) {
        writer.key("body")
        writer.beginObject()
        if let lineId {
            writer.key("lineId")
            writer.write("gid://shopify/CartLine/\(lineId)")
        }
        writer.key("merchandiseId")
        writer.write(merchandiseID(merchandise))
        writer.key("productId")
        writer.write("gid://shopify/Product/\(8_012_345_678_900 + merchandise / 4)")
        writer.key("quantity")
        writer.write(random.int(1...3))
        writer.key("attributes")
        writer.beginObject()
        for (key, value) in attributes {
            writer.key(key)
            writer.write(value)
        }
        writer.endObject()
        writer.endObject()
        writer.endObject()
    }

    private mutating func addFreshLine() -> [UInt8] {
        header("addCartLine")
        let merchandise: Int
        if kind == .attributes {
            merchandise = random.int(0...19)
        } else {
            merchandise = 20 + nextMerchandise
            nextMerchandise += 1
        }
        let attributes = freshAttributes()
        writeLine(lineId: nil, merchandise: merchandise, attributes: attributes)
        // In `attributes`, a line is new by its attributes: each value holds a fresh number or
        // 48 random bits, so two fresh adds never make the same line (the outcomes' counts check it).
        lines.append(Line(lineId: nextLine, merchandise: merchandise, attributes: attributes))
        nextLine += 1
        return writer.bytes
    }

    /// Adds to a line the cart holds, its attribute keys in reverse order (same attributes).
    private mutating func addAgain() -> [UInt8]? {
        guard !lines.isEmpty else { return nil }
        let line = lines[random.int(0...(lines.count - 1))]
        header("addCartLine")
        writeLine(lineId: nil, merchandise: line.merchandise, attributes: line.attributes.reversed())
        return writer.bytes
    }

    /// Takes one of `items` at random (from anywhere: the order of `items` is not the store's), or `nil`.
    private static func takeRandom<T>(_ items: inout [T], _ random: inout SeededRandom) -> T? {
        guard !items.isEmpty else { return nil }
        items.swapAt(random.int(0...(items.count - 1)), items.count - 1)
        return items.removeLast()
    }

    private mutating func removeLine() -> [UInt8]? {
        guard let line = Self.takeRandom(&lines, &random) else { return nil }
        header("removeCartLine")
        writeLine(lineId: line.lineId, merchandise: line.merchandise, attributes: line.attributes)
        return writer.bytes
    }

    private mutating func writeEntry(_ entry: Int, wishlisted: Bool) {
        writer.key("body")
        writer.beginObject()
        writer.key("id")
        writer.beginObject()
        writer.key("productId")
        writer.write("W-\(entry / 3)")
        writer.key("listingId")
        writer.write("L-\(entry / 3)-1")
        writer.key("variantId")
        writer.write("V-\(entry)")
        writer.endObject()
        writer.key("isWishlisted")
        writer.write(wishlisted)
        if wishlisted {
            writer.key("title")
            writer.write(mixed.words(2...5))
            writer.key("price")
            writer.write(mixed.price())
            writer.key("customData")
            writer.beginObject()
            writer.key("isPersonalisable")
            writer.write(random.chance(0.3))
            writer.key("source")
            writer.write(random.pick(CorpusGenerator.sources))
            writer.endObject()
        }
        writer.endObject()
        writer.endObject()
    }

    /// Wishlists a fresh entry (`position` nil) or refreshes the one at `position`.
    private mutating func wishlist(entry position: Int?) -> [UInt8] {
        header("wishlistEntryUpdate")
        let entry: Int
        if let position {
            entry = entries[position]
        } else {
            entry = nextEntry
            nextEntry += 1
            entries.append(entry)
        }
        writeEntry(entry, wishlisted: true)
        return writer.bytes
    }

    private mutating func unwishlist() -> [UInt8]? {
        guard let entry = Self.takeRandom(&entries, &random) else { return nil }
        header("wishlistEntryUpdate")
        writeEntry(entry, wishlisted: false)
        return writer.bytes
    }

    /// Lines (cart lines or wishlist entries) the reference state holds now, as tracked.
    var stateSize: Int { kind == .wishlist ? entries.count : lines.count }
}
