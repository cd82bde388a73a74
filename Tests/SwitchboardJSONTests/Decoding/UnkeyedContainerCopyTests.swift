import Foundation
import SwitchboardJSON
import Testing

/// One element of a heterogeneous array: its kind says which type the element is.
private enum Shape: Decodable, Equatable {
    case circle(radius: Int)
    case square(side: Int)

    private struct Circle: Decodable { let radius: Int }
    private struct Square: Decodable { let side: Int }
    private enum KindKey: String, CodingKey { case kind }

    /// The usual way to decode such an array: read each element's kind through the
    /// container, and the element itself through a copy made before the loop.
    static func decodeAll(from decoder: any Decoder) throws -> [Shape] {
        var container = try decoder.unkeyedContainer()
        var elements = container
        var shapes: [Shape] = []
        while !container.isAtEnd {
            let kind = try container.nestedContainer(keyedBy: KindKey.self).decode(String.self, forKey: .kind)
            switch kind {
            case "circle": shapes.append(.circle(radius: try elements.decode(Circle.self).radius))
            default: shapes.append(.square(side: try elements.decode(Square.self).side))
            }
        }
        return shapes
    }

    init(from decoder: any Decoder) throws {
        guard let shape = try Shape.decodeAll(from: decoder).first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no shape"))
        }
        self = shape
    }
}

/// A body whose `init(from:)` decodes a heterogeneous array by peeking with a copy.
private struct Shapes: Decodable, Equatable {
    let shapes: [Shape]

    init(from decoder: any Decoder) throws {
        shapes = try Shape.decodeAll(from: decoder)
    }
}

/// A body that reads the same elements through copies made at different points.
private struct Copies: Decodable, Equatable {
    let seen: [String]

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var seen: [String] = []
        let atStart = container
        seen.append(try container.decode(String.self))  // a
        var afterFirst = container
        seen.append(try container.decode(String.self))  // b
        seen.append(try afterFirst.decode(String.self))  // b again
        var fromStart = atStart
        seen.append(try fromStart.decode(String.self))  // a again
        seen.append("\(fromStart.currentIndex) \(afterFirst.currentIndex) \(container.currentIndex)")
        var nested = try container.nestedUnkeyedContainer()  // ["c", "d"]
        let nestedCopy = nested
        seen.append(try nested.decode(String.self))  // c
        var again = nestedCopy
        seen.append(try again.decode(String.self))  // c again
        seen.append("\(container.isAtEnd) \(fromStart.isAtEnd) \(nested.currentIndex) \(nestedCopy.currentIndex)")
        self.seen = seen
    }
}

/// Unkeyed containers are values, as Foundation's are: a copy keeps its own
/// position, whichever body source the decoder reads.
@Suite struct UnkeyedContainerCopyTests {
    /// The body as each source holds it.
    private static func bodies(_ text: String) throws -> [(String, MessageBody)] {
        [
            ("bytes", try MessageBody(jsonBytes: Array(text.utf8))),
            ("json value", MessageBody(json: try JSONReader().read(text))),
            ("foundation", MessageBody(try JSONSerialization.jsonObject(with: Data(text.utf8)))),
        ]
    }

    @Test func aHeterogeneousArrayDecodesByPeekingWithACopyFromEverySource() throws {
        let text = #"[{"kind":"circle","radius":1},{"kind":"square","side":2},{"kind":"circle","radius":3}]"#
        let expected = try JSONDecoder().decode(Shapes.self, from: Data(text.utf8))
        #expect(expected.shapes == [.circle(radius: 1), .square(side: 2), .circle(radius: 3)])
        for (name, body) in try Self.bodies(text) {
            #expect(try body.decode(Shapes.self) == expected, "\(name)")
        }
    }

    @Test func aCopyMovesOnItsOwnAsJSONDecodersDoes() throws {
        let text = #"["a","b",["c","d"]]"#
        let expected = try JSONDecoder().decode(Copies.self, from: Data(text.utf8))
        #expect(expected.seen == ["a", "b", "b", "a", "1 2 2", "c", "c", "true false 1 0"])
        for (name, body) in try Self.bodies(text) {
            #expect(try body.decode(Copies.self) == expected, "\(name)")
        }
    }

    @Test func aLongArrayReadBackwardsThroughCopiesReadsEveryElement() throws {
        // Copies made at every position of an array of containers (the bytes source walks
        // such an array with a cursor), then read from the last to the first.
        struct Backwards: Decodable {
            let values: [Int]
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                var copies: [any UnkeyedDecodingContainer] = []
                while !container.isAtEnd {
                    copies.append(container)
                    _ = try container.nestedUnkeyedContainer()
                }
                var values: [Int] = []
                for var copy in copies.reversed() {
                    var element = try copy.nestedUnkeyedContainer()
                    values.append(try element.decode(Int.self))
                }
                self.values = values
            }
        }
        let text = "[" + (0..<50).map { "[\($0)]" }.joined(separator: ",") + "]"
        for (name, body) in try Self.bodies(text) {
            #expect(try body.decode(Backwards.self).values == Array((0..<50).reversed()), "\(name)")
        }
    }
}
