import Foundation
import Testing

@testable import SwitchboardJSON

private struct Product: Decodable, Equatable {
    let name: String
    let quantity: Int
    let price: Double?
    let tags: [String]
}

/// The outcome of one decode, comparable across decoders.
private enum Outcome: CustomStringConvertible {
    case value(String)
    case failure(kind: String, path: [String])

    var description: String {
        switch self {
        case .value(let value): return "value \(value)"
        case .failure(let kind, let path): return "\(kind) at \(path)"
        }
    }
}

/// One decode under test: decodes with `JSONDecoder` and with ``BodyDecoder`` (both sources).
private struct Probe: Sendable, CustomStringConvertible {
    let name: String
    /// Whether the type is a dictionary, whose members decode in no particular order
    /// (so with several bad members, which one is reported first may differ).
    var unorderedMembers = false
    let run: @Sendable (String) -> (foundation: Outcome, body: Outcome, json: Outcome)

    var description: String { name }

    static func of<T: Decodable & SendableMetatype>(_ type: T.Type) -> Probe {
        Probe(name: "\(T.self)", unorderedMembers: "\(T.self)".contains("Dictionary<")) { json in
            let data = Data(json.utf8)
            let foundation = outcome { try JSONDecoder().decode(T.self, from: data) }
            let tree: Any
            do {
                tree = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            } catch {
                return (foundation, .failure(kind: "unparsable", path: []), .failure(kind: "unparsable", path: []))
            }
            let body = outcome { try BodyDecoder().decode(T.self, from: tree) }
            let json = outcome { try BodyDecoder().decode(T.self, from: try JSONValue(foundation: tree)) }
            return (foundation, body, json)
        }
    }

    private static func outcome<T>(_ body: () throws -> T) -> Outcome {
        do {
            return .value(String(reflecting: try body()))
        } catch let error as BodyDecodingError {
            return .failure(kind: caseName(error.decodingError), path: pathStrings(error.decodingError))
        } catch let error as DecodingError {
            return .failure(kind: caseName(error), path: pathStrings(error))
        } catch {
            return .failure(kind: "other: \(error)", path: [])
        }
    }
}

/// Values placed in `{"v": …}` documents.
private let values = [
    "true", "false", "0", "-0.0", "1", "1.0", "2.5", "-1", "1e2", "300", "-129", "40000", "1e30", "1e300", "3.4e38",
    "12345678901234567890", "9223372036854775807", "-9223372036854775808", "null", "\"1\"", "\"x\"", "\"true\"",
    "\"https://example.com/a\"", "\"\"", "[]", "[1,2]", "[1,null]", "[1,\"2\"]", "[[1]]", "{}", "{\"a\":1}",
    "{\"a\":\"1\"}", "{\"name\":\"n\",\"quantity\":2,\"tags\":[\"a\"]}",
    "{\"name\":\"n\",\"quantity\":2.0,\"price\":null,\"tags\":[],\"extra\":true}",
    "{\"name\":\"n\",\"quantity\":\"2\",\"tags\":[]}", "{\"name\":\"n\",\"tags\":[1]}",
    "{\"name\":\"n\",\"quantity\":1,\"tags\":[\"a\",null]}",
]

private let documents: [String] = values.map { #"{"v":\#($0)}"# } + ["{}", "[]", "null", #"{"w":1}"#]

private let probes: [Probe] = [
    .of(Box<Int>.self), .of(Box<Int8>.self), .of(Box<UInt8>.self), .of(Box<Int16>.self), .of(Box<UInt>.self),
    .of(Box<Int64>.self), .of(Box<UInt64>.self), .of(Box<Double>.self), .of(Box<Float>.self), .of(Box<Bool>.self),
    .of(Box<String>.self), .of(Box<URL>.self), .of(Box<Decimal>.self), .of(Box<[Int]>.self), .of(Box<[Int?]>.self),
    .of(Box<[[Int]]>.self), .of(Box<[String: Int]>.self), .of(OptionalBox<Int>.self), .of(OptionalBox<String>.self),
    .of(Box<Product>.self), .of(OptionalBox<Product>.self), .of(Box<Int?>.self),
]

@Suite struct BodyDecoderDifferentialTests {
    /// Known, documented differences from this platform's `JSONDecoder`:
    /// - it reports a number out of range for its type as `dataCorrupted` with no
    ///   coding path ("The given data was not valid JSON."); the body decoder reports
    ///   the same case at the number's own path;
    /// - it reports `null` decoded as a non-optional `Bool` as `typeMismatch`, unlike
    ///   every other type; the body decoder says `valueNotFound`, as for the rest;
    /// - with several bad members in a dictionary, which is reported first is arbitrary.
    /// Every other outcome must match: equal values, or the same case at the same path.
    private func agree(_ ours: Outcome, _ theirs: Outcome, unordered: Bool = false, isBool: Bool = false) -> Bool {
        switch (ours, theirs) {
        case (.value(let a), .value(let b)):
            return a == b
        case (.failure(let kind, let path), .failure(let theirKind, let theirPath)):
            if kind == theirKind && path == theirPath { return true }
            // Dictionary members have no order: with several bad members, which one
            // each decoder reports first (and so its error kind) is unspecified.
            if unordered, path.count == theirPath.count, path.dropLast() == theirPath.dropLast() {
                return true
            }
            if isBool, kind == "valueNotFound", theirKind == "typeMismatch", path == theirPath {
                return true
            }
            return kind == "dataCorrupted" && theirKind == "dataCorrupted" && theirPath.isEmpty
        default:
            return false
        }
    }

    @Test(arguments: probes)
    fileprivate func agreesWithJSONDecoder(_ probe: Probe) {
        var compared = 0
        for document in documents {
            let (foundation, body, json) = probe.run(document)
            let unordered = probe.unorderedMembers
            #expect(
                agree(body, foundation, unordered: unordered, isBool: probe.name == "Box<Bool>"),
                "\(probe) from \(document): body decoder \(body), JSONDecoder \(foundation)")
            #expect(
                agree(json, foundation, unordered: unordered, isBool: probe.name == "Box<Bool>"),
                "\(probe) from \(document) as JSONValue: \(json), JSONDecoder \(foundation)")
            compared += 1
        }
        #expect(compared == documents.count)
    }

    @Test func theComparisonCanTellOutcomesApart() {
        #expect(!agree(.value("1"), .value("2")))
        #expect(!agree(.value("1"), .failure(kind: "typeMismatch", path: ["v"])))
        #expect(!agree(.failure(kind: "typeMismatch", path: ["v"]), .failure(kind: "valueNotFound", path: ["v"])))
        #expect(!agree(.failure(kind: "typeMismatch", path: ["v"]), .failure(kind: "typeMismatch", path: [])))
        #expect(agree(.failure(kind: "dataCorrupted", path: ["v"]), .failure(kind: "dataCorrupted", path: [])))
    }

    @Test func outOfRangeNumbersAreDataCorruptedInBothButOnlyOursHasThePath() {
        let (foundation, body, _) = Probe.of(Box<UInt8>.self).run(#"{"v":300}"#)
        guard case .failure("dataCorrupted", let theirs) = foundation, case .failure("dataCorrupted", let ours) = body
        else {
            Issue.record("expected dataCorrupted from both, got \(foundation) and \(body)")
            return
        }
        #expect(theirs == [])
        #expect(ours == ["v"])
    }
}
