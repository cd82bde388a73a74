/// The origins an ``OriginPolicy`` admits: one exact ``Origin``, or every strict
/// subdomain of a domain, `scheme://*.domain[:port]`.
///
/// ```swift
/// let shop = try OriginPattern(parsing: "https://shop.example.com")     // exactly this origin
/// let cdn = try OriginPattern(parsing: "https://*.cdn.example.net")     // a.cdn.example.net, a.b.cdn.example.net
/// ```
///
/// A wildcard pattern matches a host that has **more** labels than the domain and whose
/// last labels **are** the domain's labels: `https://*.shop.com` matches
/// `https://a.shop.com` and `https://a.b.shop.com`, never `https://shop.com` itself,
/// nor `https://evilshop.com`, nor `https://shop.com.evil.net`. Scheme and port must be
/// equal too (the scheme's default port counts as no port). Matching compares parsed
/// labels, never text prefixes or suffixes, and an IP address never matches a wildcard.
///
/// The wildcard may only be the whole leftmost label, followed by at least two labels
/// (`https://*.com` is refused: it would admit every `.com` site); there is no wildcard
/// scheme, port or label in the middle. Everything else follows ``Origin``'s grammar.
public struct OriginPattern: Hashable, Sendable, CustomStringConvertible {
    /// What the pattern matches.
    public enum Kind: Hashable, Sendable {
        /// Exactly this origin.
        case exact(Origin)
        /// Every strict subdomain of `domain` (a DNS name of two labels or more), with this scheme and port.
        case subdomains(scheme: String, domain: String, port: Int?)
    }

    /// What the pattern matches.
    public let kind: Kind
    /// The domain's labels, for a subdomain pattern (compared label by label).
    private let domainLabels: [Substring]

    /// A pattern that matches exactly `origin`.
    public init(_ origin: Origin) {
        self.init(kind: .exact(origin), domainLabels: [])
    }

    private init(kind: Kind, domainLabels: [Substring]) {
        self.kind = kind
        self.domainLabels = domainLabels
    }

    /// Parses `scheme://host[:port]` (an exact origin) or `scheme://*.domain[:port]`.
    /// - Throws: ``OriginError`` naming what is wrong.
    public init(parsing text: String) throws(OriginError) {
        let parts = try OriginSyntax.split(text, allowingWildcard: true)
        guard parts.host.contains("*") else {
            self.init(try Origin(parsing: text))
            return
        }
        if parts.scheme.contains("*") || (parts.port?.contains("*") ?? false) {
            throw OriginError(text, "a wildcard may only stand for the leftmost label of the host")
        }
        guard parts.host.hasPrefix("*."), !parts.host.dropFirst(2).contains("*") else {
            throw OriginError(text, "the wildcard must be the whole leftmost label (scheme://*.example.com)")
        }
        let scheme = try OriginSyntax.scheme(String(parts.scheme), text: text)
        let domain = String(parts.host.dropFirst(2)).lowercased()
        if domain.hasPrefix("[") { throw OriginError(text, "an IP address has no subdomains") }
        let labels = try OriginSyntax.dnsLabels(domain, text: text)
        guard labels.count >= 2 else {
            throw OriginError(text, "a wildcard needs at least two labels after it (*.example.com, not *.com)")
        }
        if let last = labels.last, OriginSyntax.isNumber(last) {
            throw OriginError(text, "an IP address has no subdomains")
        }
        let port = try parts.port.map { (port) throws(OriginError) -> Int in try OriginSyntax.port(port, text: text) }
        self.init(
            kind: .subdomains(
                scheme: scheme, domain: domain, port: port == Origin.defaultPort(of: scheme) ? nil : port),
            domainLabels: labels)
    }

    /// Whether `origin` is admitted by the pattern.
    public func matches(_ origin: Origin) -> Bool {
        switch kind {
        case .exact(let allowed):
            return origin == allowed
        case .subdomains(let scheme, _, let port):
            guard origin.scheme == scheme, origin.port == port, !origin.host.hasPrefix("[") else { return false }
            let labels = origin.host.split(separator: ".", omittingEmptySubsequences: false)
            guard labels.count > domainLabels.count else { return false }
            return zip(labels.suffix(domainLabels.count), domainLabels).allSatisfy { $0 == $1 }
        }
    }

    /// The pattern as text: `https://shop.example.com` or `https://*.example.com:8443`.
    public var description: String {
        switch kind {
        case .exact(let origin): return origin.serialized
        case .subdomains(let scheme, let domain, let port):
            return "\(scheme)://*.\(domain)\(port.map { ":\($0)" } ?? "")"
        }
    }

    /// Two patterns are equal when they match the same origins.
    public static func == (lhs: OriginPattern, rhs: OriginPattern) -> Bool { lhs.kind == rhs.kind }

    /// Hashes what the pattern matches.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}
