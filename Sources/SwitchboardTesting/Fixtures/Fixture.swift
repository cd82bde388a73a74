import Foundation
import Switchboard

/// One message of a fixture file: `{"name": "<channel>", "body": <any JSON>, "id": <string or number>}`.
public struct FixtureMessage: Sendable {
    /// The channel name, as written (it may be invalid; the router then says so).
    public let name: String
    /// The body; ``MessageBody/absent`` when the object has no `"body"` key.
    public let body: MessageBody
    /// The `"id"`, when given (a number is kept as its text).
    public let id: String?
    /// Where the message is: the 1-based physical line of an `.ndjson` file, or
    /// the 1-based index of the element of a `.json` array (1 for a single object).
    public let line: Int
    /// The file the message came from, when it came from a file.
    public let source: URL?

    /// Creates a message.
    public init(name: String, body: MessageBody = .absent, id: String? = nil, line: Int = 1, source: URL? = nil) {
        self.name = name
        self.body = body
        self.id = id
        self.line = line
        self.source = source
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
/// Two formats, as the `switchboard` CLI reads them:
/// - `*.ndjson`: one JSON message object per line; blank lines are skipped.
/// - `*.json`: one message object, or an array of them.
///
/// ```swift
/// let fixture = try Fixture(contentsOf: url)
/// let results = await router.replay(fixture)
/// #expect(results.map(\.kind) == ["handled", "replied"])
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
    /// - Throws: ``FixtureError`` when the file cannot be read, has another
    ///   extension, or (for `.json`) is not a JSON object or array.
    public init(contentsOf url: URL) throws(FixtureError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(url, "\(error)")
        }
        switch url.pathExtension.lowercased() {
        case "ndjson": self = Fixture(ndjson: data, source: url)
        case "json": self = try Fixture(json: data, source: url)
        default: throw .unsupportedFormat(url)
        }
    }

    /// Parses NDJSON: one message object per line, blank lines skipped.
    public init(ndjson data: Data, source: URL? = nil) {
        var messages: [FixtureMessage] = []
        var malformed: [MalformedFixtureLine] = []
        let bytes = [UInt8](data)
        var start = 0
        var line = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            line += 1
            var slice = bytes[start..<end]
            if slice.last == 0x0D { slice = slice.dropLast() }
            start = end + 1
            if slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                if end == bytes.count { break }
                continue
            }
            switch Fixture.message(from: Data(slice), line: line, source: source) {
            case .success(let message): messages.append(message)
            case .failure(let problem): malformed.append(MalformedFixtureLine(line: line, reason: problem.reason))
            }
        }
        self.init(messages: messages, malformed: malformed, source: source)
    }

    /// Parses a JSON document holding one message object or an array of them.
    /// - Throws: ``FixtureError/notAMessageDocument(_:_:)`` when it is neither.
    public init(json data: Data, source: URL? = nil) throws(FixtureError) {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw .notAMessageDocument(source, "not JSON: \(error)")
        }
        let elements: [Any]
        if let array = root as? [Any] {
            elements = array
        } else if root is [String: Any] {
            elements = [root]
        } else {
            throw .notAMessageDocument(source, "expected a message object or an array of them")
        }
        var messages: [FixtureMessage] = []
        var malformed: [MalformedFixtureLine] = []
        for (index, element) in elements.enumerated() {
            switch Fixture.message(from: element, line: index + 1, source: source) {
            case .success(let message): messages.append(message)
            case .failure(let problem): malformed.append(MalformedFixtureLine(line: index + 1, reason: problem.reason))
            }
        }
        self.init(messages: messages, malformed: malformed, source: source)
    }

    /// Loads every `.json` and `.ndjson` fixture in `directory`, in sorted
    /// order of their paths, skipping expected-output files (`*.expected.ndjson`).
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

    /// The fixture files in `directory` (and its subdirectories, when `recursively`), sorted by path.
    public static func messageFiles(in directory: URL, recursively: Bool = false) throws(FixtureError) -> [URL] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .unreadable(directory, "\(error)")
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

    struct Problem: Error {
        let reason: String
    }

    static func message(from line: Data, line number: Int, source: URL?) -> Result<FixtureMessage, Problem> {
        guard String(data: line, encoding: .utf8) != nil else { return .failure(Problem(reason: "not valid UTF-8")) }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed])
        } catch {
            return .failure(Problem(reason: "not JSON"))
        }
        return message(from: object, line: number, source: source)
    }

    static func message(from object: Any, line: Int, source: URL?) -> Result<FixtureMessage, Problem> {
        guard let object = object as? [String: Any] else {
            return .failure(Problem(reason: "not a JSON object"))
        }
        guard let name = object["name"] as? String else {
            return .failure(Problem(reason: "no string \"name\""))
        }
        var id: String?
        switch object["id"] {
        case nil, is NSNull: id = nil
        case let text as String: id = text
        case let number as NSNumber where !Fixture.isBool(number): id = number.stringValue
        default: return .failure(Problem(reason: "\"id\" is neither a string nor a number"))
        }
        let body = object.keys.contains("body") ? MessageBody(object["body"]) : .absent
        return .success(FixtureMessage(name: name, body: body, id: id, line: line, source: source))
    }

    /// Whether an `NSNumber` from `JSONSerialization` holds a Boolean.
    static func isBool(_ number: NSNumber) -> Bool {
        // Foundation gives Booleans their own NSNumber subclass (`__NSCFBoolean`) on every platform.
        String(describing: type(of: number)).contains("Boolean")
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
