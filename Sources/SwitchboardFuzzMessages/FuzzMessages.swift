import Foundation
import Switchboard

// libFuzzer entry point for the whole message path, as the `switchboard` CLI
// runs it: bytes → line splitting → message parsing (the one strict scanner;
// JSON of another shape read as a `JSONValue`) → the router with three middleware (pass,
// stop, rewrite) and the reference commerce handlers → decoding → handlers
// and responders → reply encoding → outcome lines.
//
// The input is NDJSON as the CLI reads it (and, when it starts with `[`, also
// a `.json` document). Beside "no crash, no sanitizer report", every
// execution checks properties (see `MessagePathCheck`); a broken property is
// reported and the process aborts, which is how libFuzzer learns about it.
//
// Build and run (see .ci/fuzz):
//   bash .ci/fuzz 60 SwitchboardFuzzMessages

/// The entry point of a plain build (`swift build`), which links the target as an
/// ordinary executable whose `main` is `<module>_main`; it only says what this is.
/// Under `--sanitize=fuzzer`, libFuzzer's own `main` runs instead.
@_cdecl("SwitchboardFuzzMessages_main")
public func switchboardFuzzMessagesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
    -> CInt
{
    FileHandle.standardError.write(
        Data(
            "SwitchboardFuzzMessages is a libFuzzer target; build and run it with .ci/fuzz (docs/reliability.md)\n".utf8
        ))
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func switchboardFuzzMessages(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    MessagePathCheck(input: input).run()
    return 0
}

/// Reports a broken property and stops the process, so libFuzzer keeps the input.
func fuzzFail(_ message: @autoclosure () -> String, line: [UInt8]? = nil) -> Never {
    var text = "SwitchboardFuzzMessages: property broken: \(message())\n"
    if let line {
        text += "line: \(String(decoding: line, as: UTF8.self).debugDescription)\n"
        text += "line bytes: \(line.map { String($0, radix: 16) }.joined(separator: " "))\n"
    }
    FileHandle.standardError.write(Data(text.utf8))
    abort()
}
