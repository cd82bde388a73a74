import Foundation
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// The schema validator's reading of number text, key paths and patterns at their edges.
@Suite struct ValidatorEdgeTests {
    @Test func anExponentTooLongForIntSaturatesBySign() {
        let nines = String(repeating: "9", count: 20)
        #expect(!SchemaValidator.isIntegral(JSONNumber(unchecked: "1e-" + nines)))
        #expect(!SchemaValidator.isIntegral(JSONNumber(unchecked: "1.5e-" + nines)))
        #expect(SchemaValidator.isIntegral(JSONNumber(unchecked: "1.5e" + nines)))
        #expect(SchemaValidator.isIntegral(JSONNumber(unchecked: "1.5e+" + nines)))
        #expect(SchemaValidator.isIntegral(JSONNumber(unchecked: "0.0e-" + nines)))
        let validator = SchemaValidator()
        #expect(validator.problem(.number(JSONNumber(unchecked: "1e-" + nines)), ["type": "integer"]) != nil)
    }

    @Test func aKeyThePropertyNamesRefuseIsQuotedInThePath() {
        let schema: JSONValue = ["type": "object", "propertyNames": ["pattern": "^[a-z]+$"]]
        let problem = SchemaValidator().problem(["two words": 1], schema)
        #expect(problem?.hasPrefix(#"body key "two words": "#) == true, "\(problem ?? "nil")")
    }

    /// A `$` or `[` followed by a combining mark is one `Character` with it, but still the anchor or the class.
    @Test func patternsAreReadByScalar() {
        #expect(SchemaValidator.ecmaPattern("a$\u{301}") == "a(?![\\s\\S])\u{301}")
        #expect(SchemaValidator.ecmaPattern("[\u{301}$]") == "[\u{301}$]")
        #expect(SchemaValidator.ecmaPattern("\\\u{301}$") == "\\\u{301}(?![\\s\\S])")
        #expect(SchemaValidator.ecmaPattern("^a$") == "^a(?![\\s\\S])")
    }
}
