// `switchboard schema diff` and `switchboard schema --write`: wiring over ContractDiff and
// RecordedContracts (Sources/Switchboard/Contract/Evolution).

import Switchboard

/// How `schema diff` prints its result.
enum DiffFormat: String {
    /// One line per change, breaking first.
    case text
    /// `{"breaking":[…],"compatible":[…],"unknown":[…]}`.
    case json
}

/// Refuses the options of `schema diff` and `schema --write` where they do not apply.
func checkSchemaOptions(_ invocation: Invocation) throws(UsageError) {
    let isSchema = invocation.command == .schema
    if !isSchema || !invocation.diff {
        if invocation.formatGiven { throw UsageError(message: "--format is an option of schema diff") }
        if invocation.failsOnUnknown { throw UsageError(message: "--fail-on-unknown is an option of schema diff") }
    }
    if invocation.writeDirectory != nil {
        if !isSchema || invocation.diff { throw UsageError(message: "--write is an option of schema") }
        if invocation.typeScript { throw UsageError(message: "--write and --typescript cannot be used together") }
    }
    guard isSchema && invocation.diff else { return }
    if invocation.typeScript { throw UsageError(message: "--typescript is not an option of schema diff") }
    if invocation.only != nil { throw UsageError(message: "--only is not an option of schema diff") }
    if invocation.paths.isEmpty || invocation.paths.count > 2 {
        throw UsageError(
            message: "schema diff takes OLD NEW (two contract files) or DIR (recorded contracts), got "
                + "\(invocation.paths.count) path\(invocation.paths.count == 1 ? "" : "s")")
    }
}

/// Compares two contract documents, or the newest two in a directory: 0 when nothing breaks,
/// 1 when something does (or, with `--fail-on-unknown`, is unknown), 2 for unreadable input.
func runSchemaDiff(_ invocation: Invocation) -> Int32 {
    let old: ContractDocument
    let new: ContractDocument
    do {
        if invocation.paths.count == 2 {
            old = try RecordedContracts.document(at: invocation.paths[0])
            new = try RecordedContracts.document(at: invocation.paths[1])
        } else {
            let directory = invocation.paths[0]
            let recordings = try RecordedContracts(directory: directory).recordings()
            guard recordings.count >= 2 else {
                if recordings.isEmpty {
                    writeStandardError(
                        "\(programName): schema diff: \(directory): no recorded contract (VERSION.json)\n")
                    return 2
                }
                if !invocation.quiet {
                    writeStandardError(
                        "\(programName): schema diff: \(directory): only \(recordings[0].version).json, nothing to compare\n"
                    )
                }
                let empty = invocation.diffFormat == .json ? ContractDiff(old: .empty, new: .empty).json + "\n" : ""
                return writeStandardOutput(Array(empty.utf8))
            }
            let older = recordings[recordings.count - 2]
            let newer = recordings[recordings.count - 1]
            if !invocation.quiet {
                writeStandardError("\(programName): schema diff: \(older.version) → \(newer.version)\n")
            }
            old = try RecordedContracts.document(at: older.path)
            new = try RecordedContracts.document(at: newer.path)
        }
    } catch {
        writeStandardError("\(programName): schema diff: \(error.message)\n")
        return 2
    }
    let diff = ContractDiff(old: old, new: new)
    let output = invocation.diffFormat == .json ? diff.json + "\n" : diff.text
    let written = writeStandardOutput(Array(output.utf8))
    if !invocation.quiet { writeStandardError("\(programName): schema diff: \(diff.summary)\n") }
    if written != 0 { return written }
    return diff.isBreaking || (invocation.failsOnUnknown && !diff.unknown.isEmpty) ? 1 : 0
}

/// Writes the contract as DIR/VERSION.json (the version of this release): 0, or 1 when it cannot.
func writeContract(_ contract: Contract, to directory: String, quiet: Bool) -> Int32 {
    guard let release = SemanticVersion(version) else {
        writeStandardError(
            "\(programName): schema --write: this build's version \(version) is not a semantic version\n")
        return 2
    }
    do {
        let (path, changed) = try RecordedContracts(directory: directory).write(json: contract.json, version: release)
        if !quiet { writeStandardError("\(programName): \(changed ? "wrote" : "unchanged:") \(path)\n") }
        return 0
    } catch {
        writeStandardError("\(programName): schema --write: \(error.message)\n")
        return 1
    }
}

extension ContractDocument {
    /// A document without channels.
    static var empty: ContractDocument { ContractDocument(channels: [:]) }
}
