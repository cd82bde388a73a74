import Foundation
import SwitchboardJSON
import Testing

/// What an unusual `init(from:)` read, as text, to compare with what `JSONDecoder` reads.
private struct Hostile: Decodable, Equatable {
    let seen: [String]

    private enum Keys: String, CodingKey { case a, b, list }

    /// Fails after reading `a`, so that its caller catches the error and goes on.
    private struct FailsMidway: Decodable {
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            _ = try container.decode(Int.self, forKey: .a)
            _ = try container.decode(String.self, forKey: .a)
        }
    }

    init(from decoder: any Decoder) throws {
        var seen: [String] = []
        let container = try decoder.container(keyedBy: Keys.self)
        // The same key twice, and a key between.
        seen.append("\(try container.decode(Int.self, forKey: .a))")
        seen.append("\(try container.decode(Int.self, forKey: .b))")
        seen.append("\(try container.decode(Int.self, forKey: .a))")
        // A value that fails midway, caught: the decoder is where it was.
        seen.append("\((try? container.decode(FailsMidway.self, forKey: .list)) == nil)")
        seen.append("\((try? decoder.singleValueContainer().decode(FailsMidway.self)) == nil)")
        seen.append(decoder.codingPath.map(\.stringValue).joined(separator: "."))
        // An element that fails midway is not consumed; the next read gets it.
        var list = try container.nestedUnkeyedContainer(forKey: .list)
        seen.append("\((try? list.decode(FailsMidway.self)) == nil) \(list.currentIndex)")
        seen.append("\(try list.decode([String: Int].self).sorted { $0.key < $1.key })")
        // superDecoder: of a member, of a missing key, of the next element.
        seen.append("\(try Int(from: container.superDecoder(forKey: .b)))")
        seen.append("\(try container.superDecoder(forKey: .list).codingPath.map(\.stringValue))")
        seen.append("\(try Int?(from: try container.superDecoder()) as Any)")
        seen.append("\(try String(from: try list.superDecoder()))")
        // Another body decoded on this thread, in the middle of this one.
        let inner = try MessageBody(jsonBytes: Array(#"{"a":7,"b":8,"list":[{"a":1},"x"]}"#.utf8))
        seen.append("\(try inner.decode(Inner.self).values)")
        seen.append("\(try container.decode(Int.self, forKey: .b))")
        self.seen = seen
    }

    /// Reads `a` and `b`, decoding a `Hostile`-free body of its own type on the way.
    private struct Inner: Decodable {
        let values: [Int]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            values = [try container.decode(Int.self, forKey: .b), try container.decode(Int.self, forKey: .a)]
        }
    }
}

/// `init(from:)` implementations that do unusual but legal things read what `JSONDecoder`
/// reads, from every body source.
@Suite struct HostileDecodableTests {
    @Test func unusualButLegalReadsAgreeWithJSONDecoderOnEverySource() throws {
        let text = #"{"b":2,"a":1,"list":[{"a":3},"s"]}"#
        let expected = try JSONDecoder().decode(Hostile.self, from: Data(text.utf8))
        #expect(expected.seen.count == 14)
        let bodies: [(String, MessageBody)] = [
            ("bytes", try MessageBody(jsonBytes: Array(text.utf8))),
            ("json value", MessageBody(json: try JSONReader().read(text))),
            ("foundation", MessageBody(try JSONSerialization.jsonObject(with: Data(text.utf8)))),
        ]
        for (name, body) in bodies {
            #expect(try body.decode(Hostile.self) == expected, "\(name)")
        }
    }
}
