import Switchboard
import Testing

/// Bounds a hostile contract file may hold: the diff judges them, and makes no value of them,
/// without trapping or building something unbounded.
@Suite struct HostileBoundsTests {
    private typealias F = DiffFixtures

    @Test(
        arguments: [
            ["type": "string", "pattern": "^a{-1}$"],
            ["type": "string", "pattern": "^a{9223372036854775807}$"],
            ["type": "string", "pattern": "^(ab){3,1}$"],
            ["type": "string", "minLength": 9_223_372_036_854_775_807],
            ["type": "string", "minLength": -5],
            ["type": "array", "minItems": 9_223_372_036_854_775_807],
            ["type": "object", "minProperties": 9_223_372_036_854_775_807],
        ] as [JSONValue])
    func aHostileBoundIsJudgedWithoutTrapping(narrowed: JSONValue) {
        let old = F.document(body: ["type": "object", "properties": ["v": [:]]])
        let new = F.document(body: ["type": "object", "properties": ["v": narrowed], "required": ["v"]])
        let diff = ContractDiff(old: old, new: new)
        #expect(diff.isBreaking)
    }
}
