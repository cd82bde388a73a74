import Foundation
import Switchboard

/// One input of a wire session: standard input, a file, or bytes in memory,
/// read as NDJSON (one message per line) or as a `.json` document (one message
/// object, or an array of them).
public struct WireInput: Sendable, Hashable, CustomStringConvertible {
    /// How the input is read.
    public enum Format: Sendable, Hashable {
        /// One message per line; blank lines are skipped.
        case ndjson
        /// One message object, or an array of message objects, read as one document.
        case json
    }

    enum Origin: Sendable, Hashable {
        case standardInput
        case file(String)
        case bytes([UInt8])
    }

    /// How the input is read.
    public let format: Format
    let origin: Origin
    /// What outcome lines echo as `"source"`: the path for files, `nil` for standard input.
    public let source: String?

    init(format: Format, origin: Origin, source: String?) {
        self.format = format
        self.origin = origin
        self.source = source
    }

    /// Standard input, read as NDJSON.
    public static let standardInput = WireInput(format: .ndjson, origin: .standardInput, source: nil)

    /// Bytes in memory (tests, fixture replay).
    /// - Parameters:
    ///   - bytes: the input.
    ///   - format: how to read it.
    ///   - source: what outcome lines echo as `"source"`, if anything.
    public static func bytes(_ bytes: [UInt8], format: Format = .ndjson, source: String? = nil) -> WireInput {
        WireInput(format: format, origin: .bytes(bytes), source: source)
    }

    /// A file, read as NDJSON when its name ends in `.ndjson` and as a document when it ends in `.json`.
    /// - Throws: ``WireInputError`` for another extension.
    public static func file(_ path: String) throws(WireInputError) -> WireInput {
        if path.hasSuffix(".ndjson") { return WireInput(format: .ndjson, origin: .file(path), source: path) }
        if path.hasSuffix(".json") { return WireInput(format: .json, origin: .file(path), source: path) }
        throw .unsupportedFile(path)
    }

    /// Turns command-line paths into inputs, checking that each can be read.
    ///
    /// - No path, or `-`: standard input.
    /// - A `.ndjson` or `.json` file: that file.
    /// - A directory: its `.json` and `.ndjson` files (not its subdirectories), in
    ///   sorted order, leaving out `*.expected.ndjson` (expected outputs).
    /// - Throws: ``WireInputError`` for a path that does not exist, cannot be
    ///   read, or is neither a directory nor a `.json`/`.ndjson` file.
    public static func resolve(_ paths: [String]) throws(WireInputError) -> [WireInput] {
        if paths.isEmpty { return [.standardInput] }
        var inputs: [WireInput] = []
        let files = FileManager.default
        for path in paths {
            if path == "-" {
                inputs.append(.standardInput)
                continue
            }
            var isDirectory: ObjCBool = false
            guard files.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .notFound(path) }
            if isDirectory.boolValue {
                let names: [String]
                do {
                    names = try files.contentsOfDirectory(atPath: path)
                } catch {
                    throw .unreadable(path)
                }
                let separator = path.hasSuffix("/") ? "" : "/"
                // A message file whose name is not UTF-8 cannot be named by a `String` (Foundation
                // leaves it out of `names`): refused, not skipped without a word.
                if let unnamed = WireInput.messageFileNamesNotUTF8(in: path).first {
                    throw .unreadable(path + separator + unnamed)
                }
                for name in names.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
                where (name.hasSuffix(".ndjson") || name.hasSuffix(".json")) && !name.hasSuffix(".expected.ndjson") {
                    let child = path + separator + name
                    var childIsDirectory: ObjCBool = false
                    guard files.fileExists(atPath: child, isDirectory: &childIsDirectory), !childIsDirectory.boolValue
                    else { continue }
                    guard files.isReadableFile(atPath: child) else { throw .unreadable(child) }
                    inputs.append(try file(child))
                }
            } else {
                let input = try file(path)
                guard files.isReadableFile(atPath: path) else { throw .unreadable(path) }
                inputs.append(input)
            }
        }
        return inputs
    }

    /// The names (repaired for display) of the directory's `.json` and `.ndjson` entries whose
    /// names are not valid UTF-8: the files the listing below would read (not `.expected.ndjson`
    /// files, not directories), had their names been UTF-8.
    static func messageFileNamesNotUTF8(in directory: String) -> [String] {
        namesNotUTF8(in: directory) { name, isDirectory in
            let isMessageFile =
                (name.count > 5 && name.suffix(5).elementsEqual(".json".utf8))
                || (name.count > 7 && name.suffix(7).elementsEqual(".ndjson".utf8))
            let isExpected = name.count > 16 && name.suffix(16).elementsEqual(".expected.ndjson".utf8)
            return isMessageFile && !isExpected && !isDirectory
        }
    }

    /// The names (repaired for display, U+FFFD for each bad sequence) of the directory's entries
    /// whose names are not valid UTF-8 and that `including` keeps, given the name's bytes and
    /// whether the entry is a directory. Read as bytes with `readdir(3)`: Foundation's listing
    /// leaves such a name out, since no `String` names it, so a reader of the listing would skip
    /// the file without a word. `[]` when the directory cannot be opened.
    package static func namesNotUTF8(
        in directory: String, including: (_ name: [UInt8], _ isDirectory: Bool) -> Bool
    ) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var found: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw -> [UInt8] in
                Array(raw.prefix { $0 != 0 })
            }
            // Decoding repairs what is not UTF-8 (U+FFFD), so such a name does not come back the same.
            let decoded = String(decoding: name, as: UTF8.self)
            guard !decoded.utf8.elementsEqual(name) else { continue }
            if including(name, Int(entry.pointee.d_type) == Int(DT_DIR)) { found.append(decoded) }
        }
        return found.sorted()
    }

    /// `stdin`, or the path.
    public var description: String {
        switch origin {
        case .standardInput: return "stdin"
        case .file(let path): return path
        case .bytes: return source ?? "bytes"
        }
    }
}

/// A command-line path that cannot be an input.
public enum WireInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing exists at the path.
    case notFound(String)
    /// The path cannot be read.
    case unreadable(String)
    /// The file's name ends neither in `.json` nor in `.ndjson`.
    case unsupportedFile(String)

    /// A sentence naming the path.
    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such file or directory"
        case .unreadable(let path): return "\(path): cannot be read"
        case .unsupportedFile(let path): return "\(path): not a .json or .ndjson file, nor a directory"
        }
    }
}
