import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Creates the entry `directory/<name>` through the C API (the name is bytes, not a `String`,
/// so it may hold bytes UTF-8 never does, as 0xFF): a file holding `contents`, or a folder when
/// `folder`, or a symbolic link to `linkTo` when given. Returns the entry's path bytes, or nil when the file system refuses the name as not
/// UTF-8 (`EILSEQ`: APFS and HFS+ do): such a name cannot exist there, so the caller returns
/// early. Any other failure throws ``EntryCreationFailure``.
public func makeEntryNamed(
    _ name: [UInt8], in directory: URL, folder: Bool = false, contents: [UInt8] = [], linkTo: URL? = nil
) throws -> [UInt8]? {
    let path = Array(directory.path.utf8) + [UInt8(ascii: "/")] + name
    let cPath = (path + [0]).map { CChar(bitPattern: $0) }
    let failure: Int32? = cPath.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return EINVAL }
        if let linkTo { return symlink(linkTo.path, base) == 0 ? nil : errno }
        if folder { return mkdir(base, 0o755) == 0 ? nil : errno }
        let descriptor = open(base, O_CREAT | O_WRONLY, 0o644)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        return written == contents.count ? nil : (written < 0 ? errno : EIO)
    }
    if failure == EILSEQ { return nil }
    if let failure { throw EntryCreationFailure(path: String(decoding: path, as: UTF8.self), errno: failure) }
    return path
}

/// The file system refused to make an entry for a reason other than its name's encoding.
public struct EntryCreationFailure: Error, CustomStringConvertible {
    /// The entry's path (invalid UTF-8 shown as U+FFFD).
    public let path: String
    /// The C library's error number.
    public let errno: Int32

    public var description: String { "cannot make \(path): errno \(errno)" }
}
