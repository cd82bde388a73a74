import Foundation
import SwitchboardTestSupport
import Testing

@testable import SwitchboardJSON

/// Writes many members, then repeats its first key: the stream gives up at the very end.
private struct LateRepeat: Encodable {

    let keys: [String]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyKey.self)
        for (index, key) in keys.enumerated() { try container.encode(index, forKey: AnyKey(stringValue: key)) }
    }
}

/// Keeps its encoder past `encode(to:)` and writes through it later.
private final class EncoderKeeper: Encodable, @unchecked Sendable {
    var kept: (any Encoder)?

    func encode(to encoder: any Encoder) throws {
        kept = encoder
        var container = encoder.singleValueContainer()
        try container.encode("kept")
    }
}

/// The stream writes into the caller's writer itself and cuts back what it wrote
/// when it gives up; keys are told apart by their escaped bytes; an encoder a value
/// keeps is never handed to another value.
@Suite struct StreamEncoderWriterTests {
    private func text(_ writer: JSONWriter) -> String {
        String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func aStreamThatGivesUpLateLeavesOnlyTheTreesBytes() throws {
        let keys = (0..<200).map { "key\($0)" } + ["key0"]
        var writer = JSONWriter(capacity: 16)
        writer.beginArray()
        writer.write("before")
        try BodyEncoder().encodeJSON([LateRepeat(keys: keys)], into: &writer)
        writer.write("after")
        writer.endArray()
        let members = (1..<200).map { #""key\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(text(writer) == #"["before",[{"key0":200,"# + members + #"}],"after"]"#)
    }

    @Test func aFailedEncodeLeavesACopiedWriterAndItsCopyAsTheyWere() throws {
        var writer = JSONWriter(capacity: 16)
        writer.beginArray()
        try BodyEncoder().encodeJSON("first", into: &writer)
        let copy = writer
        #expect(throws: BodyEncodingError.self) {
            try BodyEncoder().encodeJSON(["a": [1.0, 2.0, .nan]], into: &writer)
        }
        try BodyEncoder().encodeJSON(2, into: &writer)
        writer.endArray()
        #expect(text(writer) == #"["first",2]"#)
        #expect(text(copy) == #"["first""#)
    }

    @Test func keysAlikeInLengthAndEndsAreNotRepeats() throws {
        let keys = ["abcd", "axxd", "ab\"d", "ab\\d", "a\u{2028}d", "", "\"", "é", "e"]
        let bytes = try BodyEncoder().encodeJSON(LateRepeat(keys: keys))
        let expected =
            #"{"abcd":0,"axxd":1,"ab\"d":2,"ab\\d":3,"a\u2028d":4,"":5,"\"":6,"é":7,"e":8}"#
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        let repeated = try BodyEncoder().encodeJSON(LateRepeat(keys: ["a\"b", "x", "a\"b", "", ""]))
        #expect(String(decoding: repeated, as: UTF8.self) == #"{"a\"b":2,"x":1,"":4}"#)
    }

    @Test func anEncoderAValueKeepsIsNotReusedForTheNextValue() throws {
        let keeper = EncoderKeeper()
        let bytes = try BodyEncoder().encodeJSON([["a": 1], ["b": 2]].map { $0 as [String: Int] })
        #expect(String(decoding: bytes, as: UTF8.self) == #"[{"a":1},{"b":2}]"#)
        struct Pair: Encodable {
            let keeper: EncoderKeeper
            let next: [String: [String]]
        }
        let pair = Pair(keeper: keeper, next: ["k": ["v", "w"]])
        let first = try BodyEncoder().encodeJSON(pair)
        #expect(String(decoding: first, as: UTF8.self) == #"{"keeper":"kept","next":{"k":["v","w"]}}"#)
        // Writing through the kept encoder after the encode changes nothing, now or later.
        var container = try #require(keeper.kept).singleValueContainer()
        try? container.encode("late")
        let second = try BodyEncoder().encodeJSON(pair)
        #expect(second == first)
    }
}
