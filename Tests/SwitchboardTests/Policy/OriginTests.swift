import Switchboard
import Testing

/// `Origin(parsing:)` is strict: each class of text that is not plainly an origin is
/// refused with a reason, and what parses is normalised so equal origins compare equal.
@Suite struct OriginTests {
    func refuses(_ text: String, because fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let origin = try Origin(parsing: text)
            Issue.record("\(String(reflecting: text)) parsed as \(origin)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.reason.contains(fragment), "\(error)", sourceLocation: sourceLocation)
            #expect(error.description.contains("is not an origin"), sourceLocation: sourceLocation)
        }
    }

    @Test func aPlainOriginParsesIntoItsParts() throws {
        let origin = try Origin(parsing: "https://shop.example.com:8443")
        #expect(origin.scheme == "https")
        #expect(origin.host == "shop.example.com")
        #expect(origin.port == 8443)
        #expect(origin.serialized == "https://shop.example.com:8443")
    }

    @Test func schemeAndHostCaseAreNormalised() throws {
        #expect(try Origin(parsing: "HTTPS://Shop.EXAMPLE.com") == Origin(parsing: "https://shop.example.com"))
        #expect(try Origin(parsing: "HTTPS://Shop.EXAMPLE.com").serialized == "https://shop.example.com")
    }

    @Test func theDefaultPortIsTheSameAsNoPort() throws {
        #expect(try Origin(parsing: "https://a.com:443") == Origin(parsing: "https://a.com"))
        #expect(try Origin(parsing: "http://a.com:80") == Origin(parsing: "http://a.com"))
        #expect(try Origin(parsing: "wss://a.com:443") == Origin(parsing: "wss://a.com"))
        #expect(try Origin(parsing: "https://a.com:443").serialized == "https://a.com")
        #expect(try Origin(parsing: "https://a.com:443").port == nil)
        #expect(try Origin(parsing: "https://a.com").effectivePort == 443)
        // Another port, or the other scheme's default, is another origin.
        #expect(try Origin(parsing: "https://a.com:80") != Origin(parsing: "https://a.com"))
        #expect(try Origin(parsing: "http://a.com") != Origin(parsing: "https://a.com"))
        #expect(try Origin(parsing: "https://a.com:8443") != Origin(parsing: "https://a.com"))
    }

    @Test func webKitsPartsMakeTheSameOriginAsItsText() throws {
        #expect(
            try Origin(scheme: "https", host: "Shop.example.com", port: 0)
                == Origin(parsing: "https://shop.example.com"))
        #expect(
            try Origin(scheme: "https", host: "shop.example.com", port: 443)
                == Origin(parsing: "https://shop.example.com"))
        #expect(try Origin(scheme: "http", host: "::1", port: 8080) == Origin(parsing: "http://[::1]:8080"))
        #expect(throws: OriginError.self) { try Origin(scheme: "https", host: "shop.example.com", port: 70_000) }
        #expect(throws: OriginError.self) { try Origin(scheme: "", host: "", port: 0) }
        #expect(throws: OriginError.self) { try Origin(scheme: "https", host: "a.com/x", port: 0) }
    }

    @Test func aPathIsRefusedEvenASlash() {
        refuses("https://shop.example.com/", because: "path")
        refuses("https://shop.example.com/cart", because: "path")
    }

    @Test func aQueryOrFragmentIsRefused() {
        refuses("https://shop.example.com?x=1", because: "query")
        refuses("https://shop.example.com#top", because: "fragment")
    }

    @Test func userinfoIsRefused() {
        refuses("https://shop.example.com@evil.example", because: "userinfo")
        refuses("https://user:pass@shop.example.com", because: "userinfo")
        refuses("https://@shop.example.com", because: "userinfo")
    }

    @Test func aTrailingDotOrAnEmptyLabelIsRefused() {
        refuses("https://shop.example.com.", because: "trailing dot")
        refuses("https://shop..example.com", because: "empty label")
        refuses("https://.shop.example.com", because: "empty label")
    }

    @Test func spacesAndControlCharactersAreRefusedAnywhere() {
        refuses(" https://shop.example.com", because: "space")
        refuses("https://shop.example.com ", because: "space")
        refuses("https://shop.example.com\n", because: "control")
        refuses("https://shop .example.com", because: "space")
        refuses("https://shop.example.com\u{0}", because: "control")
        refuses("https://shop.example.com\t", because: "control")
    }

    @Test func percentEscapesAndBackslashesAreRefused() {
        refuses("https://shop%2eexample.com", because: "percent")
        refuses("https://shop.example.com%40evil.example", because: "percent")
        refuses("https:\\\\shop.example.com", because: "scheme")
        refuses("https://shop.example.com\\@evil.example", because: "userinfo")
    }

    @Test func nonASCIIHostsMustBePunycode() throws {
        refuses("https://shöp.example.com", because: "punycode")
        refuses("https://shop.example.com\u{FF0F}", because: "non-ASCII")
        #expect(try Origin(parsing: "https://xn--shp-sna.example.com").host == "xn--shp-sna.example.com")
    }

    @Test func nullAndOpaqueSchemesAreRefused() {
        refuses("null", because: "opaque")
        refuses("NULL", because: "opaque")
        refuses("file://shop.example.com", because: "opaque")
        refuses("data://x.example.com", because: "opaque")
        refuses("about://blank.example.com", because: "opaque")
        refuses("javascript://x.example.com", because: "opaque")
    }

    @Test func aMissingSchemeOrHostIsRefused() {
        refuses("shop.example.com", because: "no scheme")
        refuses("//shop.example.com", because: "no scheme")
        refuses("://shop.example.com", because: "no scheme")
        refuses("https://", because: "no host")
        refuses("https://:443", because: "no host")
        refuses("", because: "empty")
        refuses("1https://shop.example.com", because: "not a valid scheme")
    }

    @Test func portsOutsideOneTo65535OrNotDigitsAreRefused() {
        refuses("https://shop.example.com:0", because: "out of range")
        refuses("https://shop.example.com:65536", because: "out of range")
        refuses("https://shop.example.com:99999999999999999999", because: "out of range")
        refuses("https://shop.example.com:-1", because: "not a number")
        refuses("https://shop.example.com:44a", because: "not a number")
        refuses("https://shop.example.com:+443", because: "not a number")
        refuses("https://shop.example.com:", because: "empty")
        refuses("https://shop.example.com:0443", because: "leading zero")
        refuses("https://shop.example.com:443:443", because: "more than one")
    }

    @Test func hostLabelsAreLettersDigitsAndInnerHyphens() {
        refuses("https://shop_1.example.com", because: "character other than")
        refuses("https://-shop.example.com", because: "hyphen")
        refuses("https://shop-.example.com", because: "hyphen")
        refuses("https://" + String(repeating: "a", count: 64) + ".com", because: "63")
        refuses("https://*.example.com", because: "wildcard")
    }

    @Test func ipv4AddressesAreStrictDottedDecimal() throws {
        #expect(try Origin(parsing: "http://127.0.0.1:8080").host == "127.0.0.1")
        refuses("http://127.0.0.01", because: "IPv4")
        refuses("http://127.1", because: "IPv4")
        refuses("http://256.0.0.1", because: "IPv4")
        refuses("http://0x7f.0.0.1", because: "IPv4")
        refuses("http://2130706433", because: "IPv4")
    }

    @Test func aHostEndingInAHexNumberIsRefusedAsANonDottedDecimalAddress() throws {
        for text in ["http://0x7f000001", "http://0X7F000001", "http://a.0x10", "http://shop.0x", "http://1.2.3.0xff"] {
            refuses(text, because: "IPv4")
            #expect(throws: OriginError.self, "\(text)") {
                try Origin(scheme: "http", host: String(text.dropFirst("http://".count)))
            }
        }
        // Labels that only look hex are names: the number must be the whole last label.
        #expect(try Origin(parsing: "http://0x10.example.com").host == "0x10.example.com")
        #expect(try Origin(parsing: "http://a.0xg1").host == "a.0xg1")
        #expect(try Origin(parsing: "http://a.x10").host == "a.x10")
    }

    @Test func ipv6AddressesAreBracketedAndCanonical() throws {
        #expect(try Origin(parsing: "http://[::1]:8080").serialized == "http://[::1]:8080")
        #expect(try Origin(parsing: "http://[0:0:0:0:0:0:0:1]") == Origin(parsing: "http://[::1]"))
        #expect(try Origin(parsing: "http://[2001:DB8:0:0:1:0:0:1]").host == "[2001:db8::1:0:0:1]")
        #expect(try Origin(parsing: "http://[::ffff:192.0.2.1]").host == "[::ffff:c000:201]")
        refuses("http://[::1", because: "]")
        refuses("http://[1::2::3]", because: "IPv6")
        refuses("http://[12345::1]", because: "IPv6")
        refuses("http://[fe80::1%25en0]", because: "percent")
        refuses("http://::1", because: "more than one")
    }

    @Test func anIPv6GroupIsHexDigitsWithoutASign() throws {
        // `UInt16(_:radix:)` takes `+1` and `-0`: `[+1::]` parsed as `[1::]`.
        for text in [
            "http://[+1::]", "http://[-0::]", "http://[::+1]", "http://[1:+2::]", "http://[::-1]", "http://[0x1::]",
        ] {
            refuses(text, because: "IPv6")
            #expect(throws: OriginError.self, "\(text)") {
                try Origin(scheme: "http", host: String(text.dropFirst("http://".count)))
            }
        }
        #expect(try Origin(parsing: "http://[1:2:3:4:5:6:7::]").host == "[1:2:3:4:5:6:7:0]")
        #expect(try Origin(parsing: "http://[::ffff:1.2.3.4]").host == "[::ffff:102:304]")
        #expect(try Origin(parsing: "http://[ABCD::EF]").host == "[abcd::ef]")
    }

    @Test func aReasonShowsAtMostTheStartOfALongPart() {
        let long = String(repeating: "7", count: 100_000)
        for text in [long + "://a.com", "https://a.com:" + long, "https://[" + long + "]", "https://a.com:x" + long] {
            do {
                _ = try Origin(parsing: text)
                Issue.record("parsed")
            } catch {
                #expect(error.reason.count < 400, "\(error.reason.prefix(80))")
                #expect(error.text.count == 200)
            }
        }
    }

    @Test func aLongTextIsCutByScalarsNotByCharacters() {
        // One character: "a" and 100,000 combining accents. Cut by characters, all of it was kept.
        let text = "https://" + "a" + String(repeating: "\u{301}", count: 100_000)
        do {
            _ = try Origin(parsing: text)
            Issue.record("parsed")
        } catch {
            #expect(error.text.unicodeScalars.count == 200)
        }
        let sender = MessageSender(originText: text, isMainFrame: true)
        #expect(sender.claimedOrigin?.unicodeScalars.count == 200)
        #expect(sender.invalidOriginReason?.contains("non-ASCII") == true)
    }

    @Test func appSchemesHaveNoDefaultPort() throws {
        let app = try Origin(parsing: "my-app://shop.example.com")
        #expect(app.scheme == "my-app")
        #expect(app.port == nil && app.effectivePort == nil)
        #expect(try Origin(parsing: "my-app://shop.example.com:443").port == 443)
    }
}
