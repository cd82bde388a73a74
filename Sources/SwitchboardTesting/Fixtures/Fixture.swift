import Foundation
import Switchboard
import SwitchboardWire

/// One message of a fixture file: `{"name": "<channel>", "body": <any JSON>, "id": <string or number>}`.
public struct FixtureMessage: Sendable {
    /// The channel name (a file's messages always have a valid one; one built
    /// in code may not, and the router then says so).
    public let name: String
    /// The body; `MessageBody.absent` when the object has no `"body"` key.
    public let body: MessageBody
    /// The `"id"`, when given (a number is kept as its exact JSON text, `1.50` stays `1.50`).
    public let id: String?
    /// Where the message is: the 1-based physical line of an `.ndjson` file, or
    /// the 1-based index of the element of a `.json` array (1 for a single object).
    public let line: Int
    /// The file the message came from, when it came from a file.
    public let source: URL?
    /// Who sent it, from `"origin"` and `"mainFrame"` (`MessageSender.unknown` without them).
    public let sender: MessageSender

    /// Creates a message.
    public init(
        name: String, body: MessageBody = .absent, id: String? = nil, line: Int = 1, source: URL? = nil,
        sender: MessageSender = .unknown
    ) {
        self.name = name
        self.body = body
        self.id = id
        self.line = line
        self.source = source
        self.sender = sender
    }
}

/// A line (or array element) of a fixture that is not a message object.
public struct MalformedFixtureLine: Sendable, CustomStringConvertible {
    /// The 1-based line (or array index) of the entry.
    public let line: Int
    /// Why it is not a message.
    public let reason: String

    /// `line N: reason`.
    public var description: String { "line \(line): \(reason)" }
}

/// The messages of one fixture file, in order, and the entries that are not messages.
///
/// Two formats, read exactly as the `switchboard` CLI reads them (through
/// Switchboard's wire reader, so the same input is a message, or malformed for
/// the same reason, in both):
/// - `*.ndjson`: one JSON message object per line; blank lines (only spaces,
///   tabs and `\r`) are skipped; a line longer than
///   `WireSession.Options.maxLineBytes` is malformed.
/// - `*.json`: one message object, or an array of them.
///
/// Parsing is strict (RFC 8259): invalid UTF-8, lone surrogates, duplicate
/// keys, trailing commas, `NaN`, nesting deeper than the reader's limit, a
/// byte-order mark anywhere but at the very start, an invalid channel name and
/// an `id` that is neither a string nor a number all make an entry malformed,
/// with the CLI's message.
///
/// ```swift
/// let fixture = try Fixture(contentsOf: url)
/// let results = await router.replay(fixture)
/// #expect(results.map(\.kind) == [.handled, .replied])
/// ```
public struct Fixture: Sendable {
    /// The file, when loaded from one.
    public let source: URL?
    /// The messages, in file order.
    public let messages: [FixtureMessage]
    /// The entries that are not message objects (replaying skips them).
    public let malformed: [MalformedFixtureLine]

    /// Creates a fixture from messages.
    public init(messages: [FixtureMessage], malformed: [MalformedFixtureLine] = [], source: URL? = nil) {
        self.messages = messages
        self.malformed = malformed
        self.source = source
    }

    /// Loads a `.json` or `.ndjson` fixture file.
    /// - Parameters:
    ///   - url: the file.
    ///   - limits: the line limit and JSON reader (nesting limit) to apply, as the CLI's `--max-line-bytes` does.
    /// - Throws: ``FixtureError`` when the file cannot be read, has another
    ///   extension, or (for `.json`) is not a JSON object or array.
    public init(contentsOf url: URL, limits: WireSession.Options = WireSession.Options()) throws(FixtureError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(url, "\(error)")
        }
        switch url.pathExtension.lowercased() {
        case "ndjson": self = Fixture(ndjson: data, source: url, limits: limits)
        case "json": self = try Fixture(json: data, source: url, limits: limits)
        default: throw .unsupportedFormat(url)
        }
    }

    /// Parses NDJSON: one message object per line, blank lines skipped, a
    /// byte-order mark at the very start stripped (as the CLI reads standard input).
    /// - Parameters:
    ///   - data: the bytes.
    ///   - source: the file they came from, if any.
    ///   - limits: the line limit and JSON reader to apply.
    public init(ndjson data: Data, source: URL? = nil, limits: WireSession.Options = WireSession.Options()) {
        var messages: [FixtureMessage] = []
        var malformed: [MalformedFixtureLine] = []
        var input = MemorySource([UInt8](data))
        let reader = WireLineReader(maxLineBytes: limits.maxLineBytes)
        do {
            try reader.forEachLine(in: &input) { (number: Int, line: WireLine) in
                switch line {
                case .oversized(let count):
                    let problem = WireMalformed.oversized(byteCount: count, limit: limits.maxLineBytes)
                    malformed.append(MalformedFixtureLine(line: number, reason: problem.message))
                case .bytes(let bytes):
                    if WireSession.isBlank(bytes) { return }
                    switch WireMessage.parse(bytes, reader: limits.reader) {
                    case .success(let message):
                        messages.append(FixtureMessage(message, line: number, source: source))
                    case .failure(let problem):
                        malformed.append(MalformedFixtureLine(line: number, reason: problem.message))
                    }
                }
            }
        } catch {
            // A memory source never fails to read, and the callback never throws.
        }
        self.init(messages: messages, malformed: malformed, source: source)
    }

    /// Parses a JSON document holding one message object or an array of them.
    /// - Parameters:
    ///   - data: the document.
    ///   - source: the file it came from, if any.
    ///   - limits: the JSON reader to apply (its nesting limit).
    /// - Throws: ``FixtureError/notAMessageDocument(_:_:)`` when it is neither,
    ///   with the message the CLI gives for it.
    public init(json data: Data, source: URL? = nil, limits: WireSession.Options = WireSession.Options())
        throws(FixtureError)
    {
        let maxDocumentBytes = WirePipeline().maxDocumentBytes
        guard data.count <= maxDocumentBytes else {
            throw .notAMessageDocument(source, WireMalformed.documentTooLarge(limit: maxDocumentBytes).message)
        }
        let root: JSONValue
        do {
            root = try WireLineReader.readDocument([UInt8](data), with: limits.reader)
        } catch {
            throw .notAMessageDocument(source, WireMalformed(readError: error).message)
        }
        let elements: [JSONValue]
        switch root {
        case .array(let array): elements = array
        case .object: elements = [root]
        default:
            throw .notAMessageDocument(source, WireMalformed.notAMessageDocument(found: root).message)
        }
        var messages: [FixtureMessage] = []
        var malformed: [MalformedFixtureLine] = []
        for (index, element) in elements.enumerated() {
            switch WireMessage.parse(value: element) {
            case .success(let message):
                messages.append(FixtureMessage(message, line: index + 1, source: source))
            case .failure(let problem):
                malformed.append(MalformedFixtureLine(line: index + 1, reason: problem.message))
            }
        }
        self.init(messages: messages, malformed: malformed, source: source)
    }

    /// Loads every `.json` and `.ndjson` fixture in `directory`, in sorted
    /// order of their paths, skipping expected-output files (`*.expected.ndjson`).
    /// - Throws: ``FixtureError`` when a file cannot be loaded, or its name is not valid UTF-8
    ///   (see ``messageFiles(in:recursively:)``).
    /// - Parameters:
    ///   - directory: the directory.
    ///   - recursively: whether to look into subdirectories too (`Fixtures/` groups its files by SDK).
    public static func load(directory: URL, recursively: Bool = false) throws(FixtureError) -> [Fixture] {
        var fixtures: [Fixture] = []
        for url in try messageFiles(in: directory, recursively: recursively) {
            fixtures.append(try Fixture(contentsOf: url))
        }
        return fixtures
    }

    /// The reason given for a fixture file (or folder) whose name is not valid UTF-8.
    static let nameNotUTF8 = "its name is not valid UTF-8 (shown here with U+FFFD), so it cannot be opened by name"

    /// The fixture files in `directory` (and its subdirectories, when `recursively`), sorted by path.
    /// - Throws: ``FixtureError/unreadable(_:_:)`` when the directory cannot be listed, or when a
    ///   fixture file in it (or a subdirectory, when `recursively`) has a name that is not valid
    ///   UTF-8, which no `URL` path could open: named with U+FFFD in place of its bad bytes.
    public static func messageFiles(in directory: URL, recursively: Bool = false) throws(FixtureError) -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .unreadable(directory, "\(error)")
        }
        // An entry whose name is not UTF-8 is missing from `names` (no `String` names it): a
        // fixture (or, recursively, a folder of them) refused by name, not skipped without a word.
        let unnamed = WireInput.namesNotUTF8(in: directory.path) { name, isDirectory in
            guard name.first != UInt8(ascii: ".") else { return false }
            return isDirectory ? recursively : Fixture.isMessageFile(String(decoding: name, as: UTF8.self))
        }
        if let name = unnamed.first {
            throw .unreadable(directory.appendingPathComponent(name), Fixture.nameNotUTF8)
        }
        var files: [URL] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                if recursively { files += try messageFiles(in: url, recursively: true) }
            } else if Fixture.isMessageFile(name) {
                files.append(url)
            }
        }
        return files
    }

    /// Whether a file name is a message fixture (`.json` / `.ndjson`, not `.expected.ndjson`).
    public static func isMessageFile(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower.hasSuffix(".expected.ndjson") || lower.hasSuffix(".expected.json") { return false }
        return lower.hasSuffix(".ndjson") || lower.hasSuffix(".json")
    }
}

extension FixtureMessage {
    /// A message read by the wire reader, at `line` of `source`.
    init(_ message: WireMessage, line: Int, source: URL?) {
        self.init(
            name: message.channel.name, body: message.body.map { MessageBody(json: $0) } ?? .absent,
            id: message.id?.text, line: line, source: source, sender: message.sender)
    }
}

/// Why a fixture file could not be loaded.
public enum FixtureError: Error, Sendable, CustomStringConvertible {
    /// The file or directory could not be read.
    case unreadable(URL, String)
    /// The file is neither `.json` nor `.ndjson`.
    case unsupportedFormat(URL)
    /// A `.json` fixture is not one message object or an array of them.
    case notAMessageDocument(URL?, String)

    /// A sentence naming the file.
    public var description: String {
        switch self {
        case .unreadable(let url, let reason): return "\(url.path): cannot be read: \(reason)"
        case .unsupportedFormat(let url): return "\(url.path): not a .json or .ndjson fixture"
        case .notAMessageDocument(let url, let reason): return "\(url?.path ?? "fixture"): \(reason)"
        }
    }
}
