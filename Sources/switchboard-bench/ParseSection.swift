import Foundation
import Switchboard

/// Context for the other sections: parsing whole lines with Foundation (bytes to
/// an `Any` tree) and with the package's one strict scanner, twice: to a tape
/// only (what the CLI and `MessageBody(jsonBytes:)` decode from) and on to a
/// `JSONValue` tree (`JSONReader`).
struct ParseSection {
    let lines: [[UInt8]]
    let datas: [Data]
    let bytes: Int

    init(corpus: Corpus, limit: Int) {
        lines = Array(corpus.messages.prefix(limit).map(\.line))
        datas = lines.map { Data($0) }
        bytes = lines.reduce(0) { $0 + $1.count }
    }

    func foundation() -> Int {
        var sum = 0
        for data in datas {
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] { sum &+= object.count }
        }
        return sum
    }

    func reader() -> Int {
        let reader = JSONReader()
        var sum = 0
        for line in lines {
            if case .object(let members)? = try? reader.read(line) { sum &+= members.count }
        }
        return sum
    }

    func tape() -> Int {
        var sum = 0
        for line in lines {
            if let tape = try? JSONTape.parse(line) { sum &+= Int(tape.entries[0].count) }
        }
        return sum
    }
}
