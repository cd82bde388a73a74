import Foundation

/// A directory of recorded contracts, one file per release named by its version
/// (`contracts/0.1.0.json`, `contracts/1.0.0.json`): what `switchboard schema --write DIR`
/// keeps and `switchboard schema diff DIR` compares (the newest two, by semantic version).
///
/// Files whose name is not `VERSION.json` (a README, `latest.json`) are left alone.
public struct RecordedContracts: Sendable {
    /// One recorded contract: its version and its file.
    public struct Recording: Sendable, Hashable {
        /// The release's version.
        public let version: SemanticVersion
        /// The file's path.
        public let path: String
    }

    /// The directory.
    public let directory: String

    /// A directory of recorded contracts.
    /// - Parameter directory: its path.
    public init(directory: String) {
        self.directory = directory
    }

    /// The recorded contracts, oldest first.
    /// - Throws: ``ContractDocumentError`` when the directory cannot be read.
    /// - Returns: the recordings.
    public func recordings() throws(ContractDocumentError) -> [Recording] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw ContractDocumentError("\(directory): cannot list the directory (\(error.localizedDescription))")
        }
        let found = names.compactMap { name -> Recording? in
            guard name.hasSuffix(".json"), let version = SemanticVersion(String(name.dropLast(".json".count))) else {
                return nil
            }
            return Recording(version: version, path: (directory as NSString).appendingPathComponent(name))
        }
        // Two spellings of one version (`1.0.0.json`, `1.0.0+b.json`): the file name decides.
        return found.sorted { $0.version != $1.version ? $0.version < $1.version : $0.path < $1.path }
    }

    /// Writes `contract` (its canonical JSON and a newline) as the recording of `version`,
    /// creating the directory if needed and replacing an earlier recording of the same version.
    /// - Parameters:
    ///   - json: the contract's canonical JSON text (``Contract/json``).
    ///   - version: the release's version.
    /// - Throws: ``ContractDocumentError`` when the file cannot be written.
    /// - Returns: the file's path, and whether it changed (`false` when it held this text already).
    @discardableResult
    public func write(json: String, version: SemanticVersion) throws(ContractDocumentError) -> (
        path: String, changed: Bool
    ) {
        let path = (directory as NSString).appendingPathComponent(version.description + ".json")
        let data = Data((json + "\n").utf8)
        if let existing = FileManager.default.contents(atPath: path), existing == data { return (path, false) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ContractDocumentError("\(path): cannot write (\(error.localizedDescription))")
        }
        return (path, true)
    }

    /// Reads a contract document from a file.
    /// - Parameter path: the file.
    /// - Throws: ``ContractDocumentError`` naming the file when it cannot be read or is not a contract document.
    /// - Returns: the document.
    public static func document(at path: String) throws(ContractDocumentError) -> ContractDocument {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ContractDocumentError("\(path): is a directory, expected a contract file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ContractDocumentError("\(path): cannot read the file (missing or unreadable)")
        }
        do {
            return try ContractDocument(data: data)
        } catch {
            throw ContractDocumentError("\(path): \(error.message)")
        }
    }
}
