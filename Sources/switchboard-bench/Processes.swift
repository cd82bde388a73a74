import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A finished child process: how long it took, how it ended, its peak memory.
struct ChildRun {
    /// Wall-clock time from spawn to exit, in nanoseconds.
    let nanoseconds: UInt64
    /// The exit status (or 128 + signal).
    let status: Int32
    /// Peak resident set size in bytes (`wait4`'s `ru_maxrss`).
    let maxResidentBytes: Int
    /// User plus system CPU time, in nanoseconds.
    let cpuNanoseconds: UInt64
}

enum ProcessError: Error, CustomStringConvertible {
    case spawn(String, Int32)
    case io(String)

    var description: String {
        switch self {
        case .spawn(let path, let code): return "cannot start \(path): \(String(cString: strerror(code)))"
        case .io(let what): return what
        }
    }
}

/// Where stdin of a child comes from.
enum ChildInput {
    /// A file, opened read-only.
    case file(String)
    /// A pipe the benchmark fills from another thread with `produce` (which gets the write end).
    case generated(@Sendable (Int32) -> Void)
}

enum Processes {
    /// The first executable called `name` on `PATH`, or `nil`.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The directory of this executable (`/proc/self/exe` on Linux, Foundation's
    /// `Bundle.main.executablePath` elsewhere).
    static func ownDirectory() -> String {
        var path = CommandLine.arguments[0]
        #if os(Linux)
            var buffer = [CChar](repeating: 0, count: 4096)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if length > 0 {
                path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        #else
            // On Darwin Foundation asks dyld (`_NSGetExecutablePath(3)`); there is no /proc.
            if let executable = Bundle.main.executablePath { path = executable }
        #endif
        return (path as NSString).deletingLastPathComponent
    }

    /// Runs `arguments` (the first is the executable's path) with stdin from
    /// `input` and stdout into `outputPath`; waits for it and reads its usage.
    ///
    /// The child is started by a small launcher (this executable again, with
    /// `--launch`): Linux carries the peak RSS of the process that spawned a
    /// child over into the child's `ru_maxrss`, and the benchmark itself holds
    /// the corpus (well over 100 MiB), while the launcher holds next to nothing.
    static func run(
        _ arguments: [String], input: ChildInput, outputPath: String = "/dev/null", errorPath: String = "/dev/null"
    ) throws -> ChildRun {
        let resultPath = NSTemporaryDirectory() + "switchboard-bench-launch-\(getpid()).txt"
        defer { unlink(resultPath) }
        let launcher = ownDirectory() + "/" + ((CommandLine.arguments[0] as NSString).lastPathComponent)
        let launch = [launcher, "--launch", outputPath, errorPath, resultPath, "--"] + arguments
        let outer = try spawn(launch, input: input, outputPath: "/dev/null", errorPath: "/dev/null")
        guard outer.status == 0, let text = try? String(contentsOfFile: resultPath, encoding: .utf8) else {
            throw ProcessError.io("the launcher for \(arguments[0]) failed (exit \(outer.status))")
        }
        let fields = text.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard fields.count == 4 else { throw ProcessError.io("the launcher for \(arguments[0]) said \(text)") }
        if fields[1] == 127 + 128 { throw ProcessError.spawn(arguments[0], Int32(fields[0])) }
        return ChildRun(
            nanoseconds: UInt64(fields[0]), status: Int32(fields[1]), maxResidentBytes: fields[2],
            cpuNanoseconds: UInt64(fields[3]))
    }

    /// The launcher's side of ``run(_:input:outputPath:errorPath:)``: `--launch
    /// OUT ERR RESULT -- COMMAND…` runs COMMAND with this process's stdin, its
    /// stdout into OUT and stderr into ERR, and writes "nanoseconds status
    /// maxrss-bytes cpu-nanoseconds" to RESULT.
    static func launch(_ arguments: ArraySlice<String>) -> Never {
        let parts = Array(arguments)
        guard parts.count >= 5, parts[3] == "--" else { exit(2) }
        let command = Array(parts[4...])
        let text: String
        do {
            let run = try spawn(command, input: nil, outputPath: parts[0], errorPath: parts[1])
            text = "\(run.nanoseconds) \(run.status) \(run.maxResidentBytes) \(run.cpuNanoseconds)\n"
        } catch ProcessError.spawn(_, let code) {
            text = "\(code) 255 0 0\n"
        } catch {
            exit(1)
        }
        guard FileManager.default.createFile(atPath: parts[2], contents: Data(text.utf8)) else { exit(1) }
        exit(0)
    }

    // Linux (glibc <spawn.h>): `posix_spawn_file_actions_t` is a struct, initialised in place.
    // Darwin (<spawn.h>, posix_spawn_file_actions_init(3)): it is `typedef void *`, imported as
    // an optional pointer that `posix_spawn_file_actions_init` allocates; it starts `nil`.
    #if os(Linux)
        typealias FileActions = posix_spawn_file_actions_t
        static func emptyFileActions() -> FileActions { posix_spawn_file_actions_t() }
    #else
        typealias FileActions = posix_spawn_file_actions_t?
        static func emptyFileActions() -> FileActions { nil }
    #endif

    /// Starts `arguments` with `posix_spawn`: the file actions `configure` adds, this process's
    /// environment (built from Foundation's copy: `environ` is not visible to Swift on Darwin,
    /// whose crt_externs.h has `_NSGetEnviron()` instead).
    /// - Returns: the child's pid, `posix_spawn`'s result, and the clock read just before the spawn.
    static func posixSpawn(
        _ arguments: [String], configure: (inout FileActions) throws -> Void
    ) rethrows -> (pid: pid_t, code: Int32, start: UInt64) {
        var actions = emptyFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        try configure(&actions)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var envp: [UnsafeMutablePointer<CChar>?] = ProcessInfo.processInfo.environment.map {
            strdup("\($0.key)=\($0.value)")
        }
        envp.append(nil)
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let start = nowNanoseconds()
        let code = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        return (pid, code, start)
    }

    /// Spawns `arguments` directly (stdin from `input`, or inherited when `nil`) and waits for it.
    static func spawn(
        _ arguments: [String], input: ChildInput?, outputPath: String, errorPath: String
    ) throws -> ChildRun {
        var pipeEnds: [Int32] = [-1, -1]
        let (pid, code, start) = try posixSpawn(arguments) { actions in
            switch input {
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
            case .generated:
                guard pipe(&pipeEnds) == 0 else { throw ProcessError.io("pipe failed") }
                posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
                posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
                posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
            case nil:
                break
            }
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        guard code == 0 else {
            if pipeEnds[0] >= 0 {
                close(pipeEnds[0])
                close(pipeEnds[1])
            }
            throw ProcessError.spawn(arguments[0], code)
        }
        var producer: Thread?
        if case .generated(let produce) = input {
            close(pipeEnds[0])
            let writeEnd = pipeEnds[1]
            let thread = Thread {
                produce(writeEnd)
                close(writeEnd)
            }
            thread.start()
            producer = thread
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = nowNanoseconds() - start
        _ = producer
        let exit: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        func nanoseconds(_ time: timeval) -> UInt64 {
            UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1000
        }
        // `ru_maxrss` is in KiB on Linux (getrusage(2)) and in bytes on Darwin (getrusage(2) of macOS).
        #if os(Linux)
            let maxResidentBytes = Int(usage.ru_maxrss) * 1024
        #else
            let maxResidentBytes = Int(usage.ru_maxrss)
        #endif
        return ChildRun(
            nanoseconds: elapsed, status: exit, maxResidentBytes: maxResidentBytes,
            cpuNanoseconds: nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime))
    }

    /// Writes all of `bytes` to `descriptor`; `false` if the reader went away.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Counts the lines of a file, and how many contain `needle`.
    static func countLines(of path: String, containing needles: [String]) -> (lines: Int, matches: [Int]) {
        guard let data = FileManager.default.contents(atPath: path) else { return (0, needles.map { _ in 0 }) }
        var lines = 0
        var matches = needles.map { _ in 0 }
        let needleBytes = needles.map { Array($0.utf8) }
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var lineStart = 0
            for index in 0..<bytes.count where bytes[index] == 0x0A {
                lines += 1
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<index])
                for (needleIndex, needle) in needleBytes.enumerated() where contains(line, needle) {
                    matches[needleIndex] += 1
                }
                lineStart = index + 1
            }
        }
        return (lines, matches)
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count, let first = needle.first else { return needle.isEmpty }
        var index = 0
        while index + needle.count <= haystack.count {
            if haystack[index] == first {
                var matched = 1
                while matched < needle.count && haystack[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return true }
            }
            index += 1
        }
        return false
    }
}
