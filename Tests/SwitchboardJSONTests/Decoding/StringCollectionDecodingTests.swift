import Foundation
import SwitchboardJSON
import Testing

/// A string decoded through its own `init(from:)`: arrays of it take the generic path.
private struct Word: Decodable, Equatable {
    let text: String

    init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
    }
}

/// `[String]` and `[String: String]` are read in one pass; whatever that pass declines
/// (another element type, a null, too deep) goes through `init(from:)`, so values and
/// errors are those of the generic path, from every source.
@Suite struct StringCollectionDecodingTests {
    /// `text` as each source holds it.
    private func bodies(_ text: String) throws -> [(String, MessageBody)] {
        let bytes = Array(text.utf8)
        return [
            ("foundation", MessageBody(try JSONSerialization.jsonObject(with: Data(bytes)))),
            ("json value", MessageBody(json: try JSONReader().read(bytes))),
            ("bytes", try MessageBody(jsonBytes: bytes)),
        ]
    }

    /// The decoded strings, or the error as `path: message`.
    private func outcome<T: Decodable>(
        _ type: T.Type, _ body: MessageBody, options: DecodingOptions, _ strings: (T) -> [String]
    ) -> String {
        do {
            return strings(try body.decode(T.self, options: options)).joined(separator: "|")
        } catch {
            return error.description
        }
    }

    @Test func stringArraysDecodeAsTheGenericPathDoes() throws {
        let texts = [
            #"{"v":["a","é\n","\u2028",""]}"#, #"{"v":[]}"#, #"{"v":["a",1]}"#, #"{"v":["a",null]}"#,
            #"{"v":"a"}"#, #"{"v":null}"#, #"{"v":[["a"]]}"#, #"{"v":{"a":"b"}}"#,
        ]
        for text in texts {
            for (source, body) in try bodies(text) {
                for depth in [1, 2, 3, 512] {
                    let options = DecodingOptions(maxDepth: depth)
                    let fast = outcome(Box<[String]>.self, body, options: options) { $0.v }
                    let generic = outcome(Box<[Word]>.self, body, options: options) { $0.v.map(\.text) }
                    #expect(fast == generic, "\(source) \(text) maxDepth \(depth)")
                }
            }
        }
        let body = try MessageBody(jsonBytes: Array(#"{"v":["a",1]}"#.utf8))
        #expect(throws: BodyDecodingError.self) { try body.decode(Box<[String]>.self) }
        let error = outcome(Box<[String]>.self, body, options: DecodingOptions()) { $0.v }
        #expect(error == "body.v[1]: expected a string, found 1")
    }

    @Test func stringDictionariesDecodeAsTheGenericPathDoes() throws {
        let texts = [#"{"v":{"a":"b","c":""}}"#, #"{"v":{"a":1}}"#, #"{"v":{"a":null}}"#, #"{"v":["a"]}"#]
        for text in texts {
            for (source, body) in try bodies(text) {
                for depth in [1, 2, 512] {
                    let options = DecodingOptions(maxDepth: depth)
                    let fast = outcome(Box<[String: String]>.self, body, options: options) {
                        $0.v.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                    }
                    let generic = outcome(Box<[String: Word]>.self, body, options: options) {
                        $0.v.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.text)" }
                    }
                    #expect(fast == generic, "\(source) \(text) maxDepth \(depth)")
                }
            }
        }
    }
}
