import Foundation

extension Cart {
    /// What every line ID starts with; the line's number follows.
    static let lineIDPrefix: StaticString = "gid://shopify/CartLine/"

    /// The hash a line is found by: its merchandise and its attributes, whatever their order
    /// (the pairs' hashes are summed), computed once per add (``StoreHasher``).
    static func identityHash(merchandiseId: String, attributes: [String: String]) -> Int {
        var pairs: UInt = 0
        for (key, value) in attributes {
            var pair = StoreHasher()
            pair.combine(key)
            pair.combine(value)
            pairs &+= UInt(bitPattern: pair.finalize())
        }
        var hasher = StoreHasher()
        hasher.combine(merchandiseId)
        hasher.combine(attributes.count)
        hasher.combine(Int(bitPattern: pairs))
        return hasher.finalize()
    }

    /// Whether two lines' attributes are equal (`==`), comparing the values' bytes first.
    ///
    /// A few attributes are matched key by key (a dictionary's keys are distinct under `==`, so
    /// at most one key matches): no key is hashed, where a dictionary look-up hashes it with
    /// SipHash. A key with the same bytes is that one key, so keys are first compared by their
    /// bytes alone, and only a key none matches that way is compared with ``sameText(_:_:)``
    /// (`==`, which tells apart two different keys more slowly). More are looked up.
    static func sameAttributes(_ first: [String: String], _ second: [String: String]) -> Bool {
        guard first.count == second.count else { return false }
        if first.count <= smallAttributeCount {
            search: for (key, value) in first {
                for (otherKey, otherValue) in second where sameBytes(key, otherKey) {
                    guard sameText(value, otherValue) else { return false }
                    continue search
                }
                // No key with the same bytes: one equal under `==` in another spelling, if any.
                for (otherKey, otherValue) in second where sameText(key, otherKey) {
                    guard sameText(value, otherValue) else { return false }
                    continue search
                }
                return false
            }
            return true
        }
        for (key, value) in first {
            guard let other = second[key], sameText(value, other) else { return false }
        }
        return true
    }

    /// Up to how many attributes ``sameAttributes(_:_:)`` compares pairwise (at most 8² text comparisons).
    static let smallAttributeCount = 8

    /// `first == second`, answered from the bytes when they are equal: text with the same
    /// bytes is equal, and `==` itself compares non-ASCII text by canonical equivalence (slower).
    static func sameText(_ first: String, _ second: String) -> Bool {
        if sameBytes(first, second) { return true }
        return first == second
    }

    /// Whether two strings have the same UTF-8 bytes (then they are equal; equal strings may
    /// have different bytes, in different spellings).
    static func sameBytes(_ first: String, _ second: String) -> Bool {
        let same = first.utf8.withContiguousStorageIfAvailable { firstBytes in
            second.utf8.withContiguousStorageIfAvailable { secondBytes in
                guard firstBytes.count == secondBytes.count else { return false }
                guard let firstBase = firstBytes.baseAddress, let secondBase = secondBytes.baseAddress else {
                    return true
                }
                return memcmp(firstBase, secondBase, firstBytes.count) == 0
            }
        }
        if let same, let same { return same }
        return first.utf8.elementsEqual(second.utf8)
    }

    /// `gid://shopify/CartLine/<number>`, written straight into the string's storage.
    static func lineID(_ number: Int) -> String {
        let prefix = lineIDPrefix
        return String(unsafeUninitializedCapacity: prefix.utf8CodeUnitCount + 20) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            base.update(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            var digits = 0
            var rest = number.magnitude
            repeat {
                digits += 1
                rest /= 10
            } while rest > 0
            let end = prefix.utf8CodeUnitCount + digits
            var position = end
            rest = number.magnitude
            repeat {
                position -= 1
                base[position] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            } while rest > 0
            return end
        }
    }

    /// The number of a line ID this cart could have made (``lineID(_:)``: the prefix, then
    /// a positive number without leading zeros); `nil` for any other text.
    static func lineNumber(in id: String) -> Int? {
        if let number = id.utf8.withContiguousStorageIfAvailable({ lineNumber(inBytes: $0) }) { return number }
        return Array(id.utf8).withUnsafeBufferPointer { lineNumber(inBytes: $0) }
    }

    private static func lineNumber(inBytes id: UnsafeBufferPointer<UInt8>) -> Int? {
        let prefix = lineIDPrefix
        let prefixCount = prefix.utf8CodeUnitCount
        // At most 18 digits: the number fits an `Int` without overflow checks.
        guard id.count > prefixCount, id.count <= prefixCount + 18 else { return nil }
        for index in 0..<prefixCount where id[index] != prefix.utf8Start[index] { return nil }
        guard id[prefixCount] != 0x30 else { return nil }
        var number = 0
        for index in prefixCount..<id.count {
            let digit = id[index] &- 0x30
            guard digit < 10 else { return nil }
            number = number * 10 + Int(digit)
        }
        return number
    }
}
