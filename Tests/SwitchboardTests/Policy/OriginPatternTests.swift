import Switchboard
import Testing

/// Patterns match parsed origins label by label: exact, or strict subdomains of a domain.
@Suite struct OriginPatternTests {
    func matches(_ pattern: String, _ origin: String) throws -> Bool {
        try OriginPattern(parsing: pattern).matches(Origin(parsing: origin))
    }

    @Test func anExactPatternMatchesTheSameOriginOnly() throws {
        #expect(try matches("https://shop.example.com", "https://shop.example.com"))
        #expect(try matches("https://shop.example.com", "HTTPS://SHOP.example.com:443"))
        #expect(try !matches("https://shop.example.com", "https://shop.example.com:8443"))
        #expect(try !matches("https://shop.example.com", "http://shop.example.com"))
        #expect(try !matches("https://shop.example.com", "https://a.shop.example.com"))
    }

    @Test func lookAlikeHostsNeverMatch() throws {
        #expect(try !matches("https://shop.com", "https://shop.com.evil.net"))
        #expect(try !matches("https://shop.com", "https://evilshop.com"))
        #expect(try !matches("https://*.shop.com", "https://evilshop.com"))
        #expect(try !matches("https://*.shop.com", "https://shop.com.evil.net"))
        #expect(try !matches("https://*.shop.com", "https://a.shop.com.evil.net"))
        #expect(try !matches("https://*.shop.com", "https://xshop.com"))
        #expect(try !matches("https://*.shop.com", "https://a.shop.co"))
    }

    @Test func aWildcardMatchesStrictSubdomainsOnly() throws {
        #expect(try matches("https://*.shop.com", "https://a.shop.com"))
        #expect(try matches("https://*.shop.com", "https://a.b.shop.com"))
        #expect(try matches("https://*.SHOP.com", "https://A.shop.COM"))
        #expect(try !matches("https://*.shop.com", "https://shop.com"))
    }

    @Test func aWildcardKeepsSchemeAndPort() throws {
        #expect(try !matches("https://*.shop.com", "http://a.shop.com"))
        #expect(try !matches("https://*.shop.com", "https://a.shop.com:8443"))
        #expect(try matches("https://*.shop.com:8443", "https://a.shop.com:8443"))
        #expect(try matches("https://*.shop.com:443", "https://a.shop.com"))
        #expect(try OriginPattern(parsing: "https://*.shop.com:443").description == "https://*.shop.com")
    }

    @Test func aWildcardNeverMatchesAnIPAddress() throws {
        #expect(try !matches("https://*.example.com", "https://[::1]"))
    }

    @Test func badWildcardsAreRefused() {
        for text in [
            "https://*", "https://*.com", "*.shop.com", "https://a.*.shop.com", "https://*a.shop.com",
            "https://**.shop.com", "https://*.*.shop.com", "*://shop.com", "https://shop.com:*", "https://*.shop.com/",
            "https://*.shop.com.", "https://*.1.2.3", "https://*.[::1]", "https://user@*.shop.com", "https://*.",
        ] {
            #expect(throws: OriginError.self, "\(text)") { try OriginPattern(parsing: text) }
        }
    }

    @Test func aWildcardDomainEndingInAHexNumberIsRefused() {
        for text in ["https://*.a.0x10", "https://*.example.0X7F", "https://*.a.0x", "http://0x7f000001"] {
            #expect(throws: OriginError.self, "\(text)") { try OriginPattern(parsing: text) }
        }
        #expect(throws: Never.self) { try OriginPattern(parsing: "https://*.0x10.example.com") }
    }

    @Test func anExactPatternFollowsTheOriginGrammar() {
        for text in ["https://shop.com/", "https://shop.com.", "null", "https://shop.com@evil.com", "shop.com"] {
            #expect(throws: OriginError.self, "\(text)") { try OriginPattern(parsing: text) }
        }
    }
}
