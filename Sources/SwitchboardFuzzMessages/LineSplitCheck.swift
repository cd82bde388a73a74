import Switchboard
import SwitchboardWire

/// The CLI's line reader against a naive split: fed in chunks of a few bytes,
/// with a line limit of a few dozen bytes (both taken from the input), it hands
/// out every physical line with its number, its bytes unchanged, and an
/// oversized line as its length only.
struct LineSplitCheck {
    let input: [UInt8]
    let lines: NaiveLines

    enum Piece: Equatable {
        case bytes(number: Int, [UInt8])
        case oversized(number: Int, count: Int)
    }

    func run() {
        let sourceChunk = 1 + input.count % 7
        let readChunk = 1 + Int(input.first ?? 0) % 5
        let limit = Int(input.last ?? 0) % 48
        var source = MemorySource(input, chunkSize: sourceChunk)
        let reader = WireLineReader(maxLineBytes: limit, chunkSize: readChunk)
        var pieces: [Piece] = []
        do {
            try reader.forEachLine(in: &source) { number, line in
                switch line {
                case .bytes(let bytes): pieces.append(.bytes(number: number, Array(bytes)))
                case .oversized(let count): pieces.append(.oversized(number: number, count: count))
                }
            }
        } catch {
            fuzzFail("the line reader threw \(error) reading bytes in memory")
        }
        let expected = lines.lines.map { line -> Piece in
            line.count > limit
                ? .oversized(number: line.number, count: line.count)
                : .bytes(number: line.number, line.bytes(in: input))
        }
        if pieces != expected {
            fuzzFail(
                "the line reader (chunks \(sourceChunk)/\(readChunk), limit \(limit)) gave \(pieces), a naive split \(expected)",
                line: input)
        }
    }
}
