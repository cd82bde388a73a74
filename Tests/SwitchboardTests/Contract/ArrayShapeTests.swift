import Foundation
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

/// Arrays read by their count, and generic types that refer to themselves.
enum ArrayShapes {
    /// Reads as many integers as the array's `count` says.
    struct Counted: Decodable, Sendable {
        let values: [Int]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var values: [Int] = []
            for _ in 0..<(container.count ?? 0) { values.append(try container.decode(Int.self)) }
            self.values = values
        }
    }

    /// Uses `count` as a hint only, and reads until `isAtEnd`.
    struct Hinted: Decodable, Sendable {
        let values: [Int]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var values: [Int] = []
            values.reserveCapacity(container.count ?? 0)
            while !container.isAtEnd { values.append(try container.decode(Int.self)) }
            self.values = values
        }
    }

    struct Tree<Label: Codable & Sendable>: Codable, Sendable {
        let label: Label
        let children: [Tree<Label>]
    }

    struct Shapes: Event {
        static let channel: Channel = "arrayShapes"
        let counted: Counted
        let hinted: Hinted
        let numbers: Tree<Int>
        let words: Tree<String>
    }
}

@Suite struct ArrayShapeTests {
    @Test func anArrayReadByItsCountIsMarkedAndOneReadUntilTheEndIsNot() throws {
        let contract = Contract(types: [ArrayShapes.Shapes.self])
        let properties = try #require(
            contract.channels["arrayShapes"]?.body?.json.objectValue?["properties"]?.objectValue)
        #expect(properties["counted"]?.objectValue?[ContractKeyword.underivable] != nil)
        #expect(properties["hinted"]?.objectValue?["items"]?.objectValue?["type"] == "integer")
        // Two instantiations of one generic type that refers to itself: two definitions.
        let numbers = try #require(properties["numbers"]?.objectValue?["$ref"]?.stringValue)
        let words = try #require(properties["words"]?.objectValue?["$ref"]?.stringValue)
        #expect(numbers != words)
        #expect(contract.definitions.count == 2)
        let validator = SchemaValidator(contract)
        let schema = try #require(contract.channels["arrayShapes"]?.body?.json)
        for (text, valid) in [
            (
                #"{"counted":[1],"hinted":[1,2],"numbers":{"label":1,"children":[]},"words":{"label":"a","children":[]}}"#,
                true
            ),
            (
                #"{"counted":[1],"hinted":[1],"numbers":{"label":"a","children":[]},"words":{"label":"a","children":[]}}"#,
                false
            ),
            (
                #"{"counted":[1],"hinted":[1],"numbers":{"label":1,"children":[]},"words":{"label":1,"children":[]}}"#,
                false
            ),
        ] {
            let body = try JSONReader().read(Array(text.utf8))
            #expect((validator.problem(body, schema) == nil) == valid, "\(text)")
            #expect(((try? MessageBody(json: body).decode(ArrayShapes.Shapes.self)) != nil) == valid, "\(text)")
        }
        #expect(contract.typeScript.contains("export interface TreeInt {"))
        #expect(contract.typeScript.contains("export interface TreeString {"))
    }
}
