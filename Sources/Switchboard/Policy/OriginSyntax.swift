import Foundation

/// The strict grammar of ``Origin`` and ``OriginPattern`` text: each function checks one
/// part and returns it normalised, or throws an ``OriginError`` saying what is wrong.
/// No part is ever matched by prefix or substring: only whole, normalised parts are compared.
enum OriginSyntax {
    /// Schemes whose documents have opaque origins (any page can make one): never an origin.
    static let opaqueSchemes: Set<String> = ["file", "data", "blob", "about", "javascript", "null"]

    /// Splits `scheme://host[:port]` into its three texts, refusing everything else.
    static func split(
        _ text: String, allowingWildcard: Bool
    ) throws(OriginError) -> (scheme: Substring, host: Substring, port: Substring?) {
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x80 {
                throw OriginError(
                    text, "it contains non-ASCII characters (write an international name in its punycode xn-- form)")
            }
            if scalar.value <= 0x20 || scalar.value == 0x7F {
                throw OriginError(text, "it contains a space or a control character")
            }
        }
        if text.isEmpty { throw OriginError(text, "it is empty") }
        if text.lowercased() == "null" {
            throw OriginError(
                text, "\"null\" is the origin of an opaque document (a sandboxed frame, a data: or file: URL)")
        }
        guard let separator = text.range(of: "://") else {
            throw OriginError(text, "it has no scheme (expected scheme://host)")
        }
        let scheme = text[..<separator.lowerBound]
        let rest = text[separator.upperBound...]
        let refused: [(Character, String)] = [
            ("@", "it has userinfo (a user name before @); the host is what follows the @"),
            ("/", "it has a path (an origin ends after the host and port, without even a /)"),
            ("?", "it has a query"), ("#", "it has a fragment"),
            ("%", "it has a percent-escape"), ("\\", "it has a backslash"),
        ]
        for (character, reason) in refused where rest.contains(character) { throw OriginError(text, reason) }
        if !allowingWildcard, rest.contains("*") {
            throw OriginError(text, "it has a wildcard (*), which only an origin pattern may have")
        }
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw OriginError(text, "an IPv6 address lacks its ]") }
            let host = rest[...close]
            let after = rest[rest.index(after: close)...]
            if after.isEmpty { return (scheme, host, nil) }
            guard after.first == ":" else { throw OriginError(text, "unexpected text after the IPv6 address") }
            return (scheme, host, after.dropFirst())
        }
        let colons = rest.filter { $0 == ":" }.count
        if colons > 1 { throw OriginError(text, "it has more than one port separator (:)") }
        guard let colon = rest.firstIndex(of: ":") else { return (scheme, rest, nil) }
        return (scheme, rest[..<colon], rest[rest.index(after: colon)...])
    }

    /// The scheme, lowercased: a letter, then letters, digits, `+`, `-` or `.`; not an opaque scheme.
    static func scheme(_ scheme: String, text: String) throws(OriginError) -> String {
        guard let first = scheme.utf8.first else {
            throw OriginError(text, "it has no scheme (expected scheme://host)")
        }
        guard isLetter(first), scheme.utf8.allSatisfy({ isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) })
        else {
            throw OriginError(text, "the scheme \(shown(scheme)) is not a valid scheme")
        }
        let lowered = scheme.lowercased()
        if opaqueSchemes.contains(lowered) {
            throw OriginError(text, "\(lowered): documents have opaque origins, which no policy can name")
        }
        return lowered
    }

    /// The port: 1 to 5 digits without a leading zero, from 1 to 65535.
    static func port(_ port: Substring, text: String) throws(OriginError) -> Int {
        if port.isEmpty { throw OriginError(text, "the port after : is empty") }
        guard port.utf8.allSatisfy(isDigit) else {
            throw OriginError(text, "the port \(shown(port)) is not a number")
        }
        guard port.count <= 5, let value = Int(port), (1...65_535).contains(value) else {
            throw OriginError(text, "the port \(shown(port, quoted: false)) is out of range 1–65535")
        }
        if port.first == "0" { throw OriginError(text, "the port \(port) has a leading zero") }
        return value
    }

    /// The host, lowercased: a DNS name, a dotted IPv4 address or a bracketed IPv6 address (canonical).
    static func host(_ host: String, text: String) throws(OriginError) -> String {
        if host.isEmpty { throw OriginError(text, "it has no host") }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { throw OriginError(text, "an IPv6 address lacks its ]") }
            guard let address = IPv6Address(host.dropFirst().dropLast()) else {
                throw OriginError(text, "\(shown(host, quoted: false)) is not a valid IPv6 address")
            }
            return "[\(address.canonical)]"
        }
        let lowered = host.lowercased()
        let labels = try dnsLabels(lowered, text: text)
        if let last = labels.last, isNumber(last) {
            guard labels.count == 4, labels.allSatisfy(isIPv4Part) else {
                throw OriginError(text, "\(host) ends in a number but is not a dotted-decimal IPv4 address")
            }
        }
        return lowered
    }

    /// The labels of a lowercased DNS name, each checked (letters, digits, inner hyphens, 1–63 long).
    static func dnsLabels(_ name: String, text: String) throws(OriginError) -> [Substring] {
        if name.hasSuffix(".") { throw OriginError(text, "the host has a trailing dot") }
        if name.utf8.count > 253 { throw OriginError(text, "the host is longer than 253 characters") }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            if label.isEmpty { throw OriginError(text, "the host has an empty label (two dots, or a leading dot)") }
            if label.utf8.count > 63 { throw OriginError(text, "a label of the host is longer than 63 characters") }
            guard label.utf8.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") }) else {
                throw OriginError(
                    text,
                    "the host label \(String(reflecting: String(label))) has a character other than a letter, digit or hyphen"
                )
            }
            if label.hasPrefix("-") || label.hasSuffix("-") {
                throw OriginError(
                    text, "the host label \(String(reflecting: String(label))) starts or ends with a hyphen")
            }
        }
        return labels
    }

    /// Whether a browser reads `label` (a host's last label) as a number, making the host an
    /// IPv4 address: all decimal digits, or `0x`/`0X` and hex digits (`0x7f000001`, `0x10`, `0x`).
    static func isNumber(_ label: Substring) -> Bool {
        let bytes = label.utf8
        if !bytes.isEmpty, bytes.allSatisfy(isDigit) { return true }
        let prefix = Array(bytes.prefix(2))
        guard prefix.count == 2, prefix[0] == UInt8(ascii: "0"), prefix[1] | 0x20 == UInt8(ascii: "x") else {
            return false
        }
        return bytes.dropFirst(2).allSatisfy(isHexDigit)
    }

    static func isIPv4Part(_ part: Substring) -> Bool {
        guard !part.isEmpty, part.count <= 3, part.utf8.allSatisfy(isDigit), let value = Int(part), value <= 255
        else { return false }
        return part == "0" || part.first != "0"
    }

    /// A part of the text as a reason shows it: at most its first 100 Unicode scalars, then `…`
    /// (the part may be as long as the whole text, which ``OriginError/text`` already cuts),
    /// quoted by default.
    static func shown<Text: StringProtocol>(_ part: Text, quoted: Bool = true) -> String {
        let cut = part.unicodeScalars.count > 100 ? OriginSyntax.cut(String(part), to: 100) + "…" : String(part)
        return quoted ? String(reflecting: cut) : cut
    }

    /// The first `limit` Unicode scalars of `text` (not characters: one character may hold any
    /// number of combining scalars, so a cut by characters could keep the whole text).
    static func cut(_ text: String, to limit: Int) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.prefix(limit))
        return String(scalars)
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }
}

/// An IPv6 address parsed from its text (without brackets or zone), for its canonical form.
struct IPv6Address {
    let groups: [UInt16]

    /// Parses `x:x:x:x:x:x:x:x`, with at most one `::` and an optional dotted IPv4 tail.
    init?(_ text: Substring) {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func parse(_ part: String, allowingIPv4: Bool) -> [UInt16]? {
            if part.isEmpty { return [] }
            var groups: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if allowingIPv4, index == pieces.count - 1, piece.contains(".") {
                    let octets = piece.split(separator: ".", omittingEmptySubsequences: false)
                    guard octets.count == 4, octets.allSatisfy(OriginSyntax.isIPv4Part) else { return nil }
                    let values = octets.compactMap { UInt16($0) }
                    groups.append(values[0] << 8 | values[1])
                    groups.append(values[2] << 8 | values[3])
                    continue
                }
                // Hex digits only: `UInt16(_:radix:)` also takes a sign (`+1`, `-0`), which no address has.
                guard (1...4).contains(piece.utf8.count), piece.utf8.allSatisfy(OriginSyntax.isHexDigit),
                    let group = UInt16(piece, radix: 16)
                else { return nil }
                groups.append(group)
            }
            return groups
        }
        if halves.count == 2 {
            guard let head = parse(halves[0], allowingIPv4: false), let tail = parse(halves[1], allowingIPv4: true),
                head.count + tail.count <= 7
            else { return nil }
            groups = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        } else {
            guard let all = parse(halves[0], allowingIPv4: true), all.count == 8 else { return nil }
            groups = all
        }
    }

    /// RFC 5952: lowercase hex without leading zeros, the longest run (2 or more) of zero groups as `::`.
    var canonical: String {
        var best = (start: -1, length: 0)
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < 8, groups[index] == 0 { index += 1 }
            if index - start > best.length { best = (start, index - start) }
        }
        let hex = groups.map { String($0, radix: 16) }
        guard best.length >= 2 else { return hex.joined(separator: ":") }
        let head = hex[..<best.start].joined(separator: ":")
        let tail = hex[(best.start + best.length)...].joined(separator: ":")
        return head + "::" + tail
    }
}
