import Switchboard

/// The corpus's draws, from the package's one seeded generator (SplitMix64), so that the
/// same seed gives the same corpus on every machine and every run.
extension SeededRandom {
    /// A uniform integer in `range`.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        let width = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % width)
    }

    /// `true` with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < p
    }

    /// One of `items`, uniformly.
    mutating func pick<T>(_ items: [T]) -> T {
        items[int(0...(items.count - 1))]
    }
}

/// What a corpus message is expected to be, for the decode section and the summary.
enum MessageKind: String, Sendable {
    /// A body that decodes as its channel's event.
    case valid
    /// A body that does not decode (wrong type, missing key, wrong container).
    case invalid
    /// A channel with no handler.
    case unknownChannel
}

/// One message of the corpus.
struct CorpusMessage: Sendable {
    /// The NDJSON line, without its newline.
    let line: [UInt8]
    /// The channel name.
    let channel: String
    /// What the body is.
    let kind: MessageKind
}

/// The benchmark corpus: mixed commerce traffic, deterministic for a seed.
///
/// The mix, by share of messages (sizes are of the whole line):
/// - `addCartLine` 24 %, `removeCartLine` 8 % (LoyaltyLion; ~200–300 B),
/// - `productCartUpdate` 20 % (InAppStory offers; ~400–700 B), `productCartGetState` 7 %,
///   `productCartClicked` 4 %, `sdkReady` 4 %,
/// - `wishlistEntryUpdate` 22 % (Poq, with `customData`; ~250–400 B), `wishlistGetState` 3 %,
/// - a channel nobody handles 2 %,
/// - and about 8 % of the bodies above broken the ways real senders break them
///   (a quantity sent as a string or as 2.5, a missing required key, an attribute
///   that is a number, a body that is an array, `isWishlisted` sent as `1`).
///
/// Every line is valid JSON, so `jq -c .` and a Python `json.loads` loop can read
/// the same file (syntax errors are the reliability suite's business). Offer,
/// merchandise and wishlist identifiers come from small pools, half the cart
/// updates set a quantity of 0, and most `removeCartLine`s name a line the cart
/// has (the generator follows the reference cart's line numbering), so the cart
/// and wishlist stay the size a real session has and replies stay realistic
/// (a few offers, about a dozen wishlist entries).
struct Corpus: Sendable {
    let seed: UInt64
    let messages: [CorpusMessage]

    /// All lines joined with newlines (NDJSON, newline-terminated).
    var ndjson: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(messages.reduce(0) { $0 + $1.line.count + 1 })
        for message in messages {
            bytes += message.line
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Mean line length in bytes (without the newline).
    var averageLineBytes: Double {
        guard !messages.isEmpty else { return 0 }
        return Double(messages.reduce(0) { $0 + $1.line.count }) / Double(messages.count)
    }

    init(count: Int, seed: UInt64) {
        self.seed = seed
        var generator = CorpusGenerator(seed: seed)
        var messages: [CorpusMessage] = []
        messages.reserveCapacity(count)
        for index in 0..<count {
            messages.append(generator.message(index: index))
        }
        self.messages = messages
    }
}

/// Writes one message at a time with ``JSONWriter`` (fixed key order, so the text is deterministic).
struct CorpusGenerator {
    var random: SeededRandom
    var writer = JSONWriter(capacity: 2048)

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    static let words = [
        "linen", "shirt", "organic", "cotton", "relaxed", "fit", "summer", "dress", "wool", "blend", "jacket",
        "slim", "denim", "jeans", "leather", "boots", "classic", "sneaker", "knit", "sweater", "silk", "scarf",
        "canvas", "tote", "bag", "merino", "beanie", "crew", "neck", "tee", "washed", "chino", "shorts",
    ]
    static let accented = ["Café", "crème", "naïve", "Zürich", "São Paulo", "déjà vu", "Ærø", "Ŝmith", "東京", "🙂 gift"]
    static let sizes = ["XS", "S", "M", "L", "XL", "38", "40", "42", "EU 44"]
    static let colors = ["black", "white", "navy", "olive", "sand", "burgundy", "heather grey"]
    static let currencies = ["EUR", "EUR", "EUR", "USD", "GBP"]
    static let rewardIDs = ["19fdf4cb", "7a11c0de", "e4f0d2b9"]
    static let rewardNames = ["Free tote bag", "Free socks (2 pairs)", "Gift card €10"]
    static let sources = ["product-detail", "search-results", "recently-viewed", "home-carousel"]
    static let campaigns = ["Winter rewards ❄️", "VIP \"double points\" week", "Crème de la crème"]
    static let otherChannels = ["analyticsEvent", "pageView", "lionReferral", "checkoutStarted"]

    mutating func words(_ range: ClosedRange<Int>) -> String {
        var text = ""
        for index in 0..<random.int(range) {
            if index > 0 { text += " " }
            text += random.pick(CorpusGenerator.words)
        }
        if random.chance(0.15) { text += " " + random.pick(CorpusGenerator.accented) }
        if random.chance(0.05) { text += " \"limited\"\n" }
        return text
    }

    mutating func hex(_ digits: Int) -> String {
        let value = random.next()
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - text.count)) + text.prefix(digits)
    }

    mutating func price() -> String {
        let cents = random.int(199...24_999)
        let whole = cents / 100
        let fraction = cents % 100
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    mutating func message(index: Int) -> CorpusMessage {
        writer.reset()
        let roll = random.int(0...99)
        let breakIt = random.chance(0.08)
        let channel: String
        var kind = MessageKind.valid
        writer.beginObject()
        switch roll {
        case 0..<24:
            channel = "addCartLine"
            header(channel, index: index)
            kind = cartLine(remove: false, broken: breakIt)
        case 24..<32:
            channel = "removeCartLine"
            header(channel, index: index)
            kind = cartLine(remove: true, broken: breakIt)
        case 32..<52:
            channel = "productCartUpdate"
            header(channel, index: index)
            kind = cartUpdate(broken: breakIt)
        case 52..<59:
            channel = "productCartGetState"
            header(channel, index: index)
        case 59..<63:
            channel = "productCartClicked"
            header(channel, index: index)
        case 63..<67:
            channel = "sdkReady"
            header(channel, index: index)
        case 67..<89:
            channel = "wishlistEntryUpdate"
            header(channel, index: index)
            kind = wishlistUpdate(broken: breakIt)
        case 89..<92:
            channel = "wishlistGetState"
            header(channel, index: index)
        case 92..<94:
            channel = random.pick(CorpusGenerator.otherChannels)
            header(channel, index: index)
            writer.key("body")
            writer.beginObject()
            writer.key("path")
            writer.write("/products/" + hex(6))
            writer.key("ts")
            writer.write(1_733_000_000_000 + index * 37)
            writer.endObject()
            kind = .unknownChannel
        default:
            // Mostly LoyaltyLion again: it is the chattiest SDK in a session.
            channel = "addCartLine"
            header(channel, index: index)
            kind = cartLine(remove: false, broken: breakIt)
        }
        writer.endObject()
        return CorpusMessage(line: writer.bytes, channel: channel, kind: kind)
    }

    mutating func header(_ channel: String, index: Int) {
        writer.key("name")
        writer.write(channel)
        if random.chance(0.7) {
            writer.key("id")
            if random.chance(0.5) { writer.write("m-\(index)") } else { writer.write(index) }
        }
    }

    /// A line as the generator tracks it, to send `removeCartLine` for lines that exist.
    struct TrackedLine {
        let lineId: Int
        let product: Int
        let variant: Int
        let reward: Int
    }

    /// The reference cart's lines, as far as the generator can tell: the same
    /// merchandise and attributes make one line; line IDs count from 1 (as
    /// `Cart` numbers them), so most removals name a line that exists.
    var lineIDs: [String: Int] = [:]
    var liveLines: [TrackedLine] = []
    var nextLine = 1

    mutating func cartLine(remove: Bool, broken: Bool) -> MessageKind {
        var product = random.int(0...5)
        var variant = random.int(0...1)
        var reward = random.int(0...2)
        var lineId = 0
        var tracked: Int?
        if remove {
            if !liveLines.isEmpty, random.chance(0.85) {
                let index = random.int(0...(liveLines.count - 1))
                let line = liveLines[index]
                (product, variant, reward, lineId) = (line.product, line.variant, line.reward, line.lineId)
                tracked = index
            } else {
                lineId = nextLine + random.int(0...9)  // a line that does not exist (yet): the handler fails
            }
        }
        let productID = "gid://shopify/Product/\(8_012_345_678_900 + product)"
        let variantID = "gid://shopify/ProductVariant/\(44_012_345_678_900 + product * 10 + variant)"
        let flaw = broken ? random.int(0...3) : -1
        writer.key("body")
        if flaw == 3 {
            writer.beginArray()
            writer.write(variantID)
            writer.endArray()
            return .invalid
        }
        writer.beginObject()
        if remove {
            writer.key("lineId")
            writer.write("gid://shopify/CartLine/\(lineId)")
        }
        if flaw != 0 {
            writer.key("merchandiseId")
            writer.write(variantID)
        }
        writer.key("productId")
        writer.write(productID)
        writer.key("quantity")
        if flaw == 1 { writer.write("\(random.int(1...3))") } else { writer.write(random.int(1...3)) }
        writer.key("attributes")
        writer.beginObject()
        writer.key("__lion_sfp_id")
        if flaw == 2 { writer.write(random.int(1000...9999)) } else { writer.write(CorpusGenerator.rewardIDs[reward]) }
        writer.key("_lion_reward_name")
        writer.write(CorpusGenerator.rewardNames[reward])
        writer.key("_lion_reward_id")
        writer.write("rwd_\(31_400 + reward)")
        writer.key("_lion_customer_id")
        writer.write("cus_7Qk2vRz9Lm")
        if reward == 2 {
            writer.key("_campaign")
            writer.write(CorpusGenerator.campaigns[product % 3])
        }
        writer.endObject()
        writer.endObject()
        guard flaw < 0 else { return .invalid }
        let identity = "\(product)/\(variant)/\(reward)"
        if remove {
            if let tracked {
                lineIDs[identity] = nil
                liveLines.remove(at: tracked)
            }
        } else if lineIDs[identity] == nil {
            lineIDs[identity] = nextLine
            liveLines.append(TrackedLine(lineId: nextLine, product: product, variant: variant, reward: reward))
            nextLine += 1
        }
        return .valid
    }

    mutating func cartUpdate(broken: Bool) -> MessageKind {
        let offer = random.int(1...5)
        let flaw = broken ? random.int(0...2) : -1
        writer.key("body")
        writer.beginObject()
        writer.key("offer")
        writer.beginObject()
        if flaw != 0 {
            writer.key("offerId")
            writer.write("sku-\(offer)")
        }
        writer.key("groupId")
        writer.write("group-\(offer % 3)")
        writer.key("name")
        writer.write(words(2...4))
        if random.chance(0.7) {
            writer.key("description")
            writer.write(words(6...14))
        }
        writer.key("url")
        writer.write("https://shop.example.com/products/sku-\(offer)?utm_source=inappstory")
        writer.key("coverUrl")
        writer.write("https://cdn.example.com/images/products/sku-\(offer)/cover-1080.jpg")
        writer.key("imageUrls")
        writer.beginArray()
        for image in 0..<random.int(0...3) {
            writer.write("https://cdn.example.com/images/products/sku-\(offer)/\(image)-1080.jpg")
        }
        writer.endArray()
        writer.key("currency")
        writer.write("EUR")
        let price = "\(offer * 7).\(offer % 2 == 0 ? "50" : "99")"
        writer.key("price")
        writer.write(price)
        if random.chance(0.4) {
            writer.key("oldPrice")
            writer.write("\(offer * 9).00")
        }
        if random.chance(0.3) {
            writer.key("adult")
            writer.write(false)
        }
        writer.key("availability")
        writer.write(random.int(0...1) == 0 ? 1 : 2)
        if random.chance(0.5) {
            writer.key("size")
            writer.write(random.pick(CorpusGenerator.sizes))
            writer.key("color")
            writer.write(random.pick(CorpusGenerator.colors))
        }
        writer.key("quantity")
        if flaw == 1 {
            writer.write(JSONNumber(unchecked: "2.5"))
        } else if flaw == 2 {
            writer.write("3")
        } else {
            writer.write(random.chance(0.5) ? 0 : random.int(1...4))
        }
        writer.endObject()
        writer.endObject()
        return flaw >= 0 ? .invalid : .valid
    }

    mutating func wishlistUpdate(broken: Bool) -> MessageKind {
        let product = random.int(200...207)
        let flaw = broken ? random.int(0...1) : -1
        writer.key("body")
        writer.beginObject()
        writer.key("id")
        writer.beginObject()
        writer.key("productId")
        writer.write("P-\(product)")
        if product % 4 != 0 {
            writer.key("listingId")
            writer.write("L-\(product)-1")
        }
        if random.chance(0.6) {
            writer.key("variantId")
            writer.write("V-\(product)-\(random.chance(0.5) ? "M" : "L")")
        }
        writer.endObject()
        writer.key("isWishlisted")
        if flaw == 0 { writer.write(1) } else { writer.write(random.chance(0.4)) }
        if flaw == 1 {
            writer.key("title")
            writer.write(random.int(1...99))
        } else {
            writer.key("title")
            writer.write(words(3...6))
        }
        if random.chance(0.8) {
            writer.key("price")
            writer.write(price())
        }
        if random.chance(0.8) {
            writer.key("customData")
            writer.beginObject()
            writer.key("isPersonalisable")
            writer.write(random.chance(0.3))
            writer.key("tags")
            writer.beginArray()
            for _ in 0..<random.int(0...3) { writer.write(random.pick(CorpusGenerator.words)) }
            writer.endArray()
            if random.chance(0.3) {
                writer.key("engraving")
                writer.beginObject()
                writer.key("text")
                writer.write(words(1...3))
                writer.key("maxLength")
                writer.write(24)
                writer.endObject()
            }
            writer.key("score")
            writer.write(JSONNumber(unchecked: "0.\(random.int(10...99))"))
            writer.key("source")
            writer.write(random.pick(CorpusGenerator.sources))
            writer.key("listName")
            writer.write("Default wishlist")
            writer.endObject()
        }
        writer.endObject()
        return flaw >= 0 ? .invalid : .valid
    }
}
