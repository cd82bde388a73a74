import Foundation

/// Reads the fuzz input one byte (or word) at a time; past the end it reads zeros,
/// so every input is a complete program.
struct ByteCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func u16() -> UInt16 { UInt16(byte()) | UInt16(byte()) << 8 }

    mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }

    mutating func u64() -> UInt64 { UInt64(u32()) | UInt64(u32()) << 32 }

    mutating func pick<T>(_ table: [T]) -> T { table[Int(byte()) % table.count] }

    /// Up to `limit` raw bytes.
    mutating func chunk(limit: Int) -> [UInt8] {
        let count = min(Int(byte()) % (limit + 1), bytes.count - min(index, bytes.count))
        var result: [UInt8] = []
        result.reserveCapacity(count)
        for _ in 0..<count { result.append(byte()) }
        return result
    }
}

/// Builds a loosely typed body (`[String: Any]`, `[Any]`, `NSNumber`, `Bool`,
/// `String`, `NSNull`, `NSDecimalNumber`, Swift natives, `NSDate`, Foundation
/// collections, and a few things a body should never hold) from the fuzz bytes,
/// read as a little program: each value starts with an opcode byte.
struct TreeBuilder {
    var cursor: ByteCursor
    /// Nodes still allowed, so one input cannot build an enormous tree.
    var budget = 4_000

    /// The deepest recursive nesting built; deeper values come only from the
    /// iterative `chain` opcode.
    static let maxRecursion = 40

    static let keys: [String] = [
        "merchandiseId", "productId", "quantity", "attributes", "lineId", "offer", "offers", "offerId",
        "groupId", "name", "description", "url", "coverUrl", "imageUrls", "currency", "price", "oldPrice",
        "adult", "availability", "size", "color", "priceCurrency", "id", "listingId", "variantId",
        "isWishlisted", "title", "customData", "isPersonalisable", "__lion_sfp_id", "body", "kind",
        "count", "values", "date", "link", "amount", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64",
        "int", "uint", "float", "double", "decimal", "flag", "text", "nested", "list", "map", "shape",
        "circle", "square", "empty", "radius", "_0", "super", "", " ", "é", "e\u{301}", "\u{0}", "a.b",
        "lines[2]",
    ]

    static let strings: [String] = [
        "", "1", "-1", "0", "-0", "2.0", "2.5", "1e3", "1E-7", "1e400", "-1e400", "NaN", "nan", "Infinity",
        "-Infinity", "true", "false", "TRUE", "null", "9223372036854775807", "9223372036854775808",
        "18446744073709551615", "18446744073709551616", "-9223372036854775809", "0x10", " 1", "1 ", "+1",
        "01", ".5", "5.", "10.50", "31.50", "USD", "EUR", "2024-05-01T12:30:00Z", "2024-05-01T12:30:00.250Z",
        "2024-05-01T12:30:00+02:00", "2024-13-45T99:99:99Z", "2024-05-01", "https://example.com/p/1?x=y#z",
        "http://[::1]:8080/", "not a url", "a b", "é", "e\u{301}", "\u{0}", "\u{1F600}", "\u{FEFF}",
        "\u{2028}", "a\"b\\c", String(repeating: "x", count: 300), "circle", "square", "empty", "a", "b", "c",
    ]

    static let doubles: [Double] = [
        0, -0.0, 1, -1, 2, 2.5, 0.1, 1e300, -1e300, 1e-300, .infinity, -.infinity, .nan, .greatestFiniteMagnitude,
        .leastNonzeroMagnitude, 9_007_199_254_740_992, 9.223372036854775807e18, 1.8446744073709552e19, 127, 128,
        255, 256, 32767, 32768, 65535, 65536, 2_147_483_647, 2_147_483_648, 4_294_967_295, 4_294_967_296,
        -128, -129, -32768, -32769, 3.4028234663852886e38, 3.5e38,
    ]

    static let decimals: [String] = [
        "0", "1", "-1", "10.50", "2.0", "2.5", "12345678901234567890", "123456789012345678901234567890123456789",
        "-9223372036854775808", "9223372036854775808", "18446744073709551616", "1e100", "1e-100", "0.000001",
        "3.14159265358979323846264338327950288", "NaN", "abc", "",
    ]

    static let templates: [[String]] = [
        ["merchandiseId", "productId", "quantity", "attributes"],
        ["lineId", "merchandiseId", "productId", "quantity", "attributes"],
        ["offer"],
        [
            "offerId", "groupId", "name", "description", "url", "coverUrl", "imageUrls", "currency", "price",
            "oldPrice", "adult", "availability", "size", "color", "quantity",
        ],
        ["offers", "price", "oldPrice", "priceCurrency"],
        ["id", "isWishlisted", "title", "price", "customData"],
        ["productId", "listingId", "variantId"],
        ["i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "int", "uint", "float", "double", "decimal", "flag"],
        ["text", "link", "amount", "kind", "count", "values", "nested", "list", "map", "shape"],
        ["date", "link", "amount"],
        ["circle"], ["square"], ["empty"], ["radius"], ["_0"],
    ]

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        cursor = ByteCursor(bytes)
    }

    mutating func key() -> String {
        let selector = cursor.byte()
        if selector < 224 { return TreeBuilder.keys[Int(selector) % TreeBuilder.keys.count] }
        return String(decoding: cursor.chunk(limit: 12), as: UTF8.self)
    }

    mutating func value(depth: Int = 0) -> Any {
        budget -= 1
        if budget <= 0 || cursor.isAtEnd { return NSNull() }
        let op = cursor.byte()
        let atLimit = depth >= TreeBuilder.maxRecursion
        switch op % 32 {
        case 0: return NSNull()
        case 1: return cursor.byte() & 1 == 0
        case 2: return NSNumber(value: cursor.byte() & 1 == 0)
        case 3: return Int(Int8(bitPattern: cursor.byte()))
        case 4: return NSNumber(value: Int64(bitPattern: cursor.u64()))
        case 5: return NSNumber(value: cursor.u64())
        case 6: return NSNumber(value: Double(bitPattern: cursor.u64()))
        case 7: return cursor.pick(TreeBuilder.doubles)
        case 8: return NSNumber(value: cursor.pick(TreeBuilder.doubles))
        case 9: return NSDecimalNumber(string: cursor.pick(TreeBuilder.decimals))
        case 10: return cursor.pick(TreeBuilder.strings)
        case 11: return String(decoding: cursor.chunk(limit: 24), as: UTF8.self)
        case 12: return NSString(string: cursor.pick(TreeBuilder.strings))
        case 13: return Float(bitPattern: cursor.u32())
        case 14:
            switch cursor.byte() % 10 {
            case 0: return Int8(bitPattern: cursor.byte())
            case 1: return cursor.byte()
            case 2: return Int16(bitPattern: cursor.u16())
            case 3: return cursor.u16()
            case 4: return Int32(bitPattern: cursor.u32())
            case 5: return cursor.u32()
            case 6: return Int64(bitPattern: cursor.u64())
            case 7: return cursor.u64()
            case 8: return UInt(cursor.u64())
            default: return Int(bitPattern: UInt(cursor.u64()))
            }
        case 15:
            switch cursor.byte() % 4 {
            case 0: return Date(timeIntervalSince1970: cursor.pick(TreeBuilder.doubles))
            case 1: return NSDate(timeIntervalSince1970: Double(Int32(bitPattern: cursor.u32())))
            case 2: return Date(timeIntervalSinceReferenceDate: Double(bitPattern: cursor.u64()))
            default: return Date(timeIntervalSince1970: 1_714_566_600.25)
            }
        case 16, 17, 18:
            if atLimit { return NSNull() }
            let count = Int(cursor.byte()) % 6
            var array: [Any] = []
            for _ in 0..<count { array.append(value(depth: depth + 1)) }
            return array
        case 19, 20, 21, 22:
            if atLimit { return NSNull() }
            let count = Int(cursor.byte()) % 6
            var object: [String: Any] = [:]
            for _ in 0..<count { object[key()] = value(depth: depth + 1) }
            return object
        case 23, 24, 25:
            if atLimit { return NSNull() }
            let keys = cursor.pick(TreeBuilder.templates)
            let skip = cursor.byte()
            var object: [String: Any] = [:]
            for (offset, key) in keys.enumerated() where offset >= 8 || skip & (1 << offset) == 0 {
                object[key] = value(depth: depth + 1)
            }
            return object
        case 26:
            if atLimit { return NSNull() }
            let count = Int(cursor.byte()) % 4
            let array = NSMutableArray()
            for _ in 0..<count { array.add(value(depth: depth + 1)) }
            return cursor.byte() & 1 == 0 ? array : NSArray(array: array as [AnyObject])
        case 27:
            if atLimit { return NSNull() }
            let count = Int(cursor.byte()) % 4
            let object = NSMutableDictionary()
            for _ in 0..<count { object[NSString(string: key())] = value(depth: depth + 1) }
            return object
        case 28:
            return chain()
        case 29:
            // Decimal as a Swift value.
            return Decimal(string: cursor.pick(TreeBuilder.decimals)) ?? Decimal.nan
        case 30:
            // Things a JSON body never holds: the decoder must say so, not crash.
            switch cursor.byte() % 6 {
            case 0: return Optional<Int>.none as Any
            case 1: return Optional<Any>.some(Int(cursor.byte())) as Any
            case 2: return NSObject()
            case 3: return Data([1, 2, 3])
            case 4: return (1, "tuple")
            default: return URL(string: "https://example.com/u") ?? NSNull()
            }
        default:
            // Numeric NSNumbers of every width (an Int8 NSNumber looks like a C char, as a Bool does on Darwin).
            switch cursor.byte() % 6 {
            case 0: return NSNumber(value: Int8(bitPattern: cursor.byte()))
            case 1: return NSNumber(value: cursor.byte())
            case 2: return NSNumber(value: Float(bitPattern: cursor.u32()))
            case 3: return NSNumber(value: Int16(bitPattern: cursor.u16()))
            case 4: return NSNumber(value: cursor.u32())
            default: return NSNumber(value: Int(bitPattern: UInt(cursor.u64())))
            }
        }
    }

    /// A value nested up to a few thousand levels deep, built without recursion.
    mutating func chain() -> Any {
        // Mostly around the depth limits people set (tens to hundreds), sometimes thousands.
        let selector = cursor.byte()
        let depth =
            selector < 192 ? Int(selector) % 80 : selector < 248 ? Int(cursor.u16()) % 700 : Int(cursor.u16()) % 3_000
        let style = cursor.byte()
        budget -= depth / 16
        var inner: Any = cursor.pick(TreeBuilder.strings)
        for level in 0..<depth {
            switch (Int(style) + (style & 0x80 == 0 ? 0 : level)) % 3 {
            case 0: inner = [inner]
            case 1: inner = ["offer": inner]
            default: inner = ["attributes": inner, "quantity": level]
            }
        }
        return inner
    }
}
