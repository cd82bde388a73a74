#!/usr/bin/env python3
"""Writes the input fixtures (not the expected outputs, which are produced by
the CLI and checked by hand). Run from the Fixtures directory:
    python3 make_fixtures.py
Byte-level hostile input (invalid UTF-8, BOMs, CRLF, NUL) is written here
because an editor would silently repair it."""
import json

def line(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))

def write(path, lines):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for l in lines:
            f.write((l if isinstance(l, str) else line(l)) + "\n")

REWARD = {"merchandiseId": "gid://shopify/ProductVariant/1001", "productId": "gid://shopify/Product/100",
          "quantity": 1, "attributes": {"__lion_sfp_id": "19fdf4cb"}}
REWARD2 = {"merchandiseId": "gid://shopify/ProductVariant/2002", "productId": "gid://shopify/Product/200",
           "quantity": 1, "attributes": {"__lion_sfp_id": "7be21c09"}}

def removal(line_id, reward):
    return dict({"lineId": line_id}, **reward)

# LoyaltyLion: the SDK loads, a shopper redeems two free product rewards, redeems the first again,
# cancels the second; then the web side misbehaves.
write("loyaltylion/session.ndjson", [
    {"name": "sdkReady"},
    {"name": "addCartLine", "id": "ll-1", "body": REWARD},
    {"name": "addCartLine", "id": "ll-2", "body": REWARD2},
    {"name": "addCartLine", "id": "ll-3", "body": REWARD},
    {"name": "removeCartLine", "id": "ll-4", "body": removal("gid://shopify/CartLine/2", REWARD2)},
    {"name": "removeCartLine", "id": "ll-5", "body": removal("gid://shopify/CartLine/2", REWARD2)},
    {"name": "removeCartLine", "id": "ll-6",
     "body": removal("gid://shopify/CartLine/19fdf4cb-5495-4c2f-83d0-40c6a4898f5e", REWARD)},
    {"name": "addCartLine", "id": "ll-7", "body": dict(REWARD, attributes={"__lion_sfp_id": 19})},
    {"name": "addCartLine", "id": "ll-8", "body": {k: v for k, v in REWARD.items() if k != "quantity"}},
    {"name": "removeCartLine", "id": "ll-9", "body": {"lineId": "gid://shopify/CartLine/1"}},
    {"name": "removeCartLine", "id": "ll-10", "body": removal("gid://shopify/CartLine/1", dict(REWARD, quantity=2))},
])

def offer(offer_id, quantity, price="10.50", **extra):
    o = {"offerId": offer_id, "groupId": "g-365", "name": "Cotton T-shirt", "description": "Organic cotton, regular fit",
         "url": "https://shop.example.com/p/" + offer_id, "coverUrl": "https://cdn.example.com/" + offer_id + "/cover.jpg",
         "imageUrls": ["https://cdn.example.com/" + offer_id + "/1.jpg", "https://cdn.example.com/" + offer_id + "/2.jpg"],
         "currency": "EUR", "price": price, "oldPrice": "12.00", "adult": False, "availability": 1,
         "size": "M", "color": "blue", "quantity": quantity}
    o.update(extra)
    return {k: v for k, v in o.items() if v is not None}

SOCKS = dict(groupId=None, name="Wool socks", description=None, url=None, coverUrl=None, oldPrice=None,
             adult=None, size=None, color="grey")

# InAppStory: a story asks for the cart, the shopper adds a T-shirt, sets it to 3, adds socks, opens the
# cart, removes the socks; then offers the reference cart must refuse.
write("inappstory/session.ndjson", [
    {"name": "productCartGetState", "id": "ias-1"},
    {"name": "productCartUpdate", "id": "ias-2", "body": {"offer": offer("36512", 1)}},
    {"name": "productCartUpdate", "id": "ias-3", "body": {"offer": offer("36512", 3)}},
    {"name": "productCartUpdate", "id": "ias-4", "body": {"offer": offer("36513", 2, price="4.9", **SOCKS)}},
    {"name": "productCartClicked", "id": "ias-5"},
    {"name": "productCartUpdate", "id": "ias-6", "body": {"offer": offer("36513", 0, price="4.9", **SOCKS)}},
    {"name": "productCartUpdate", "id": "ias-7", "body": {"offer": offer("40001", 1, price="19.99", currency="USD")}},
    {"name": "productCartUpdate", "id": "ias-8", "body": {"offer": offer("40002", 1, price="free")}},
    {"name": "productCartUpdate", "id": "ias-9", "body": {"offer": offer("36512", -1)}},
    {"name": "productCartUpdate", "id": "ias-10", "body": {"offer": offer("36512", "2")}},
    {"name": "productCartUpdate", "id": "ias-11", "body": {"offer": {"offerId": "36514", "quantity": 1}}},
    {"name": "productCartGetState", "id": "ias-12"},
])

# InAppStory as a .json array: a story opens, adds one product, the shopper taps the cart button.
with open("inappstory/story-open.json", "w", encoding="utf-8") as f:
    json.dump([
        {"name": "productCartGetState", "id": 1},
        {"name": "productCartUpdate", "id": 2, "body": {"offer": offer("51000", 2, price="7.25", oldPrice=None)}},
        {"name": "productCartClicked", "id": 3},
    ], f, indent=2, ensure_ascii=False)
    f.write("\n")

SHIRT = {"productId": "1234", "listingId": "1234-01", "variantId": "1234-01-M"}
DRESS = {"productId": "5678", "listingId": "5678-02"}
# Poq wishlist: the widget reads the wishlist, the shopper hearts a personalisable shirt and a dress,
# un-hearts the dress; then bodies the widget should never send.
write("wishlist/session.ndjson", [
    {"name": "wishlistGetState", "id": "wl-1"},
    {"name": "wishlistEntryUpdate", "id": "wl-2", "body": {"id": SHIRT, "isWishlisted": True, "title": "Linen shirt",
                                                          "price": "59.00", "customData": {"isPersonalisable": True}}},
    {"name": "wishlistEntryUpdate", "id": "wl-3", "body": {"id": DRESS, "isWishlisted": True, "title": "Midi dress"}},
    {"name": "wishlistEntryUpdate", "id": "wl-4", "body": {"id": DRESS, "isWishlisted": False}},
    {"name": "wishlistGetState", "id": "wl-5"},
    {"name": "wishlistEntryUpdate", "id": "wl-6", "body": {"id": SHIRT, "isWishlisted": "yes"}},
    {"name": "wishlistEntryUpdate", "id": "wl-7", "body": {"id": {"listingId": "1234-01"}, "isWishlisted": True}},
    {"name": "wishlistEntryUpdate", "id": "wl-8", "body": {"id": SHIRT, "isWishlisted": True,
                                                          "customData": {"isPersonalisable": True, "engraving": "A.B."}}},
    {"name": "wishlistGetState", "id": "wl-9"},
])

# Mixed: one page with all three SDKs, the happy path (every message handled or replied).
write("mixed/session.ndjson", [
    {"name": "sdkReady"},
    {"name": "productCartGetState", "id": "m-1"},
    {"name": "addCartLine", "id": "m-2", "body": REWARD},
    {"name": "productCartUpdate", "id": "m-3", "body": {"offer": offer("36512", 3)}},
    {"name": "wishlistEntryUpdate", "id": "m-4", "body": {"id": SHIRT, "isWishlisted": True, "title": "Linen shirt",
                                                         "customData": {"isPersonalisable": False}}},
    {"name": "productCartClicked"},
    {"name": "removeCartLine", "id": "m-5", "body": removal("gid://shopify/CartLine/1", REWARD)},
    {"name": "wishlistGetState", "id": "m-6"},
    {"name": "productCartGetState", "id": "m-7"},
])

# Hostile: well-formed JSON messages with wrong types, missing keys and odd numbers.
write("hostile/types.ndjson", [
    {"name": "addCartLine", "id": "t-1", "body": dict(REWARD, quantity=True)},
    {"name": "addCartLine", "id": "t-2", "body": dict(REWARD, quantity=2.5)},
    {"name": "addCartLine", "id": "t-3", "body": dict(REWARD, quantity="1")},
    '{"name": "addCartLine", "id": "t-4", "body": {"merchandiseId": "gid://shopify/ProductVariant/1001", "productId": "gid://shopify/Product/100", "quantity": 2.0, "attributes": {}}}',
    '{"name": "addCartLine", "id": "t-5", "body": {"merchandiseId": "gid://shopify/ProductVariant/1001", "productId": "gid://shopify/Product/100", "quantity": 99999999999999999999, "attributes": {}}}',
    '{"name": "addCartLine", "id": "t-6", "body": {"merchandiseId": "gid://shopify/ProductVariant/1001", "productId": "gid://shopify/Product/100", "quantity": 1e400, "attributes": {}}}',
    {"name": "addCartLine", "id": "t-7", "body": dict(REWARD, quantity=9223372036854775807)},
    {"name": "addCartLine", "id": "t-8", "body": dict(REWARD, quantity=9223372036854775807)},
    {"name": "addCartLine", "id": "t-9", "body": dict(REWARD, quantity=-5)},
    {"name": "addCartLine", "id": "t-10"},
    {"name": "addCartLine", "id": "t-11", "body": None},
    {"name": "addCartLine", "id": "t-12", "body": [REWARD]},
    {"name": "addCartLine", "id": "t-13", "body": dict(REWARD, attributes=[["__lion_sfp_id", "19fdf4cb"]])},
    {"name": "addCartLine", "id": "t-14", "body": dict(REWARD, merchandiseId=None)},
    {"name": "productCartUpdate", "id": "t-15", "body": {"offer": offer("36512", 1, imageUrls=["a.jpg", 7])}},
    {"name": "productCartUpdate", "id": "t-16", "body": {"offer": offer("36512", 1, adult=1)}},
    {"name": "productCartUpdate", "id": "t-17", "body": {}},
    {"name": "productCartUpdate", "id": "t-18", "body": {"offer": offer("36512", 1, price=10.5)}},
    {"name": "productCartUpdate", "id": "t-19", "body": {"offer": offer("99", 1000, price="99999999999999999999999999999999.99", oldPrice=None)}},
    {"name": "productCartGetState", "id": "t-20", "body": {"unexpected": "bodies are ignored"}},
    {"name": "sdkReady", "id": "t-21", "body": [1, 2, 3]},
    {"name": "wishlistEntryUpdate", "id": "t-22", "body": {"id": SHIRT, "isWishlisted": 1}},
    {"name": "wishlistEntryUpdate", "id": "t-23", "body": {"id": "1234", "isWishlisted": True}},
    {"name": "wishlistEntryUpdate", "id": "t-24", "body": {"id": dict(SHIRT, variantId=42), "isWishlisted": True}},
    '{"name": "addCartLine", "id": 1.50, "body": {"merchandiseId": "gid://shopify/ProductVariant/3003", "productId": "gid://shopify/Product/300", "quantity": 1, "attributes": {"__lion_sfp_id": "c0ffee01"}}}',
    '{"name": "sdkReady", "id": 12345678901234567890123}',
    '{"name": "sdkReady", "id": -0.0, "extra": "unknown keys are ignored"}',
])

# Hostile: lines that are not messages at all.
write("hostile/malformed.ndjson", [
    "",
    "   ",
    '[{"name": "sdkReady"}]',
    '"sdkReady"',
    "42",
    "null",
    '{"body": {}}',
    '{"name": 7}',
    '{"name": null}',
    '{"name": ""}',
    '{"name": "sdk\\u0007Ready"}',
    line({"name": "x" * 300}),
    '{"name": "sdkReady", "id": true}',
    '{"name": "sdkReady", "id": {"n": 1}}',
    '{"name": "sdkReady", "id": null}',
    '{"name": "sdkReady",}',
    '{"name": "sdkReady", "name": "addCartLine"}',
    '{"name": "sdkReady"} {"name": "sdkReady"}',
    "{'name': 'sdkReady'}",
    '{"name": "sdkReady" // comment',
    '{"name": "productCartUpdate", "body": {"offer": {"price": NaN}}}',
    '{"name": "sdkReady", "body": "\\ud800"}',
    '{"name": "sdkReady", "body": 01}',
    '{"name": "sdkReady"',
    "\t",
    '{"name": "trackEvent", "id": "unknown-channel", "body": {"event": "page_view"}}',
    '{"name": "sdkReady", "id": "still-works"}',
])

# Hostile: byte-level problems, written as raw bytes.
with open("hostile/bytes.ndjson", "wb") as f:
    f.write(b'\xef\xbb\xbf{"name": "sdkReady", "id": "after-bom"}\n')            # 1: leading BOM stripped
    f.write(b'{"name": "sdkReady", "id": "bad-\xff-byte"}\n')                    # 2: invalid UTF-8
    f.write(b'{"name": "sdkReady", "body": "\xc0\xaf"}\n')                       # 3: overlong encoding
    f.write(b'{"name": "sdkReady", "body": "\xed\xa0\x80"}\n')                   # 4: encoded surrogate
    f.write(b'{"name": "sdkReady", "body": "caf\xc3"}\n')                        # 5: truncated sequence
    f.write(b'\xef\xbb\xbf{"name": "sdkReady", "id": "bom-mid-stream"}\n')      # 6: BOM not at the start
    f.write(b'{"name": "sdkReady", "id": "crlf"}\r\n')                            # 7: CRLF line ending
    f.write(b'{"name": "sdkReady", "body": "tab\there"}\n')                       # 8: raw control character
    f.write(b'{"name": "sdkReady", "body": "nul\x00"}\n')                         # 9: raw NUL
    f.write(b'\r\n')                                                               # 10: blank CRLF line
    f.write('{"name": "wishlistEntryUpdate", "id": "unicode", "body": {"id": {"productId": "caf\u00e9-\u2603-\U0001F600"}, "isWishlisted": true, "title": "Caf\u00e9 \u2028 line separator"}}\n'.encode("utf-8"))  # 11
    f.write(b'{"name": "wishlistGetState", "id": "no-final-newline"}')           # 12: last line, no newline

# Hostile: lines over a 256-byte limit (run with --max-line-bytes 256, see oversized.args).
write("hostile/oversized.ndjson", [
    {"name": "sdkReady", "id": "short"},
    {"name": "addCartLine", "id": "long", "body": dict(REWARD, attributes={"__lion_sfp_id": "x" * 300})},
    {"name": "sdkReady", "id": "after-long"},
    "x" * 5000,
    {"name": "sdkReady", "id": "exactly-at-limit", "body": "y" * (256 - len(line({"name": "sdkReady", "id": "exactly-at-limit", "body": ""})))},
    {"name": "sdkReady", "id": "one-over-limit", "body": "y" * (257 - len(line({"name": "sdkReady", "id": "one-over-limit", "body": ""})))},
])
with open("hostile/oversized.args", "w") as f:
    f.write("--max-line-bytes\n256\n")

# Hostile .json documents.
with open("hostile/not-messages.json", "w") as f:
    f.write('[\n  {"name": "sdkReady", "id": "first"},\n  42,\n  {"body": {}},\n  [],\n  {"name": "productCartGetState", "id": 5}\n]\n')
with open("hostile/broken.json", "w") as f:
    f.write('[\n  {"name": "sdkReady"},\n  {"name": "productCartGetState"},\n]\n')
with open("hostile/scalar.json", "w") as f:
    f.write('"sdkReady"\n')

# Hostile: the rest of issue 7's list, each case at the boundary where one exists, ending with a
# message that must still be handled. Depth counts the message object itself (level 1): the
# default limit is 512 levels (JSONReader / DecodingOptions.maxDepth).
def nested(depth, open_, close, inner="0"):
    return open_ * depth + inner + close * depth

DEEPEST = 512
write("hostile/limits.ndjson", [
    '{"name": "sdkReady", "id": "depth-512", "body": ' + nested(DEEPEST - 1, "[", "]") + '}',
    '{"name": "sdkReady", "id": "depth-513", "body": ' + nested(DEEPEST, "[", "]") + '}',
    '{"name": "sdkReady", "id": "objects-513", "body": ' + nested(DEEPEST, '{"a": ', "}") + '}',
    {"name": "c" * 256, "id": "name-256-bytes"},
    {"name": "\u20ac" * 85 + "c", "id": "name-256-bytes-multibyte"},
    {"name": "c" * 257, "id": "name-257-bytes"},
    {"name": "sdk\u0000Ready", "id": "name-nul"},
    {"name": "sdk\nReady", "id": "name-newline"},
    {"name": "sdkReady\u007f", "id": "name-del"},
    {"name": "sdk\u0085Ready", "id": "name-c1-control"},
    {"name": " ", "id": "name-space"},
    '{"name": "sdkReady", "id": "lone-low", "body": "\\udc00"}',
    '{"name": "sdkReady", "id": "high-then-letter", "body": "\\ud800\\u0041"}',
    '{"name": "sdkReady", "id": "high-at-end", "body": "x\\ud83d"}',
    '{"name": "sdkReady", "id": "pair", "body": "\\ud83d\\ude00"}',
    '{"name": "sdkReady", "id": "infinity", "body": Infinity}',
    '{"name": "sdkReady", "id": "minus-infinity", "body": -Infinity}',
    '{"name": "sdkReady", "id": "nan", "body": NaN}',
    '{"name": "sdkReady", "id": "huge-number", "body": 1e400}',
    '{"name": "addCartLine", "id": "uint64-max", "body": {"merchandiseId": "m", "productId": "p", "quantity": 18446744073709551615, "attributes": {}}}',
    '{"name": "addCartLine", "id": "uint64-max-plus-1", "body": {"merchandiseId": "m", "productId": "p", "quantity": 18446744073709551616, "attributes": {}}}',
    '{"name": "addCartLine", "id": "int64-min-minus-1", "body": {"merchandiseId": "m", "productId": "p", "quantity": -9223372036854775809, "attributes": {}}}',
    '{"name": "addCartLine", "id": "beyond-double", "body": {"merchandiseId": "m", "productId": "p", "quantity": -1e309, "attributes": {}}}',
    '{"name": "addCartLine", "id": "exponent-integer", "body": {"merchandiseId": "m", "productId": "p", "quantity": 1e2, "attributes": {}}}',
    '{"name": "sdkReady", "id": "duplicate-id", "id": "again"}',
    '{"name": "sdkReady", "id": "duplicate-nested", "body": {"a": 1, "b": {"c": 1, "c": 2}}}',
    '{"name": "sdkReady", "n\\u0061me": "escaped-duplicate"}',
    "true",
    "[]",
    "{}",
    '{"name": "addCartLine", "id": "body-string", "body": "merchandiseId"}',
    '{"name": "addCartLine", "id": "body-number", "body": 7}',
    '{"name": "addCartLine", "id": "body-bool", "body": false}',
    '{"name": "productCartUpdate", "id": "body-array", "body": [{"offer": {}}]}',
    '{"name": "wishlistEntryUpdate", "id": "id-wrong-container", "body": {"id": ["1234"], "isWishlisted": true}}',
    '{"name": "sdkReady", "id": "bom-between-tokens",\ufeff "body": {}}',
    '{"name": "sdkReady", "id": "bom-in-string", "body": "\ufeff"}',
    {"name": "sdkReady", "id": "still-works"},
])

# Hostile inputs too large to keep in the repository (a 10 MB line, nesting 100,000 deep) are kept
# as specs: each spec line is a JSON array of [text, count] pairs, and the input line it stands for
# is each text repeated count times. The tests expand the spec the same way at test time
# (GeneratedInput in Tests/SwitchboardCLITests, expandFixtureSpec in Tests/SwitchboardTestingTests);
# the expanded X.ndjson written here is for running the CLI by hand and is not committed (.gitignore).
DEEP = 100_000
TEN_MB = 10_000_000

def write_spec(stem, lines):
    with open(stem + ".spec", "w", encoding="utf-8", newline="\n") as f:
        for parts in lines:
            f.write(json.dumps(parts, ensure_ascii=True, separators=(",", ":")) + "\n")
    with open(stem + ".spec", encoding="utf-8") as spec, open(stem + ".ndjson", "wb") as out:
        for spec_line in spec:
            out.write("".join(text * count for text, count in json.loads(spec_line)).encode("utf-8") + b"\n")

# At the default line limit (1 MiB).
write_spec("hostile/huge", [
    [['{"name":"sdkReady","id":"arrays-100000-deep","body":', 1], ["[", DEEP], ["]", DEEP], ["}", 1]],
    [['{"name":"sdkReady","id":"objects-100000-deep","body":', 1], ['{"a":', DEEP], ["0", 1], ["}", DEEP], ["}", 1]],
    [['{"name":"sdkReady","id":"unclosed-100000-deep","body":', 1], ["[", DEEP]],
    [['{"name":"sdkReady","id":"after-deep"}', 1]],
    [['{"name":"addCartLine","id":"ten-mb","body":{"merchandiseId":"m","productId":"p","quantity":1,"attributes":{"note":"', 1],
     ["x", TEN_MB], ['"}}}', 1]],
    [['{"name":"sdkReady","id":"after-ten-mb"}', 1]],
])
# With --max-line-bytes 16777216 (huge-allowed.args): a 10 MB line is read, decoded and handled.
write_spec("hostile/huge-allowed", [
    [['{"name":"addCartLine","id":"ten-mb","body":{"merchandiseId":"m","productId":"p","quantity":1,"attributes":{"note":"', 1],
     ["x", TEN_MB], ['"}}}', 1]],
    [[" ", TEN_MB], ['{"name":"sdkReady","id":"after-ten-mb-of-spaces"}', 1]],
    [['{"name":"sdkReady","id":"arrays-100000-deep","body":', 1], ["[", DEEP], ["]", DEEP], ["}", 1]],
    [['{"name":"sdkReady","id":"still-works"}', 1]],
])
with open("hostile/huge-allowed.args", "w") as f:
    f.write("--max-line-bytes\n16777216\n")

# Origins (issue 17): each SDK's messages with the sender WebKit reports ("origin", "mainFrame"),
# replayed with a policy (X.args). Hostile senders: look-alike hosts, userinfo tricks, other ports and
# schemes, trailing dots, "null", percent-escapes, spaces, non-ASCII, sub-frames, unknown frames and
# origins, and wrong types for the fields (malformed).
SHOP = "https://shop.example.com"

def sent(message, origin=None, main=None):
    m = dict(message)
    if origin is not None:
        m["origin"] = origin
    if main is not None:
        m["mainFrame"] = main
    return m

def args(path, arguments):
    with open(path, "w") as f:
        f.write("".join(a + "\n" for a in arguments))

# LoyaltyLion runs in the shop's own page (main frame only); its SDK script comes from a CDN, but
# WebKit reports the origin of the frame, not of the script: the shop's.
LL = {"name": "addCartLine", "body": REWARD}
write("loyaltylion/origins.ndjson", [
    sent({"name": "sdkReady", "id": "ll-o-1"}, SHOP, True),
    sent(dict(LL, id="ll-o-2"), SHOP, True),
    sent(dict(LL, id="ll-o-3"), "HTTPS://Shop.Example.com:443", True),             # same origin, normalised
    sent(dict(LL, id="ll-o-4"), "https://shop.example.com.evil.net", True),      # look-alike: suffix
    sent(dict(LL, id="ll-o-5"), "https://evilshop.example.com", True),           # look-alike: another host
    sent(dict(LL, id="ll-o-6"), "https://shop.example.com@evil.net", True),      # userinfo trick
    sent(dict(LL, id="ll-o-7"), "https://shop.example.com.", True),              # trailing dot
    sent(dict(LL, id="ll-o-8"), "http://shop.example.com", True),                # another scheme
    sent(dict(LL, id="ll-o-9"), "https://shop.example.com:8443", True),          # another port
    sent(dict(LL, id="ll-o-10"), "null", True),                                  # opaque origin
    sent(dict(LL, id="ll-o-11"), "https://shop%2Eexample.com", True),            # percent-escape
    sent(dict(LL, id="ll-o-12"), "https://shop.example.com/", True),             # a path, even /
    sent(dict(LL, id="ll-o-13"), SHOP, False),                                   # a sub-frame (an ad)
    sent(dict(LL, id="ll-o-14"), SHOP),                                          # unknown frame
    sent(dict(LL, id="ll-o-15"), None, True),                                    # unknown origin
    dict(LL, id="ll-o-16"),                                                      # no sender at all
    sent(dict(LL, id="ll-o-17"), 443, True),                                     # malformed: origin a number
    sent(dict(LL, id="ll-o-18"), SHOP, "true"),                                  # malformed: mainFrame a string
    sent({"name": "removeCartLine", "id": "ll-o-19", "body": removal("gid://shopify/CartLine/1", REWARD)}, SHOP, True),
])
args("loyaltylion/origins.args", ["--allow-origin", SHOP])

# InAppStory's stories run in an iframe served from the vendor's subdomains: sub-frames allowed.
STORY = "https://stories.inappstory.example"
write("inappstory/origins.ndjson", [
    sent({"name": "productCartGetState", "id": "ias-o-1"}, STORY, False),
    sent({"name": "productCartUpdate", "id": "ias-o-2", "body": {"offer": offer("36512", 1)}}, STORY, False),
    sent({"name": "productCartUpdate", "id": "ias-o-3", "body": {"offer": offer("36512", 2)}}, SHOP, True),
    sent({"name": "productCartUpdate", "id": "ias-o-4", "body": {"offer": offer("36512", 9)}}, "https://inappstory.example", False),       # the domain itself
    sent({"name": "productCartUpdate", "id": "ias-o-5", "body": {"offer": offer("36512", 9)}}, "https://evilinappstory.example", False),   # look-alike
    sent({"name": "productCartUpdate", "id": "ias-o-6", "body": {"offer": offer("36512", 9)}}, "https://stories.inappstory.example.evil.io", False),
    sent({"name": "productCartUpdate", "id": "ias-o-7", "body": {"offer": offer("36512", 9)}}, "wss://stories.inappstory.example", False),  # another scheme
    sent({"name": "productCartUpdate", "id": "ias-o-8", "body": {"offer": offer("36512", 9)}}, "https://stories.inappstory.example:444", False),  # another port
    sent({"name": "productCartUpdate", "id": "ias-o-9", "body": {"offer": offer("36512", 9)}}, STORY),                                      # unknown frame
    sent({"name": "productCartUpdate", "id": "ias-o-10", "body": {"offer": offer("36512", 9)}}, "https://user:pw@stories.inappstory.example", False),
    sent({"name": "productCartUpdate", "id": "ias-o-11", "body": {"offer": offer("36512", 9)}}, " " + STORY, False),                        # leading space
    sent({"name": "productCartClicked", "id": "ias-o-12"}, "https://a.b.stories.inappstory.example", False),                                # deeper subdomain
    sent({"name": "productCartUpdate", "id": "ias-o-13", "body": {"offer": offer("36512", "9")}}, "https://evil.example", False),          # rejected before decoding
    sent({"name": "productCartGetState", "id": "ias-o-14"}, ["https://stories.inappstory.example"], False),                                 # malformed: origin an array
    sent({"name": "productCartGetState", "id": "ias-o-15"}, STORY, 0),                                                                      # malformed: mainFrame a number
    sent({"name": "productCartGetState", "id": "ias-o-16"}, STORY, False),
])
args("inappstory/origins.args", ["--allow-origin", SHOP, "--allow-origin", "https://*.inappstory.example", "--allow-subframes"])

# The wishlist widget is part of the shop's page: main frame of the shop only.
WL = {"name": "wishlistEntryUpdate", "body": {"id": SHIRT, "isWishlisted": True, "title": "Linen shirt"}}
write("wishlist/origins.ndjson", [
    sent({"name": "wishlistGetState", "id": "wl-o-1"}, SHOP, True),
    sent(dict(WL, id="wl-o-2"), SHOP, True),
    sent(dict(WL, id="wl-o-3"), SHOP, False),                                    # same origin, in a sub-frame
    sent(dict(WL, id="wl-o-4"), "https://shöp.example.com", True),               # non-ASCII (not punycode)
    sent(dict(WL, id="wl-o-5"), "https://xn--shp-sna.example.com", True),        # its punycode: another host
    sent(dict(WL, id="wl-o-6"), "https://shop.example.com?x=1", True),           # a query
    sent(dict(WL, id="wl-o-7"), "https://shop..example.com", True),              # an empty label
    sent(dict(WL, id="wl-o-8"), "https://shop.example.com:0", True),             # port 0
    sent(dict(WL, id="wl-o-9"), "shop.example.com", True),                       # no scheme
    sent(dict(WL, id="wl-o-10"), "file://shop.example.com", True),               # opaque scheme
    sent(dict(WL, id="wl-o-11"), {"origin": SHOP}, True),                        # malformed: origin an object
    sent(dict(WL, id="wl-o-12"), SHOP, None) | {"mainFrame": None},              # malformed: mainFrame null
    sent({"name": "wishlistGetState", "id": "wl-o-13"}),                         # unknown sender
    sent({"name": "wishlistGetState", "id": "wl-o-14"}, "https://SHOP.example.com:443", True),
])
args("wishlist/origins.args", ["--allow-origin", SHOP])
