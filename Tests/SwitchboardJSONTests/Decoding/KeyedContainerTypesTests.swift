import Dispatch
import Foundation
import SwitchboardJSON
import Testing

/// A body whose key type is its own for every `Tag` (`Tagged<Int>.CodingKeys` and
/// `Tagged<[Int]>.CodingKeys` are different types): the decoders keep the container type
/// of each key type they have seen, and must hand each key type its own.
private struct Tagged<Tag>: Decodable, Sendable {
    enum CodingKeys: String, CodingKey {
        case level, name
    }

    let level: Int
    let name: String
}

/// Decodes `Tagged<Tag>`, then the same one level deeper (`Tagged<[Tag]>`), `levels` times:
/// as many distinct key types, each from bytes, from a `JSONValue` and from a Foundation tree.
private func decodeTagged<Tag>(_ tag: Tag.Type, level: Int, levels: Int) throws -> Int {
    let text = #"{"level": \#(level), "name": "level \#(level)"}"#
    let fromBytes = try MessageBody(jsonBytes: Array(text.utf8)).decode(Tagged<Tag>.self)
    let fromValue = try BodyDecoder().decode(Tagged<Tag>.self, from: JSONReader().read(text))
    let tree = try JSONSerialization.jsonObject(with: Data(text.utf8))
    let fromTree = try BodyDecoder().decode(Tagged<Tag>.self, from: tree)
    for decoded in [fromBytes, fromValue, fromTree] {
        #expect(decoded.level == level)
        #expect(decoded.name == "level \(level)")
    }
    guard level + 1 < levels else { return 1 }
    return 1 + (try decodeTagged([Tag].self, level: level + 1, levels: levels))
}

@Suite struct KeyedContainerTypesTests {
    @Test func manyKeyTypesEachGetTheirOwnContainerType() throws {
        // More key types than the first table holds, twice over (the second time all are known).
        #expect(try decodeTagged(Int.self, level: 0, levels: 40) == 40)
        #expect(try decodeTagged(Int.self, level: 0, levels: 40) == 40)
    }

    @Test func keyTypesSeenOnOtherThreadsDecodeAlike() throws {
        let failures = LockedCount()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do {
                if try decodeTagged(Int.self, level: 0, levels: 24) != 24 { failures.add() }
            } catch {
                failures.add()
            }
        }
        #expect(failures.value == 0)
    }

    @Test func aMissingKeyStillNamesItsPath() {
        let body = MessageBody(json: ["level": 1])
        #expect(throws: BodyDecodingError.self) { try body.decode(Tagged<String>.self) }
        do {
            _ = try body.decode(Tagged<String>.self)
        } catch {
            #expect(error.path == "body.name")
            #expect(error.message == "required key missing")
        }
    }
}

/// A count several threads add to.
private final class LockedCount: @unchecked Sendable {
    // `@unchecked`: every access holds the lock.
    private let lock = NSLock()
    private var count = 0

    func add() {
        lock.withLock { count += 1 }
    }

    var value: Int { lock.withLock { count } }
}
