import Foundation
import SwitchboardWire
import Testing

@testable import Switchboard
@testable import SwitchboardJSON

@Suite struct WireLineReaderTests {
    enum Line: Equatable {
        case bytes(Int, [UInt8])
        case oversized(Int, Int)

        static func text(_ number: Int, _ text: String) -> Line { .bytes(number, Array(text.utf8)) }
    }

    func lines(_ input: [UInt8], max: Int = 1 << 20, chunk: Int = 7, readSize: Int = 5) throws -> [Line] {
        var source = MemorySource(input, chunkSize: readSize)
        var found: [Line] = []
        let reader = WireLineReader(maxLineBytes: max, chunkSize: chunk)
        try reader.forEachLine(in: &source) { (number: Int, line: WireLine) throws(WireIOError) in
            switch line {
            case .bytes(let bytes):
                found.append(.bytes(number, Array(bytes)))
            case .oversized(let count):
                found.append(.oversized(number, count))
            }
        }
        return found
    }

    @Test(arguments: [1, 2, 3, 5, 64])
    func linesSplitTheSameWhateverTheReadSize(readSize: Int) throws {
        let input = Array("{\"a\":1}\n\n{\"b\":22}\r\nlast".utf8)
        #expect(
            try lines(input, readSize: readSize) == [
                .text(1, "{\"a\":1}"), .text(2, ""), .text(3, "{\"b\":22}\r"), .text(4, "last"),
            ])
    }

    @Test func aFinalNewlineAddsNoLine() throws {
        #expect(try lines(Array("x\ny\n".utf8)) == [.text(1, "x"), .text(2, "y")])
        #expect(try lines([]) == [])
    }

    @Test(arguments: [1, 2, 4])
    func aLeadingByteOrderMarkIsStrippedOnlyAtTheStart(readSize: Int) throws {
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("b".utf8)
        #expect(try lines(input, readSize: readSize) == [.text(1, "a"), .text(2, "\u{FEFF}b")])
    }

    @Test func aPartialByteOrderMarkIsKept() throws {
        #expect(try lines([0xEF, 0xBB]) == [.bytes(1, [0xEF, 0xBB])])
        #expect(try lines([0xEF, 0x0A]) == [.bytes(1, [0xEF])])
    }

    @Test func invalidUTF8IsHandedOutAsItIs() throws {
        #expect(try lines([0x61, 0xFF, 0x0A, 0x62]) == [.bytes(1, [0x61, 0xFF]), .text(2, "b")])
    }

    @Test(arguments: [1, 3, 16])
    func linesOverTheLimitAreReportedWithTheirLengthAndSkipped(readSize: Int) throws {
        let long = String(repeating: "x", count: 40)
        let input = Array("short\n\(long)\nexact\n123456\n\(long)".utf8)
        #expect(
            try lines(input, max: 5, chunk: 4, readSize: readSize) == [
                .text(1, "short"), .oversized(2, 40), .text(3, "exact"), .oversized(4, 6), .oversized(5, 40),
            ])
    }

    @Test func theBufferNeverHoldsMoreThanOneLineAndAChunk() throws {
        // 200 lines of 1,000 bytes through a 1,024-byte limit with 64-byte chunks.
        let line = String(repeating: "y", count: 1000)
        let input = Array(Array(repeating: line, count: 200).joined(separator: "\n").utf8)
        let found = try lines(input, max: 1024, chunk: 64, readSize: 64)
        #expect(found.count == 200)
        #expect(
            found.allSatisfy { if case .bytes(_, let bytes) = $0 { return bytes.count == 1000 } else { return false } })
    }
}
