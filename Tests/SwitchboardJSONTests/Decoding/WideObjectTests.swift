import Foundation
import Testing

@testable import SwitchboardJSON

/// A body with a dictionary whose values are not one of the decoder's one-pass types
/// (`[String: Int]`): the standard library's `Dictionary.init(from:)` asks for every key,
/// in sorted order, through a keyed container.
private struct Scores: Decodable, Equatable {
    let scores: [String: Int]
    let name: String?
}

/// A body whose `init(from:)` asks for every key it lists, present or not, in reverse order.
private struct Reversed: Decodable {
    let found: [String: Int]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: DecodingMemberKey.self)
        var found: [String: Int] = [:]
        for key in container.allKeys.reversed() + [DecodingMemberKey("missing"), DecodingMemberKey("also missing")] {
            found[key.stringValue] = try container.decodeIfPresent(Int.self, forKey: key)
        }
        self.found = found
    }
}

/// A body whose `init(from:)` shares one keyed container between threads (containers are not
/// `Sendable`; a user can still opt out with `nonisolated(unsafe)`): each thread asks for every key, in its own shuffled order, so all of
/// them pass the scans that make the index at about the same moment.
private struct ReadOnThreads: Decodable {
    let sums: [Int]

    init(from decoder: any Decoder) throws {
        nonisolated(unsafe) let container = try decoder.container(keyedBy: DecodingMemberKey.self)
        let keys = container.allKeys
        nonisolated(unsafe) let sums = UnsafeMutableBufferPointer<Int>.allocate(capacity: 8)
        sums.initialize(repeating: 0)
        defer { sums.deallocate() }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            var generator = SeededRandom(seed: UInt64(thread))
            var sum = 0
            for key in keys.shuffled(using: &generator) {
                sum += (try? container.decode(Int.self, forKey: key)) ?? -1_000_000
            }
            sums[thread] = sum
        }
        self.sums = Array(sums)
    }
}

/// Wide objects (thousands of members) read from JSON bytes: a member asked out of the
/// document's order is found through an index of the object once its keys have been scanned
/// a few times, so reading every member is linear in the object's size, not quadratic.
@Suite struct WideObjectTests {
    /// `count` members `"key<n>": n` in a shuffled order, plus the odd spellings a key can
    /// have (escapes, non-ASCII, the decomposed form of a precomposed letter).
    static func members(_ count: Int) -> [(String, Int)] {
        var generator = SeededRandom(seed: UInt64(count))
        var members = (0..<count).map { ("key\($0)", $0) }
        members += [("caf\u{E9}", -1), ("\u{1F600} smile", -2), ("tab\there", -3), ("quote\"d", -4)]
        members.shuffle(using: &generator)
        return members
    }

    /// The members as JSON text, the keys escaped where JSON needs it and `\u0041` for `A`.
    static func text(_ members: [(String, Int)]) -> String {
        let written = members.map { key, value -> String in
            let escaped =
                key.replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\t", with: "\\t")
                .replacingOccurrences(of: "key1", with: "\\u006bey1")
            return "\"\(escaped)\":\(value)"
        }
        return "{" + written.joined(separator: ",") + "}"
    }

    @Test(arguments: [10, 63, 64, 2_000])
    func aWideDictionaryReadsTheSameFromBytesAsFromEveryOtherSource(count: Int) throws {
        let members = Self.members(count)
        let text = #"{"name":"n","scores":"# + Self.text(members) + "}"
        let expected = Scores(scores: Dictionary(uniqueKeysWithValues: members), name: "n")
        #expect(try JSONDecoder().decode(Scores.self, from: Data(text.utf8)) == expected)
        #expect(try MessageBody(jsonBytes: Array(text.utf8)).decode(Scores.self) == expected)
        #expect(try MessageBody(json: JSONReader().read(text)).decode(Scores.self) == expected)
        #expect(try MessageBody(JSONSerialization.jsonObject(with: Data(text.utf8))).decode(Scores.self) == expected)
    }

    @Test func membersAskedInReverseFindEveryKeyAndMissNoneThatIsAbsent() throws {
        let members = Self.members(500)
        let text = Self.text(members)
        let fromBytes = try MessageBody(jsonBytes: Array(text.utf8)).decode(Reversed.self).found
        #expect(fromBytes == Dictionary(uniqueKeysWithValues: members))
        #expect(fromBytes == (try MessageBody(json: JSONReader().read(text)).decode(Reversed.self).found))
    }

    @Test func aWideObjectsContainerSharedByThreadsFindsEveryKeyOnEach() throws {
        let members = (0..<300).map { ("key\($0)", $0) }
        let expected = members.reduce(0) { $0 + $1.1 }
        for _ in 0..<20 {
            let sums = try MessageBody(jsonBytes: Array(Self.text(members).utf8)).decode(ReadOnThreads.self).sums
            #expect(sums == Array(repeating: expected, count: 8))
        }
    }

    @Test func aWideObjectIsIndexedAfterAFewScansAndANarrowOneNever() throws {
        for (count, indexed) in [
            (DecodingTapeSource.indexedMembers - 1, false), (DecodingTapeSource.indexedMembers, true),
        ] {
            let members = Self.members(count - 4)
            let tape = try JSONTape.parse(Array(Self.text(members).utf8))
            let source = DecodingTapeSource(tape: tape)
            let object = DecodingTapeValue(0)
            var hint = DecodingMemberHint()
            // Out of the document's order: every lookup misses the hint and scans.
            for (number, (key, value)) in members.reversed().enumerated() {
                let found = try #require(source.value(in: object, forKey: key, hint: &hint), "\(key)")
                #expect(tape.smallInteger(found.index) == Int64(value))
                let scans = number + 1
                #expect((hint.index != nil) == (indexed && scans >= DecodingTapeSource.scansBeforeIndexing), "\(scans)")
            }
            // Canonically equivalent spellings and absent keys answer as the scan does.
            for key in ["cafe\u{301}", "caf\u{E9}", "missing", "key", "key1", "\u{1F600} smile", "quote\"d"] {
                var scanning = DecodingMemberHint()
                let scanned = source.value(in: object, forKey: key, hint: &scanning)
                #expect(source.value(in: object, forKey: key, hint: &hint)?.index == scanned?.index, "\(key)")
            }
        }
    }
}
