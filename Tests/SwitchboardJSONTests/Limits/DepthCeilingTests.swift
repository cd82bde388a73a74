import Foundation
import SwitchboardTestSupport
import Testing

@testable import SwitchboardJSON

/// `depth` arrays nested in each other around a 0, as JSON text.
private func arrays(_ depth: Int) -> [UInt8] {
    Array((String(repeating: "[", count: depth) + "0" + String(repeating: "]", count: depth)).utf8)
}

/// `depth` objects nested in each other (`{"a":{"a":…}}`).
private func objects(_ depth: Int) -> [UInt8] {
    Array((String(repeating: #"{"a":"#, count: depth) + "0" + String(repeating: "}", count: depth)).utf8)
}

/// The nesting limits a user may raise stop at ``DecodingOptions/maxDepthCeiling``: some
/// operations on a value recurse once per level (building and releasing a `JSONValue`), so a
/// raised limit must never let input nest deeper than a thread's stack can take:
/// `JSONReader(maxDepth: 1_000_000)` refuses 300,000 nested arrays rather than overflow the
/// stack building the value, and `DecodingOptions(maxDepth: .min)` is a limit of 0, not an
/// overflowing subtraction.
@Suite struct DepthCeilingTests {
    static let ceiling = DecodingOptions.maxDepthCeiling
    static let raised = [ceiling + 1, 1_000_000, Int.max]

    /// `JSONReader(maxDepth:)`'s error, or `nil` when the text was read.
    private func readError(_ bytes: [UInt8], maxDepth: Int) -> JSONReadError? {
        do {
            _ = try JSONReader(maxDepth: maxDepth).read(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func theCeilingIsFiveThousandLevels() {
        #expect(DecodingOptions.maxDepthCeiling == 5_000)
    }

    @Test(arguments: [300_000, ceiling + 1])
    func aReaderWithARaisedLimitRefusesWhatIsDeeperThanTheCeilingAsIfThatWereItsLimit(depth: Int) throws {
        for text in [arrays(depth), objects(depth)] {
            let atCeiling = try #require(readError(text, maxDepth: Self.ceiling))
            #expect(atCeiling.kind == .nestingTooDeep(limit: Self.ceiling))
            for limit in Self.raised {
                let error = try #require(readError(text, maxDepth: limit), "\(limit)")
                #expect(error.kind == atCeiling.kind)
                #expect(error.description == atCeiling.description)
                #expect(throws: JSONReadError.self) { try MessageBody(jsonBytes: text, maxDepth: limit) }
            }
        }
    }

    @Test func aReadersLimitReadsBackAsSet() {
        // (A scan error other than depth is found with it.)
        #expect(JSONReader(maxDepth: 1_000_000).maxDepth == 1_000_000)
    }

    @Test(arguments: [Int.min, -1, 0])
    func aLimitBelowZeroIsZero(limit: Int) throws {
        let options = DecodingOptions(maxDepth: limit)
        #expect(options.maxDepth == 0)
        for body in [
            MessageBody(["data": [1]]), MessageBody(json: ["data": [1]]),
            try MessageBody(jsonBytes: Array(#"{"data":[1]}"#.utf8)),
        ] {
            // A member that is a container, decoded on its own: the limit is subtracted there, and must not overflow.
            let error = try #require(throws: BodyDecodingError.self) {
                try body.decode(JSONValue.self, at: "data", options: options)
            }
            #expect(error.message == "The value is nested more than 0 levels deep (DecodingOptions.maxDepth).")
            #expect(try body.decode(Int?.self, at: "missing", options: options) == nil)
        }
        #expect(readError(Array("[1]".utf8), maxDepth: limit)?.kind == .nestingTooDeep(limit: 0))
    }

    /// Decodes on a thread of its own: the six decodes to the ceiling take seconds in a debug
    /// build, and held on the test runner's few shared threads they would starve the suites
    /// that wait for an async responder's reply.
    @Test func aDecoderWithARaisedLimitStopsAtTheCeilingOnEverySource() async {
        let noted = await onMainSizedStack {
            var tree = deeplyNestedArray(depth: 100_000)
            defer { dismantle(&tree) }
            var value = deeplyNestedJSON(depth: 100_000)
            defer { dismantle(&value) }
            var noted: [String] = []
            for limit in Self.raised {
                var options = DecodingOptions()
                options.maxDepth = limit
                noted.append("limit \(options.maxDepth)")
                for error in [
                    decodingError(JSONValue.self, from: tree, options: options),
                    decodingError(JSONValue.self, fromJSON: value, options: options),
                ] {
                    noted.append(error.map { "\($0.message) \($0.codingPath.count)" } ?? "decoded")
                }
                do {
                    _ = try JSONValue(foundation: tree, maxDepth: limit)
                    noted.append("converted")
                } catch {
                    noted.append("\(type(of: error))")
                }
            }
            return noted
        }
        let refused = "The value is nested more than 5000 levels deep (DecodingOptions.maxDepth). \(Self.ceiling)"
        let each = ["limit \(Self.ceiling)", refused, refused, "BodyDecodingError"]
        #expect(noted == Array(Array(repeating: each, count: Self.raised.count).joined()))
    }

    /// Runs `work` on a thread with a main thread's stack (8 MiB; four times that under
    /// AddressSanitizer, whose frames are larger) and returns what it noted.
    private func onMainSizedStack(_ work: @escaping @Sendable () -> [String]) async -> [String] {
        await onDispatchThread(stackSize: AddressSanitizer.stackSize(8 << 20), work)
    }

    @Test func everyOperationOnABodyAtTheCeilingFitsInAMainThreadsStack() async {
        let noted = await onMainSizedStack {
            var noted: [String] = []
            for text in [arrays(Self.ceiling), objects(Self.ceiling)] {
                for limit in Self.raised {
                    do {
                        let body = try MessageBody(jsonBytes: text, maxDepth: limit)
                        var value = try body.decode(JSONValue.self, options: DecodingOptions(maxDepth: limit))
                        let again = try JSONReader(maxDepth: limit).read(text)
                        var hasher = Hasher()
                        value.hash(into: &hasher)
                        _ = hasher.finalize()
                        let described = body.description == String(decoding: text, as: UTF8.self)
                        let written = try BodyEncoder().encodeJSON(value) == text
                        let tree = value.foundationValue
                        let back = try JSONValue(foundation: tree, maxDepth: limit)
                        noted.append("\(value == again) \(described) \(written) \(back == value)")
                        value = .null
                    } catch {
                        noted.append("error \(error)")
                    }
                }
            }
            return noted
        }
        #expect(noted == Array(repeating: "true true true true", count: 2 * Self.raised.count))
    }
}
