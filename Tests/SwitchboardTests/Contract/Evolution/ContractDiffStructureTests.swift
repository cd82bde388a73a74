import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// `$ref`s and `$defs`, recursive types, renamed and reordered keys, `anyOf`, and contracts
/// derived from Swift types.
@Suite struct ContractDiffStructureTests {
    typealias F = DiffFixtures

    static func tree(_ name: String, value: JSONValue) -> [String: JSONValue] {
        [
            name: F.object(
                ["value": value, "children": ["type": "array", "items": ["$ref": .string("#/$defs/" + name)]]],
                required: ["value"])
        ]
    }

    @Test func aRecursiveTypeIsComparedOnceAndItsChangeFound() throws {
        let old = Self.tree("App.Node", value: ["type": "integer"])
        let new = Self.tree("App.Tree", value: ["type": "integer", "maximum": 10])
        let diff = F.bodies(["$ref": "#/$defs/App.Node"], ["$ref": "#/$defs/App.Tree"], definitions: (old, new))
        #expect(diff.summaries == ["breaking /value"])
        let example = try #require(diff.changes[0].example)
        #expect(SchemaValidator(definitions: old).problem(example, ["$ref": "#/$defs/App.Node"]) == nil)
        #expect(SchemaValidator(definitions: new).problem(example, ["$ref": "#/$defs/App.Tree"]) != nil)
    }

    @Test func aChangeDeepInARecursiveTypeIsReportedWhereItIsReached() {
        // Node → children: [Node], Node.leaf: Leaf (also a definition), and Leaf changes.
        func definitions(_ leaf: JSONValue) -> [String: JSONValue] {
            [
                "Node": F.object(
                    [
                        "leaf": ["$ref": "#/$defs/Leaf"],
                        "children": ["type": "array", "items": ["$ref": "#/$defs/Node"]],
                    ]),
                "Leaf": leaf,
            ]
        }
        let old = definitions(F.object(["id": ["type": "string"]]))
        let new = definitions(F.object(["id": ["type": "string"]], required: ["id"]))
        let diff = F.bodies(["$ref": "#/$defs/Node"], ["$ref": "#/$defs/Node"], definitions: (old, new))
        #expect(diff.summaries == ["breaking /leaf/id"])
        #expect(diff.changes[0].example != nil)
    }

    @Test func mutuallyRecursiveDefinitionsEnd() {
        let old: [String: JSONValue] = [
            "A": F.object(["b": ["anyOf": [["$ref": "#/$defs/B"], ["type": "null"]]]]),
            "B": F.object(["a": ["anyOf": [["$ref": "#/$defs/A"], ["type": "null"]]], "n": ["type": "integer"]]),
        ]
        var new = old
        new["B"] = F.object(["a": ["anyOf": [["$ref": "#/$defs/A"], ["type": "null"]]], "n": ["type": "string"]])
        let diff = F.bodies(["$ref": "#/$defs/A"], ["$ref": "#/$defs/A"], definitions: (old, new))
        #expect(diff.summaries == ["breaking /b/n"])
    }

    @Test func aRenamedDefinitionReorderedKeysAndNewTitlesAreNoChange() throws {
        let old = Self.tree("App.Node", value: ["type": "integer"])
        var renamed = Self.tree("Shop.Category", value: ["type": "integer"])
        renamed["Shop.Category"] = try #require(renamed["Shop.Category"]).adding(["title": "Category"])
        #expect(
            F.bodies(["$ref": "#/$defs/App.Node"], ["$ref": "#/$defs/Shop.Category"], definitions: (old, renamed))
                .changes.isEmpty)
        let first = F.object(["a": ["type": "string"], "b": ["type": "integer"]], required: ["a", "b"])
        let second = F.object(["b": ["type": "integer"], "a": ["type": "string"]], required: ["b", "a"])
        #expect(F.bodies(first, second).changes.isEmpty)
        // An inline type moved under `$defs` is the same type.
        let inline = F.object(["child": F.object(["n": ["type": "integer"]])])
        let referred = F.object(["child": ["$ref": "#/$defs/Child"]])
        #expect(
            F.bodies(inline, referred, definitions: ([:], ["Child": F.object(["n": ["type": "integer"]])])).changes
                .isEmpty)
    }

    @Test func aRenamedKeyIsARemovedKeyAndANewOne() {
        let old = F.object(["qty": ["type": "integer"]], required: ["qty"])
        let new = F.object(["quantity": ["type": "integer"]], required: ["quantity"])
        let page = F.bodies(old, new)
        #expect(page.summaries == ["breaking /quantity", "compatible /qty"])
        #expect(page.changes[0].example == ["qty": 0])
        #expect(F.replies(old, new).summaries == ["breaking /qty", "compatible /quantity"])
    }

    @Test func anOptionalMemberWrittenAsANullableAnyOfIsATypeWithNull() {
        let offer = F.object(["id": ["type": "string"]], required: ["id"])
        let nullable: JSONValue = ["anyOf": [offer, ["type": "null"]]]
        #expect(F.bodies(offer, nullable).summaries == ["compatible "])
        #expect(F.bodies(nullable, offer).summaries == ["breaking "])
        #expect(F.bodies(nullable, offer).changes[0].example == .null)
        #expect(F.replies(offer, nullable).summaries == ["breaking "])
        let changedInside: JSONValue = [
            "anyOf": [
                F.object(["id": ["type": "string"], "n": ["type": "integer"]], required: ["id", "n"]), ["type": "null"],
            ]
        ]
        #expect(F.bodies(nullable, changedInside).summaries == ["breaking /n"])
    }

    @Test func anyOfBranchesAreMatchedWithTheBranchThatCoversThem() {
        let two: JSONValue = ["anyOf": [["type": "string"], ["type": "integer"]]]
        let three: JSONValue = ["anyOf": [["type": "integer"], ["type": "string"], ["type": "boolean"]]]
        #expect(F.bodies(two, three).summaries == ["compatible "])
        #expect(F.bodies(three, two).summaries.contains("breaking "))
        #expect(F.bodies(three, two).changes.compactMap(\.example) == [true])
        #expect(F.replies(two, three).summaries.contains("breaking "))
        #expect(F.bodies(two, ["anyOf": [["type": "integer"], ["type": "string"]]]).changes.isEmpty)
    }

    @Test func aChannelThatStartsReadingABodyIsJudgedAgainstAnyBody() {
        let none = F.document(body: nil)
        let some = F.document(body: F.object(["id": ["type": "string"]], required: ["id"]))
        let diff = ContractDiff(old: none, new: some)
        #expect(diff.isBreaking)
        #expect(diff.changes.allSatisfy { $0.change.hasPrefix("body now read: ") })
        let dropped = ContractDiff(old: some, new: none)
        #expect(dropped.summaries == ["compatible "])
        #expect(dropped.changes[0].change == "body no longer read")
    }

    @Test func contractsDerivedFromTypesCompareByTheirDocuments() {
        let same = ContractDiff(old: Contract(types: [DiffOldOrder.self]), new: Contract(types: [DiffOldOrder.self]))
        #expect(same.changes.isEmpty)
        let diff = ContractDiff(old: Contract(types: [DiffOldOrder.self]), new: Contract(types: [DiffNewOrder.self]))
        // coupon: now required, and no longer null; quantity: Int to UInt8, both bounds narrowed.
        #expect(
            diff.summaries == [
                "breaking /coupon", "breaking /coupon", "breaking /quantity", "breaking /quantity", "compatible /note",
            ])
        for change in diff.breaking {
            let example = change.example
            #expect(example != nil)
        }
    }
}

extension ContractDiffStructureTests {
    /// The sample of docs/contract-evolution.md prints what its comments say.
    @Test func theDocumentationsSamplePrintsWhatItSays() {
        let diff = ContractDiff(
            old: Contract(types: [DocAddToCartV1.self]), new: Contract(types: [DocAddToCartV2.self]))
        #expect(diff.isBreaking)
        #expect(
            diff.text
                == "breaking addToCart page-to-app /giftWrap: new required key; example: {\"quantity\":0,\"sku\":\"x\"}\n"
        )
        #expect(diff.breaking.first?.example == ["quantity": 0, "sku": "x"])
    }
}

struct DocAddToCartV1: Event {
    static let channel: Channel = "addToCart"
    let sku: String
    let quantity: Int
}

struct DocAddToCartV2: Event {
    static let channel: Channel = "addToCart"
    let sku: String
    let quantity: Int
    let giftWrap: Bool
}

extension JSONValue {
    /// This object with `members` added.
    fileprivate func adding(_ members: [String: JSONValue]) -> JSONValue {
        .object((objectValue ?? [:]).merging(members) { _, second in second })
    }
}

struct DiffOldOrder: Event {
    static let channel: Channel = "placeOrder"
    let sku: String
    let quantity: Int
    let coupon: String?
}

struct DiffNewOrder: Event {
    static let channel: Channel = "placeOrder"
    let sku: String
    let quantity: UInt8
    let coupon: String
    let note: String?
}
