import Foundation
import SwitchboardTestSupport
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

@Suite struct ContractDerivationTests {
    let contract = Contract(types: [
        Shop.PlaceOrder.self, Shop.PaymentMade.self, Shop.Tip.self, Shop.CategoryTree.self, Shop.Ping.self,
        Shop.TakeSnapshot.self, Shop.Reading.self,
    ])

    func body(_ channel: Channel) -> [String: JSONValue] {
        contract.channels[channel]?.body?.json.objectValue ?? [:]
    }

    func property(_ channel: Channel, _ key: String) -> JSONValue? {
        body(channel)["properties"]?[key]
    }

    @Test func requiredAndOptionalKeysFollowDecodeAndDecodeIfPresent() {
        let order = body("placeOrder")
        #expect(order["type"] == "object")
        #expect(order["title"] == "PlaceOrder")
        #expect(
            order["required"]
                == ["items", "address", "size", "tags", "metadata", "total", "weight", "count"])
        #expect(
            property("placeOrder", "notes") == [
                "type": ["object", "null"], "additionalProperties": ["type": "string"],
            ]
                || property("placeOrder", "notes") == [
                    "anyOf": [["type": "object", "additionalProperties": ["type": "string"]], ["type": "null"]]
                ])
        let address = property("placeOrder", "address")
        #expect(address?["title"] == "Address")
        #expect(address?["required"] == ["street"])
        #expect(address?["properties"]?["zip"] == ["type": ["string", "null"]])
        #expect(address?["properties"]?["floor"]?["anyOf"]?[0] == ["type": "integer", "minimum": -128, "maximum": 127])
    }

    @Test func numbersKeepTheirKindAndBounds() {
        #expect(property("placeOrder", "count") == ["type": "integer", "minimum": 0, "maximum": 255])
        // Decimal holds 38 digits times 10^-128 ... 10^127: the schema stops at ±1e160 (1e200 does not decode).
        #expect(
            property("placeOrder", "total")
                == [
                    "type": "number", "minimum": .number(JSONNumber("-1e160")!),
                    "maximum": .number(JSONNumber("1e160")!),
                ])
        #expect(property("placeOrder", "weight")?["type"] == "number")
        #expect(property("placeOrder", "weight")?["maximum"] == .number(JSONNumber("1.7976931348623157e308")!))
        #expect(
            property("reading", "wide")
                == ["type": "integer", "minimum": 0, "maximum": .number(JSONNumber(UInt64.max))])
        #expect(property("reading", "ratio")?["maximum"] == .number(JSONNumber("3.4028234663852886e38")!))
    }

    @Test func collectionsCarryTheirElementsAndEnumsTheirRawValues() {
        let items = property("placeOrder", "items")
        #expect(items?["type"] == "array")
        #expect(items?["items"]?["title"] == "OrderItem")
        #expect(
            items?["items"]?["properties"]?["options"]
                == [
                    "type": "object",
                    "additionalProperties": [
                        "type": "array",
                        "items": [
                            "type": "integer", "minimum": .number(JSONNumber(Int64.min)),
                            "maximum": .number(JSONNumber(Int64.max)),
                        ],
                    ],
                ])
        #expect(property("placeOrder", "tags") == ["type": "array", "items": ["type": "string"]])
        #expect(property("placeOrder", "metadata") == ["type": "object"])
        #expect(
            property("placeOrder", "size") == [
                "type": "string", "enum": ["small", "medium", "large"], "title": "Size",
            ])
        #expect(
            property("placeOrder", "priority")
                == ["anyOf": [["type": "integer", "enum": [1, 2], "title": "Priority"], ["type": "null"]]])
        #expect(property("reading", "flags") == ["type": "array", "items": ["type": ["boolean", "null"]]])
    }

    @Test func stringsTheDecoderChecksCarryAPattern() {
        #expect(property("reading", "at")?["format"] == "date-time")
        #expect(property("reading", "blob")?["pattern"] != nil)
        #expect(property("reading", "id")?["format"] == "uuid")
    }

    @Test func aTypeThatDecodesByValueIsMarkedNotGuessed() throws {
        // Payment decodes by the value of "kind": no run of the probe gets past it, so neither
        // Payment nor the event holding it (whose later keys the probe never saw) is guessed.
        let schema = try #require(contract.channels["paymentMade"]?.body)
        let reason = try #require(schema.json["x-switchboard-underivable"]?.stringValue)
        #expect(reason.contains("Payment"))
        #expect(reason.contains("contractExample"))
        #expect(contract.channels["paymentMade"]?.isExact == false)
        #expect(contract.channels["placeOrder"]?.isExact == true)
        #expect(!contract.isExact)
        let derived = DerivedSchemas.derived(Shop.Payment.self).schema
        #expect(
            derived["x-switchboard-underivable"]?.stringValue?.contains("decodes by the values") == true
                || derived["x-switchboard-underivable"]?.stringValue?.contains("refuses") == true)
    }

    @Test func aTypeSuppliesOrRefinesItsOwnSchema() {
        #expect(property("tip", "amount") == ["type": "string", "pattern": "^[0-9]+\\.[0-9]{2}$"])
        let share = property("tip", "share")?["anyOf"]?[0]
        #expect(share?["minimum"] == 0)
        #expect(share?["maximum"] == 100)
        #expect(contract.channels["tip"]?.isExact == true)
    }

    @Test func aTypeThatRefersToItselfIsDefinedOnceAndReferred() throws {
        let name = try #require(contract.definitions.keys.first { $0.hasSuffix("Category") })
        #expect(property("categoryTree", "root") == ["$ref": .string("#/$defs/" + name)])
        let category = try #require(contract.definitions[name]?.json)
        #expect(
            category["properties"]?["children"] == ["type": "array", "items": ["$ref": .string("#/$defs/" + name)]])
        #expect(contract.document["$defs"]?[name] == category)
    }

    @Test func requestsHaveRepliesAndBodylessEventsNoBody() {
        #expect(contract.channels["ping"] == Contract.Entry(kind: .event, body: nil, reply: nil))
        #expect(contract.document["channels"]?["ping"] == ["kind": "event"])
        let order = contract.channels["placeOrder"]
        #expect(order?.kind == .request)
        #expect(order?.reply?.json["required"] == ["orderId", "accepted"])
        let snapshot = contract.channels["takeSnapshot"]
        #expect(snapshot?.body == nil)
        #expect(snapshot?.reply?.isExact == false)
        #expect(contract.document["channels"]?["paymentMade"]?["reply"] == nil)
    }

    @Test func theDocumentIsCanonicalAndItsDigestIsSHA256OfIt() throws {
        #expect(contract.document["$schema"] == "https://json-schema.org/draft/2020-12/schema")
        let json = contract.json
        #expect(json.hasPrefix(#"{"$defs":"#))
        #expect(!json.contains(" : ") && !json.contains("\n"))
        #expect(contract.digest == "sha256:" + SHA256.hex(of: Array(json.utf8)))
        let again = Contract(types: [
            Shop.Reading.self, Shop.TakeSnapshot.self, Shop.Ping.self, Shop.CategoryTree.self, Shop.Tip.self,
            Shop.PaymentMade.self, Shop.PlaceOrder.self,
        ])
        #expect(again.digest == contract.digest)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect((parsed?["channels"] as? [String: Any])?.count == 7)
    }

    @Test func theDigestChangesWithAnyChannelsShapeKindOrSet() {
        let digests = [
            Contract(types: [Shop.Tip.self]).digest,
            Contract(types: [Shop.Tip.self, Shop.Ping.self]).digest,
            Contract(types: [Shop.Ping.self]).digest,
            Contract(channels: ["ping": Contract.Entry(kind: .request, body: nil, reply: .null)]).digest,
            Contract(channels: ["tip": Contract.Entry(kind: .event, body: .string, reply: nil)]).digest,
            Contract(types: []).digest,
        ]
        #expect(Set(digests).count == digests.count)
        #expect(contract.restricted(to: ["tip"]).digest == Contract(types: [Shop.Tip.self]).digest)
        #expect(contract.restricted(to: ["tip"]).definitions.isEmpty)
        #expect(contract.restricted(to: ["categoryTree"]).definitions == contract.definitions)
        #expect(contract.restricted(to: ["categoryTree"]).digest == Contract(types: [Shop.CategoryTree.self]).digest)
    }

    @Test func aRoutersContractIsItsRegisteredChannelsAndTheManifestCarriesItsDigest() throws {
        let router = Router()
        var tokens: [Registration] = []
        tokens.append(router.on(Shop.Tip.self) { _ in })
        tokens.append(router.on(Shop.Ping.self) { _ in })
        tokens.append(try router.respond(to: Shop.PlaceOrder.self) { _, reply in reply.fail(CancellationError()) })
        let fromRouter = Contract(router: router)
        #expect(fromRouter == Contract(types: [Shop.Tip.self, Shop.Ping.self, Shop.PlaceOrder.self]))
        #expect(fromRouter == Contract(Shop.PlaceOrder.self, Shop.Tip.self, Shop.Ping.self))
        #expect(router.contract == fromRouter)
        #expect(router.manifest.contract == fromRouter.digest)
        tokens.removeLast()
        #expect(router.manifest.contract == Contract(types: [Shop.Tip.self, Shop.Ping.self]).digest)
        #expect(ManifestScript.source(for: router.manifest).contains(#""contract":"sha256:"#))
        withExtendedLifetime(tokens) {}
    }

    @Test func handlersOfSeveralTypesOnOneChannelMustAllAcceptTheBody() {
        struct TipAmountOnly: Event {
            static let channel: Channel = "tip"
            let amount: String
            let currency: String
        }
        let both = Contract(types: [Shop.Tip.self, TipAmountOnly.self])
        let parts = both.channels["tip"]?.body?.json["allOf"]?.arrayValue
        #expect(parts?.count == 2)
    }

    @Test func typeScriptDeclaresATypePerBodyAndReplyAndTheChannels() {
        let script = contract.typeScript
        #expect(script.contains("export const contract = \"\(contract.digest)\";"))
        #expect(script.contains("export interface PlaceOrder {"))
        #expect(script.contains("  notes?: { [key: string]: string } | null;"))
        #expect(script.contains("  priority?: Priority | null;"))
        #expect(script.contains("export type Priority = 1 | 2;"))
        #expect(script.contains(#"export type Size = "small" | "medium" | "large";"#))
        #expect(script.contains("  placeOrder: { body: PlaceOrderBody; reply: PlaceOrderReply };"))
        #expect(script.contains("  ping: { body: void; reply: void };"))
        #expect(script.contains("  takeSnapshot: { body: void; reply: TakeSnapshotReply };"))
        #expect(script.contains("export interface Channels {"))
        #expect(script.contains("children: Category[];"))
        #expect(script.contains("export type PaymentMadeBody = unknown /* PaymentMade: no value of Payment"))
    }
}

@Suite struct ContractProbeSafetyTests {
    /// Throws on anything.
    struct Refuses: Event {
        static let channel: Channel = "refuses"
        init(from decoder: any Decoder) throws { throw CancellationError() }
    }

    /// Reads keys forever.
    struct Endless: Event {
        static let channel: Channel = "endless"
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            var index = 0
            while true {
                _ = try container.decode(Int.self, forKey: AnyKey("k\(index)"))
                index += 1
            }
        }
    }

    /// Decodes itself from its own decoder, again and again.
    struct Itself: Event {
        static let channel: Channel = "itself"
        let next: [Itself]
        init(from decoder: any Decoder) throws {
            _ = try decoder.container(keyedBy: CodingKeys.self)
            next = [try Itself(from: decoder)]
        }
        private enum CodingKeys: CodingKey { case next }
    }

    /// Reads its keys (as a dictionary-like type does).
    struct KeyReader: Event {
        static let channel: Channel = "keyReader"
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            for key in container.allKeys { _ = try container.decode(String.self, forKey: key) }
        }
    }

    /// Keeps the decoder and uses it after `init(from:)` returned.
    struct Keeper: Event, @unchecked Sendable {
        static let channel: Channel = "keeper"
        let kept: any Decoder
        init(from decoder: any Decoder) throws { kept = decoder }
    }

    /// A raw-value enum that does not list its cases.
    enum Mode: String, Decodable, Sendable { case fast, slow }

    struct Configure: Event {
        static let channel: Channel = "configure"
        let mode: Mode
    }

    @Test func aRawValueEnumThatIsNotCaseIterableIsMarkedWithAHint() {
        let reason = Contract(Configure.self).channels["configure"]?.body?.json["x-switchboard-underivable"]
        #expect(reason?.stringValue?.contains("CaseIterable") == true)
    }

    @Test func noUserTypeCrashesTheDerivationAndEachIsMarked() throws {
        let contract = Contract(types: [Refuses.self, Endless.self, Itself.self, KeyReader.self, Keeper.self])
        for name in ["refuses", "endless", "itself", "keyReader"] {
            let body = contract.channels[Channel(stringLiteral: name)]?.body
            #expect(body?.isExact == false, "\(name)")
        }
        #expect(contract.channels["keeper"]?.body == .any)
        let keeper = try BodyDecoder().decode(Keeper.self, from: ["a": 1])
        #expect(
            (try? keeper.kept.container(keyedBy: AnyKey.self).decode(Int.self, forKey: .init(stringValue: "a")))
                == 1)
    }

    @Test func derivingOnManyThreadsAtOnceGivesOneAnswer() async {
        let digests = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask { Contract(types: [Shop.PlaceOrder.self, Shop.CategoryTree.self, Shop.Tip.self]).digest }
            }
            var all: Set<String> = []
            for await digest in group { all.insert(digest) }
            return all
        }
        #expect(digests.count == 1)
    }
}

@Suite struct SHA256Tests {
    func hex(_ text: String) -> String { SHA256.hex(of: Array(text.utf8)) }

    @Test func matchesTheFIPSTestVectors() async {
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            hex(
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
            )
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        // A million bytes: hashed off the cooperative pool, so other suites' tasks keep running.
        let million = await Stress.offThePool {
            SHA256.hex(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        }
        #expect(million == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func paddingBoundariesAgreeWithAKnownDigest() {
        // 55, 56 and 64 bytes: one block, two blocks, and a full block then padding.
        #expect(
            hex(String(repeating: "a", count: 55)) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"
        )
        #expect(
            hex(String(repeating: "a", count: 56)) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"
        )
        #expect(
            hex(String(repeating: "a", count: 64)) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"
        )
    }
}

@Suite struct ContractManifestObserverTests {
    struct TipByName: Event {
        static let channel: Channel = "tip"
        let name: String
    }

    @Test func observersAreToldWhenAChannelsTypesChangeAndNotWhenTheyStayTheSame() throws {
        let router = Router()
        let told = Locked<[Manifest]>([])
        let observer = router.observeManifest { manifest in told.withLock { $0.append(manifest) } }
        let first = router.on(Shop.Tip.self) { _ in }
        let same = router.on(Shop.Tip.self) { _ in }
        #expect(told.withLock { $0.count } == 1)
        let other = router.replaceHandlers(of: TipByName.self) { _, _ in }
        let manifests = told.withLock { $0 }
        #expect(manifests.count == 2)
        #expect(manifests.last?.channels == ["tip"])
        #expect(manifests.last?.contract == Contract(types: [TipByName.self]).digest)
        #expect(manifests.first?.contract == Contract(types: [Shop.Tip.self]).digest)
        withExtendedLifetime((observer, first, same, other)) {}
    }
}

@Suite struct ContractSenderManifestTests {
    @Test func aSendersManifestCarriesTheContractOfTheChannelsItMayCall() throws {
        let router = Router()
        let tip = router.on(Shop.Tip.self) { _ in }
        let ping = router.on(Shop.Ping.self) { _ in }
        router.setOriginPolicy(try OriginPolicy(allowing: ["https://shop.example.com"]), for: Shop.Tip.channel)
        let shop = MessageSender(originText: "https://shop.example.com", isMainFrame: true)
        let ads = MessageSender(originText: "https://ads.example.net", isMainFrame: true)
        #expect(router.manifest(for: shop).contract == Contract(Shop.Tip.self, Shop.Ping.self).digest)
        #expect(router.manifest(for: ads).channels == ["ping"])
        #expect(router.manifest(for: ads).contract == Contract(Shop.Ping.self).digest)
        #expect(router.manifest.contract == Contract(Shop.Tip.self, Shop.Ping.self).digest)
        withExtendedLifetime((tip, ping)) {}
    }
}
