import Foundation
import Switchboard
import SwitchboardWire

/// The outcome lines as the CLI writes them (docs/wire-format.md, "Output"):
/// one line each, valid JSON to the strict reader and to `JSONSerialization`,
/// keys in the documented order, a documented `outcome`, `reply` exactly for
/// `replied`, `error` exactly for `failed`, `invalid` and `malformed` (with a
/// `path` exactly for `invalid`), and `line`, `id` and `name` as the outcome says.
enum OutcomeLineCheck {
    static let keyOrder = ["line", "source", "id", "name", "outcome", "reply", "error", "differing"]

    static func check(_ outcomes: [WireOutcome]) {
        var writer = JSONWriter()
        for outcome in outcomes { outcome.write(to: &writer) }
        let text = writer.bytes
        var lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
        guard lines.last?.isEmpty == true else { fuzzFail("the outcome lines do not end with a newline") }
        lines.removeLast()
        guard lines.count == outcomes.count else {
            fuzzFail(
                "\(outcomes.count) outcomes were written as \(lines.count) lines: \(String(decoding: text, as: UTF8.self))"
            )
        }
        for (outcome, line) in zip(outcomes, lines) {
            check(outcome, line: Array(line))
        }
    }

    static func check(_ outcome: WireOutcome, line: [UInt8]) {
        func fail(_ problem: String) -> Never { fuzzFail("outcome line: \(problem)", line: line) }
        if line.contains(where: { $0 < 0x20 }) { fail("a raw control character") }
        // U+2028 and U+2029 are escaped, so the line can be pasted into JavaScript.
        for index in line.indices.dropLast(2)
        where line[index] == 0xE2 && line[index + 1] == 0x80
            && (line[index + 2] == 0xA8 || line[index + 2] == 0xA9)
        {
            fail("a raw U+2028 or U+2029")
        }
        let value: JSONValue
        do {
            value = try JSONReader().read(line)
        } catch {
            fail("the strict reader rejects it: \(error)")
        }
        guard case .object(let members) = value else { fail("not an object") }
        // Foundation refuses a number beyond Double's range, and a number id is echoed as given (`"id":1e400`).
        guard
            (try? JSONSerialization.jsonObject(with: Data(line))) is [String: Any]
                || ReaderAgreement.containsNumberBeyondDouble(value)
        else {
            fail("JSONSerialization does not read it as an object")
        }

        // Keys: documented ones, in the documented order.
        guard let tape = try? JSONTape.parse(line) else { fail("the tape reader rejects it") }
        var keys: [String] = []
        var key = 1
        while key < tape.next(0) {
            keys.append(tape.string(key))
            key = tape.next(key + 1)
        }
        let positions = keys.map { keyOrder.firstIndex(of: $0) ?? -1 }
        if positions.contains(-1) || positions != positions.sorted() || Set(keys).count != keys.count {
            fail("keys \(keys), documented: \(keyOrder) in that order")
        }

        guard members["line"] == .number(JSONNumber(outcome.line)) else { fail("line is not \(outcome.line)") }
        guard case .string(let kind)? = members["outcome"], Outcome.Kind(rawValue: kind) == outcome.kind else {
            fail("outcome is not one of \(Outcome.Kind.allCases)")
        }
        switch outcome.id {
        case .string(let id)?:
            guard case .string(let written)? = members["id"], written.unicodeScalars.elementsEqual(id.unicodeScalars)
            else { fail("id is not the string \(id.debugDescription)") }
        case .number(let id)?:
            guard case .number(let written)? = members["id"], written.text == id.text else { fail("id is not \(id)") }
        case nil:
            if members["id"] != nil { fail("an id the message did not have") }
        }
        if let name = outcome.name {
            guard case .string(let written)? = members["name"],
                written.unicodeScalars.elementsEqual(name.unicodeScalars)
            else { fail("name is not \(name.debugDescription)") }
        } else if members["name"] != nil {
            fail("a name the message did not have")
        }

        let reply = members["reply"]
        if (reply != nil) != (outcome.kind == .replied) { fail("reply present: \(reply != nil)") }
        if let reply {
            guard let replyJSON = outcome.replyJSON, let written = try? JSONReader().read(replyJSON),
                ReaderAgreement.same(reply, written, exact: true)
            else { fail("the reply is not the reply's JSON") }
        }
        if (members["differing"] != nil) != (outcome.kind == .hello) {
            fail("differing present: \(members["differing"] != nil)")
        }
        if let differing = members["differing"] {
            guard case .array(let names) = differing, names.allSatisfy({ if case .string = $0 { true } else { false } })
            else { fail("differing is not an array of names") }
        }
        let hasError = [.failed, .invalid, .malformed, .rejected].contains(outcome.kind)
        if (members["error"] != nil) != hasError { fail("error present: \(members["error"] != nil)") }
        if let error = members["error"] {
            guard case .object(let fields) = error, case .string(let message)? = fields["message"], !message.isEmpty
            else { fail("error has no message") }
            let path = fields["path"]
            if outcome.kind == .invalid {
                guard case .string(let text)? = path, text.hasPrefix("body") else {
                    fail("invalid without a body path")
                }
            } else if path != nil {
                fail("a path for \(outcome.kind)")
            }
            // The envelope's fields: a known `kind` always, `channel` when the line names a valid
            // channel (then it is the line's `name`), `data` only for a failed responder.
            guard case .string(let kind)? = fields["kind"], ErrorKind(rawValue: kind) != nil else {
                fail("error has no known kind")
            }
            if let channel = fields["channel"] {
                guard case .string(let name) = channel, name == outcome.name else {
                    fail("error's channel is not the line's name")
                }
            }
            if fields["data"] != nil, outcome.kind != .failed { fail("data for \(outcome.kind)") }
            let known: Set<String> = ["kind", "channel", "path", "message", "data"]
            if !Set(fields.keys).isSubset(of: known) { fail("error holds more than the envelope and path") }
        }
        if members.count != keys.count { fail("duplicate keys") }
    }
}
