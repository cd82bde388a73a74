import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// Every rule of ``ContractDiff`` with a minimal pair of schemas each.
@Suite struct ContractDiffRuleTests {
    typealias F = DiffFixtures
    static let quantity: JSONValue = ["type": "integer", "minimum": 1, "maximum": 10]

    // MARK: Bodies the page sends

    @Test func aRemovedChannelOrAChangedKindBreaksThePage() {
        let body = F.object(["sku": ["type": "string"]], required: ["sku"])
        let removed = ContractDiff(old: F.document(body: body), new: ContractDocument(channels: [:]))
        #expect(removed.summaries == ["breaking "])
        #expect(removed.changes[0].direction == .pageToApp)
        #expect(removed.changes[0].change == "channel removed (was event)")
        #expect(removed.changes[0].example.map { SchemaValidator().problem($0, body) == nil } == true)
        let kind = ContractDiff(old: F.document(body: body), new: F.document(kind: .request, body: body))
        #expect(kind.summaries == ["breaking "])
        #expect(kind.changes[0].change == "kind changed from event to request")
        #expect(kind.isBreaking)
    }

    @Test func aNewChannelIsCompatible() {
        let diff = ContractDiff(old: ContractDocument(channels: [:]), new: F.document(body: ["type": "object"]))
        #expect(diff.summaries == ["compatible "])
        #expect(diff.changes[0].change == "new channel (event)")
        #expect(!diff.isBreaking)
    }

    @Test func aNewlyRequiredKeyBreaksThePageAndShowsABodyWithoutIt() throws {
        let old = F.object(["sku": ["type": "string"], "note": ["type": "string"]], required: ["sku"])
        let new = F.object(["sku": ["type": "string"], "note": ["type": "string"]], required: ["sku", "note"])
        let diff = F.bodies(old, new)
        #expect(diff.summaries == ["breaking /note"])
        #expect(diff.changes[0].change == "key newly required")
        let example = try #require(diff.changes[0].example)
        #expect(example.objectValue?["note"] == nil)
        #expect(SchemaValidator().problem(example, old) == nil && SchemaValidator().problem(example, new) != nil)
        // A new key that is required at once breaks too.
        let added = F.bodies(
            F.object(["sku": ["type": "string"]]),
            F.object(["sku": ["type": "string"], "id": ["type": "string"]], required: ["id"]))
        #expect(added.summaries == ["breaking /id"])
    }

    @Test func aNewOptionalKeyAndADroppedRequirementAreCompatible() {
        let old = F.object(["sku": ["type": "string"]], required: ["sku"])
        let new = F.object(["sku": ["type": "string"], "note": ["type": "string"]])
        let diff = F.bodies(old, new)
        #expect(diff.summaries == ["compatible /note", "compatible /sku"])
        #expect(diff.changes.map(\.change) == ["new optional key", "requirement dropped: key now optional"])
    }

    @Test func aNarrowedTypeBreaksAndAWidenedOneIsCompatible() throws {
        let narrowed = F.bodies(["type": ["string", "null"]], ["type": "string"])
        #expect(narrowed.summaries == ["breaking "])
        #expect(narrowed.changes[0].change == "type narrowed from [\"null\",\"string\"] to \"string\"")
        #expect(narrowed.changes[0].example == .null)
        let number = F.bodies(["type": "number"], ["type": "integer"])
        #expect(number.summaries == ["breaking "])
        let example = try #require(number.changes[0].example)
        #expect(SchemaValidator().problem(example, ["type": "integer"]) != nil)
        #expect(F.bodies(["type": "integer"], ["type": "number"]).summaries == ["compatible "])
        #expect(F.bodies(["type": "string"], ["type": ["string", "null"]]).summaries == ["compatible "])
        let changed = F.bodies(["type": "string"], ["type": "integer"])
        #expect(changed.summaries == ["breaking "])
        #expect(changed.changes[0].change == "type changed from \"string\" to \"integer\"")
    }

    @Test func narrowedBoundsBreakAndWidenedOnesAreCompatible() throws {
        let pairs: [(JSONValue, JSONValue)] = [
            (["type": "integer", "minimum": 0], ["type": "integer", "minimum": 1]),
            (["type": "integer", "maximum": 10], ["type": "integer", "maximum": 9]),
            (["type": "integer"], ["type": "integer", "maximum": 9]),
            (["type": "number", "minimum": 0], ["type": "number", "exclusiveMinimum": 0]),
            (["type": "number", "maximum": 5], ["type": "number", "exclusiveMaximum": 5]),
            (["type": "string"], ["type": "string", "minLength": 1]),
            (["type": "string", "maxLength": 8], ["type": "string", "maxLength": 4]),
            (
                ["type": "array", "items": ["type": "integer"]],
                ["type": "array", "items": ["type": "integer"], "minItems": 1]
            ),
            (["type": "array", "maxItems": 3], ["type": "array", "maxItems": 2]),
            (["type": "integer", "multipleOf": 2], ["type": "integer", "multipleOf": 4]),
        ]
        for (old, new) in pairs {
            let narrowed = F.bodies(old, new)
            #expect(narrowed.summaries == ["breaking "], "\(old) → \(new)")
            let example = try #require(narrowed.changes.first?.example, "\(old) → \(new)")
            #expect(SchemaValidator().problem(example, old) == nil, "\(example)")
            #expect(SchemaValidator().problem(example, new) != nil, "\(example)")
            #expect(F.bodies(new, old).summaries == ["compatible "], "\(new) → \(old)")
        }
        #expect(
            F.bodies(["type": "integer", "minimum": 0], ["type": "integer", "minimum": 1]).changes[0].change
                == "minimum narrowed from 0 to 1")
    }

    @Test func aNarrowedEnumBreaksAndAWidenedOneIsCompatible() {
        let ab: JSONValue = ["type": "string", "enum": ["a", "b"]]
        let abc: JSONValue = ["type": "string", "enum": ["a", "b", "c"]]
        let narrowed = F.bodies(abc, ab)
        #expect(narrowed.summaries == ["breaking "])
        #expect(narrowed.changes[0].example == "c")
        #expect(F.bodies(ab, abc).summaries == ["compatible "])
        #expect(F.bodies(["type": "string"], ab).summaries == ["breaking "])
        #expect(F.bodies(ab, ["type": "string"]).summaries == ["compatible "])
        #expect(F.bodies(["const": "a"], ["const": "b"]).summaries == ["breaking "])
    }

    @Test func aPatternOrFormatThatChangedInAnyWayIsNarrowed() throws {
        let old: JSONValue = ["type": "string", "pattern": "^[a-z]+$"]
        let new: JSONValue = ["type": "string", "pattern": "^[a-z]{1,3}$"]
        let diff = F.bodies(old, new)
        #expect(diff.summaries == ["breaking "])
        #expect(diff.changes[0].change.contains("regex inclusion is undecidable"))
        let example = try #require(diff.changes[0].example)
        #expect(SchemaValidator().problem(example, old) == nil && SchemaValidator().problem(example, new) != nil)
        // Even a change that takes more strings counts as narrowed: inclusion is not decided.
        #expect(F.bodies(new, old).summaries == ["breaking "])
        #expect(F.bodies(old, old).changes.isEmpty)
        #expect(F.bodies(["type": "string"], old).summaries == ["breaking "])
        #expect(F.bodies(old, ["type": "string"]).summaries == ["compatible "])
        let format = F.bodies(["type": "string", "format": "date-time"], ["type": "string", "format": "date"])
        #expect(format.summaries == ["breaking "])
        #expect(format.changes[0].change.contains("format narrowed"))
        #expect(F.bodies(["type": "string"], ["type": "string", "format": "uuid"]).summaries == ["breaking "])
        // For what the app sends, a narrowing is compatible.
        #expect(F.replies(old, new).summaries == ["compatible "])
    }

    @Test func closingAdditionalPropertiesBreaksThePage() throws {
        let old = F.object(["sku": ["type": "string"]])
        let new = F.object(["sku": ["type": "string"]], ["additionalProperties": false])
        let diff = F.bodies(old, new)
        #expect(diff.summaries == ["breaking "])
        #expect(diff.changes[0].change == "additionalProperties closed: keys not listed are refused")
        let example = try #require(diff.changes[0].example)
        #expect(SchemaValidator().problem(example, old) == nil && SchemaValidator().problem(example, new) != nil)
        #expect(F.bodies(new, old).summaries == ["compatible "])
        // A dictionary's values narrowed.
        let values = F.bodies(
            ["type": "object", "additionalProperties": ["type": ["string", "integer"]]],
            ["type": "object", "additionalProperties": ["type": "string"]])
        #expect(values.summaries == ["breaking /*"])
        #expect(values.changes[0].example != nil)
        // A key removed where the new object is closed is refused.
        let removed = F.bodies(F.object(["sku": ["type": "string"], "x": ["type": "integer"]]), new)
        #expect(removed.summaries == ["breaking /x", "breaking "])
    }

    @Test func aKeyRemovedFromWhatThePageSendsIsNoLongerReadAndStillAccepted() {
        let diff = F.bodies(
            F.object(["sku": ["type": "string"], "x": ["type": "integer"]], required: ["x"]),
            F.object(["sku": ["type": "string"]]))
        #expect(diff.summaries == ["compatible /x"])
        #expect(diff.changes[0].change == "required key removed: no longer read")
    }

    // MARK: What the app sends

    @Test func aRequiredKeyRemovedOrMadeOptionalBreaksAReader() {
        let old = F.object(["price": ["type": "string"], "items": ["type": "array"]], required: ["price", "items"])
        let removed = F.replies(old, F.object(["items": ["type": "array"]], required: ["items"]))
        #expect(removed.summaries == ["breaking /price"])
        #expect(removed.changes[0].direction == .appToPage)
        #expect(removed.changes[0].change == "required key removed: no longer sent")
        #expect(removed.changes[0].example == nil)
        let optional = F.replies(
            old, F.object(["price": ["type": "string"], "items": ["type": "array"]], required: ["items"]))
        #expect(optional.summaries == ["breaking /price"])
        #expect(
            F.pushes(old, F.object(["items": ["type": "array"]], required: ["items"])).summaries == ["breaking /price"])
    }

    @Test func aWidenedTypeBoundOrEnumBreaksAReader() {
        #expect(F.replies(["type": "integer"], ["type": "number"]).summaries == ["breaking "])
        #expect(F.replies(["type": "string"], ["type": ["string", "null"]]).summaries == ["breaking "])
        #expect(
            F.replies(["type": "integer", "maximum": 5], ["type": "integer", "maximum": 6]).summaries == ["breaking "])
        let newCase = F.pushes(
            ["type": "string", "enum": ["open", "closed"]], ["type": "string", "enum": ["open", "closed", "held"]])
        #expect(newCase.summaries == ["breaking "])
        #expect(newCase.changes[0].direction == .appToPage)
        #expect(newCase.changes[0].change == "enum widened: [\"held\"] added")
    }

    @Test func aNewKeyOrANarrowingIsCompatibleForAReader() {
        let old = F.object(["price": ["type": "string"]], required: ["price"])
        let added = F.replies(
            old, F.object(["price": ["type": "string"], "note": ["type": "string"]], required: ["price"]))
        #expect(added.summaries == ["compatible /note"])
        #expect(F.replies(["type": ["string", "null"]], ["type": "string"]).summaries == ["compatible "])
        #expect(
            F.replies(["type": "integer", "maximum": 6], ["type": "integer", "maximum": 5]).summaries == ["compatible "]
        )
        #expect(F.pushes(["enum": ["a", "b"]], ["enum": ["a"]]).summaries == ["compatible "])
        let optionalGone = F.replies(
            F.object(["price": ["type": "string"], "note": ["type": "string"]]), F.object(["price": ["type": "string"]])
        )
        #expect(optionalGone.summaries == ["compatible /note"])
        // A reader whose schema refuses unlisted keys breaks on a new one.
        let closed = F.replies(
            F.object(["price": ["type": "string"]], ["additionalProperties": false]),
            F.object(["price": ["type": "string"], "note": ["type": "string"]], ["additionalProperties": false]))
        #expect(closed.summaries == ["breaking /note"])
    }

    @Test func aRequestsBodyAndReplyAreJudgedEachByItsDirection() {
        let old = ContractDocument(channels: [
            "r": .init(
                kind: .request, body: ["type": "integer", "maximum": 9], reply: ["type": "integer", "maximum": 9])
        ])
        let new = ContractDocument(channels: [
            "r": .init(
                kind: .request, body: ["type": "integer", "maximum": 5], reply: ["type": "integer", "maximum": 5])
        ])
        let diff = ContractDiff(old: old, new: new)
        #expect(
            diff.changes.map { "\($0.severity) \($0.direction.rawValue)" } == [
                "breaking page-to-app", "compatible app-to-page",
            ])
    }

    // MARK: Unknown

    @Test func anUnderivableSchemaOnEitherSideIsUnknownNeverCompatible() {
        let marked: JSONValue = ["x-switchboard-underivable": "Payment: its init(from:) decodes by the values it reads"]
        let exact = F.object(["amount": ["type": "integer"]], required: ["amount"])
        for (old, new) in [(exact, marked), (marked, exact), (marked, marked)] {
            let diff = F.bodies(old, new)
            #expect(diff.summaries == ["unknown "], "\(old) → \(new)")
            #expect(diff.changes[0].change.contains("underivable"))
            #expect(!diff.isBreaking)
            #expect(F.replies(old, new).summaries == ["unknown "])
        }
        let nested = F.bodies(F.object(["payment": marked]), F.object(["payment": marked]))
        #expect(nested.summaries == ["unknown /payment"])
        let keyword = F.bodies(
            ["type": "array", "contains": ["type": "integer"]], ["type": "array", "contains": ["type": "string"]])
        #expect(keyword.summaries == ["unknown "])
    }

    // MARK: Paths and output

    @Test func pathsArePointersIntoTheBodyWithEscapedKeys() {
        let old = F.object([
            "a/b": F.object(["~x": ["type": "integer"]]),
            "lines": ["type": "array", "items": F.object(["q": ["type": "integer"]])],
        ])
        let new = F.object([
            "a/b": F.object(["~x": ["type": "string"]]),
            "lines": ["type": "array", "items": F.object(["q": ["type": "integer", "maximum": 3]])],
        ])
        #expect(Set(F.bodies(old, new).changes.map(\.path)) == ["/a~1b/~0x", "/lines/*/q"])
    }

    @Test func theJSONHasTheThreeListsInOrderAndEachItemItsFourFields() throws {
        let diff = F.bodies(
            F.object(["a": ["type": "integer"]]),
            F.object(["a": ["type": "integer"], "b": ["type": "string"]], required: ["a"]))
        let value = try JSONReader().read(diff.json)
        let object = try #require(value.objectValue)
        #expect(Set(object.keys) == ["breaking", "compatible", "unknown"])
        #expect(
            diff.json.hasPrefix(
                "{\"breaking\":[{\"channel\":\"c\",\"direction\":\"page-to-app\",\"path\":\"/a\",\"change\":\"key newly required\",\"example\":"
            ))
        #expect(
            object["compatible"]?.arrayValue?.first == [
                "channel": "c", "direction": "page-to-app", "path": "/b", "change": "new optional key",
            ])
        #expect(object["unknown"] == [])
        #expect(diff.text.hasPrefix("breaking c page-to-app /a: key newly required; example: {}\n"))
    }
}
