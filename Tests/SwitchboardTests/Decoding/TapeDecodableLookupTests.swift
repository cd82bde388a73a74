import Testing

@testable import Switchboard

private struct FastPoint: Decodable, TapeDecodable, Equatable {
    var x: Int
    init(tape object: inout TapeObjectReader) throws(TapeMiss) {
        x = try object.int("x")
    }
}

private struct SlowPoint: Decodable, Equatable {
    var x: Int
}

@Suite struct TapeDecodableLookupTests {
    private func remembered<T>(_ type: T.Type) -> Bool {
        TapeDecodableLookup.conformance(of: type) != nil
    }

    @Test func theRememberedAnswerIsTheRuntimes() {
        // Asked in turns, so types that share a slot replace each other.
        for _ in 0..<3 {
            #expect(remembered(FastPoint.self))
            #expect(!remembered(SlowPoint.self))
            #expect(!remembered(Int.self))
            #expect(!remembered([FastPoint].self))
            #expect(!remembered(String.self))
            #expect(remembered(FastPoint.self))
        }
    }

    @Test func bodiesDecodeTheSameWhetherTheirTypeReadsTheTapeOrNot() throws {
        let bytes = Array(#"{"x":3}"#.utf8)
        for _ in 0..<3 {
            let fast = try MessageBody(jsonBytes: bytes).decode(FastPoint.self, options: DecodingOptions())
            let slow = try MessageBody(jsonBytes: bytes).decode(SlowPoint.self, options: DecodingOptions())
            #expect(fast.x == 3)
            #expect(slow.x == 3)
        }
    }
}
