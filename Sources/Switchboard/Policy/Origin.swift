/// A web origin — scheme, host and port — parsed strictly and normalised, so that two
/// origins are equal exactly when a browser would treat them as the same origin.
///
/// ## Why strict
/// An origin policy is only as good as its matching. Bridges that matched origins as
/// strings were bypassed by `https://shop.com.evil.net` (a prefix), `https://evilshop.com`
/// (a suffix), `https://shop.com@evil.com` (userinfo) and `https://shop.com.` (a trailing
/// dot). Switchboard never compares origin text: it parses an origin into its parts and
/// compares those, and refuses anything that is not plainly an origin.
///
/// ## What parses
/// `scheme://host[:port]`, nothing before, nothing after:
/// - **scheme**: `http`, `https`, `ws`, `wss`, or an app's own scheme (`app`, `my-app`,
///   `com.shop+web`: a letter, then letters, digits, `+`, `-`, `.`), compared ignoring case
///   and kept lowercased. `file`, `data`, `blob`, `about` and `javascript` are refused:
///   their documents have opaque origins that any page can produce.
/// - **host**: a DNS name in ASCII (non-ASCII names in their punycode `xn--` form), compared
///   ignoring case and kept lowercased: labels of 1 to 63 letters, digits and hyphens, not
///   starting or ending with a hyphen, at most 253 characters, no empty label, no trailing
///   dot; or an IPv4 address in dotted decimal (four numbers 0–255 without leading zeros);
///   or an IPv6 address in brackets (`[::1]`), kept in its RFC 5952 canonical form (no zone).
///   A name whose last label is a number — all digits, or `0x` and hex digits — and which
///   is not a valid dotted-decimal IPv4 address is refused (browsers would read `1.2.3`,
///   `0x7f.1`, `0x7f000001` or `a.0x10` as an address).
/// - **port**: optional, `:` and 1 to 5 digits without a leading zero, from 1 to 65535.
///   The scheme's default port (80 for `http` and `ws`, 443 for `https` and `wss`) is
///   the same as no port: `https://a.com:443` equals `https://a.com` and serialises as it.
///
/// Refused, each with an ``OriginError`` saying why: a path (even `/`), a query, a
/// fragment, userinfo, a trailing dot, an empty label, spaces or control characters
/// anywhere (leading and trailing whitespace included), percent-escapes, non-ASCII
/// characters, `null` (the serialisation of an opaque origin), a missing scheme or host,
/// port 0, a port above 65535, a port that is not digits.
///
/// ```swift
/// let shop = try Origin(parsing: "https://Shop.Example.com:443")
/// shop.serialized   // "https://shop.example.com"
/// ```
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    /// The scheme, lowercased (`https`).
    public let scheme: String
    /// The host, lowercased: a DNS name, a dotted IPv4 address, or a bracketed canonical IPv6 address.
    public let host: String
    /// The port when it is not the scheme's default; `nil` for the default port (or none).
    public let port: Int?

    /// Parses a serialised origin, strictly (see the type's documentation).
    /// - Throws: ``OriginError`` naming what is wrong.
    public init(parsing text: String) throws(OriginError) {
        let parts = try OriginSyntax.split(text, allowingWildcard: false)
        self = try Origin(scheme: parts.scheme, host: parts.host, portText: parts.port, text: text)
    }

    /// An origin from its parts, as WebKit's `WKSecurityOrigin` gives them (`protocol`, `host`, `port`).
    /// - Parameters:
    ///   - scheme: the scheme, without `://`.
    ///   - host: the host (an IPv6 address with or without brackets).
    ///   - port: the port; `nil` or `0` (WebKit's value for "the default port") mean the scheme's default.
    /// - Throws: ``OriginError`` when a part is not valid.
    public init(scheme: String, host: String, port: Int? = nil) throws(OriginError) {
        let text = "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")"
        var host = host
        if host.utf8.contains(UInt8(ascii: ":")), !host.hasPrefix("[") { host = "[\(host)]" }
        let normalisedScheme = try OriginSyntax.scheme(scheme, text: text)
        let normalisedHost = try OriginSyntax.host(host, text: text)
        var explicitPort: Int?
        if let port, port != 0 {
            guard (1...65_535).contains(port) else { throw OriginError(text, "port \(port) is out of range 1–65535") }
            explicitPort = port
        }
        self.init(validScheme: normalisedScheme, host: normalisedHost, port: explicitPort)
    }

    private init(scheme: Substring, host: Substring, portText: Substring?, text: String) throws(OriginError) {
        let normalisedScheme = try OriginSyntax.scheme(String(scheme), text: text)
        let normalisedHost = try OriginSyntax.host(String(host), text: text)
        let port = try portText.map { (port) throws(OriginError) -> Int in try OriginSyntax.port(port, text: text) }
        self.init(validScheme: normalisedScheme, host: normalisedHost, port: port)
    }

    /// An origin from parts already validated and normalised.
    init(validScheme scheme: String, host: String, port: Int?) {
        self.scheme = scheme
        self.host = host
        self.port = port == Origin.defaultPort(of: scheme) ? nil : port
    }

    /// The port the origin uses: the explicit one, else the scheme's default; `nil` when neither.
    public var effectivePort: Int? { port ?? Origin.defaultPort(of: scheme) }

    /// The default port of `scheme` (80 for `http` and `ws`, 443 for `https` and `wss`), `nil` for others.
    package static func defaultPort(of scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }

    /// The origin as text: `scheme://host` and `:port` when it is not the default.
    public var serialized: String {
        "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")"
    }

    /// Same as ``serialized``.
    public var description: String { serialized }
}

/// Why a text is not an origin (or an origin pattern): the text and the reason.
public struct OriginError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text that did not parse (cut to its first 200 Unicode scalars).
    public let text: String
    /// What is wrong with it.
    public let reason: String

    /// Creates an error.
    package init(_ text: String, _ reason: String) {
        self.text = OriginSyntax.cut(text, to: 200)
        self.reason = reason
    }

    /// `"<text>" is not an origin: <reason>`.
    public var description: String {
        "\(String(reflecting: text)) is not an origin: \(reason)"
    }
}
