import Switchboard

/// A wire message read with the strict tape reader: the name and id read off
/// the tape, the body left on it (the handler's decoder reads it there).
///
/// Only the well-formed case is taken: an object whose `name` is a string
/// that is a valid channel name, whose `id`, if any, is a string or a
/// number, whose `origin`, if any, is a string and whose `mainFrame`, if any,
/// is a boolean. Any other JSON goes to ``WireMessage/parse(value:)`` as a
/// ``JSONValue`` built from the tape, which says what is wrong with it; a line
/// that is not JSON is reported with the scanner's ``JSONReadError``. Either
/// way the line is scanned once.
package enum WireTapeMessage {
    /// A line parsed onto a tape, its `name`, `id` and `body` members found: the part of
    /// reading a message that needs no session (``WirePipeline`` does it on its reading thread).
    package struct Scanned: Sendable {
        let tape: JSONTape
        let name: Int
        let id: Int?
        let body: Int?
        /// The `origin` member's value (a string) and the `mainFrame` member's (a boolean).
        let origin: Int?
        let mainFrame: Int?
    }

    /// What scanning a line found.
    package enum Scan: Sendable {
        /// An object with a string `name` (and a string or number `id`, if any), its members found.
        case message(Scanned)
        /// JSON of another shape, or with an escaped key (which may spell one of ours):
        /// for ``WireMessage/parse(value:)``, which says what is wrong with it.
        case other(JSONTape)
        /// Not JSON: what the scanner found wrong, and where.
        case rejected(Rejection)
    }

    /// Why a line is not JSON (boxed: the common cases stay small to pass around).
    package final class Rejection: Sendable {
        let error: JSONReadError

        init(_ error: JSONReadError) {
            self.error = error
        }
    }

    /// Scans `line` (the package's one strict scanner) and finds its members.
    static func scan(_ line: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Scan {
        let tape: JSONTape
        do {
            tape = try JSONTape.read(line, maxDepth: maxDepth)
        } catch {
            return .rejected(Rejection(error))
        }
        guard tape.kind(0) == .object else { return .other(tape) }
        var name: Int?
        var id: Int?
        var body: Int?
        var origin: Int?
        var mainFrame: Int?
        // One pass over the members (keys are unique on a tape).
        var key = 1
        let end = tape.next(0)
        while key < end {
            let text = tape.text(key)
            if tape.entries[key].flags & JSONTape.Flags.escaped != 0 {
                // An escaped key may still spell one of ours: read the message as a `JSONValue`.
                return .other(tape)
            }
            switch text.count {
            case 4
            where text[0] == UInt8(ascii: "n") && text[1] == UInt8(ascii: "a") && text[2] == UInt8(ascii: "m")
                && text[3] == UInt8(ascii: "e"):
                name = key + 1
            case 4
            where text[0] == UInt8(ascii: "b") && text[1] == UInt8(ascii: "o") && text[2] == UInt8(ascii: "d")
                && text[3] == UInt8(ascii: "y"):
                body = key + 1
            case 2 where text[0] == UInt8(ascii: "i") && text[1] == UInt8(ascii: "d"):
                id = key + 1
            case 6 where WireTapeMessage.equals(text, "origin"):
                origin = key + 1
            case 9 where WireTapeMessage.equals(text, "mainFrame"):
                mainFrame = key + 1
            default:
                break
            }
            key = tape.next(key + 1)
        }
        guard let name, tape.kind(name) == .string else { return .other(tape) }
        if let id {
            switch tape.kind(id) {
            case .string, .number: break
            default: return .other(tape)
            }
        }
        // Wrong types are malformed: `WireMessage/parse(value:)` says so.
        if let origin, tape.kind(origin) != .string { return .other(tape) }
        if let mainFrame, tape.kind(mainFrame) != .true && tape.kind(mainFrame) != .false { return .other(tape) }
        return .message(Scanned(tape: tape, name: name, id: id, body: body, origin: origin, mainFrame: mainFrame))
    }

    /// Whether a key's bytes are `key` (an ASCII literal).
    private static func equals(_ text: UnsafeBufferPointer<UInt8>, _ key: StaticString) -> Bool {
        guard text.count == key.utf8CodeUnitCount else { return false }
        return key.withUTF8Buffer { literal in text.elementsEqual(literal) }
    }

    /// The channel a scanned line names, as `router` keys it; `nil` when its name is not a valid channel name
    /// (the caller reads the tape's value with ``WireMessage/parse(value:)``, which says so).
    ///
    /// The message's parts are read one by one (``channel(of:channels:)``, ``id(of:)``,
    /// ``body(of:)``, ``sender(of:)``) and handed straight to the session: a struct holding
    /// them all, made and then taken apart once per line, would be copied and destroyed field
    /// by field through the runtime's value witnesses.
    static func channel(
        of scanned: borrowing Scanned, channels: inout WireChannelCache, router: Router
    ) -> Router.ChannelKey? {
        let tape = scanned.tape
        let name = scanned.name
        let escaped = tape.entries[name].flags & JSONTape.Flags.escaped != 0
        if !escaped, let cached = channels.channel(named: tape.text(name)) { return cached }
        guard let validated = try? Channel(validating: tape.string(name)) else { return nil }
        let key = router.key(for: validated)
        if !escaped { channels.insert(key, named: tape.text(name)) }
        return key
    }

    /// The message's `id`, if it has one (a string, or a number as its text).
    static func id(of scanned: borrowing Scanned) -> WireID? {
        guard let id = scanned.id else { return nil }
        let tape = scanned.tape
        switch tape.kind(id) {
        case .string: return .string(tape.string(id))
        default: return .number(JSONNumber(unchecked: JSONTape.validatedString(tape.text(id), isASCII: true)))
        }
    }

    /// The message's body, left on the tape (``MessageBody/absent`` when it has none).
    static func body(of scanned: borrowing Scanned) -> MessageBody {
        guard let body = scanned.body else { return .absent }
        return MessageBody(tape: scanned.tape, index: body)
    }

    /// Who sent the message: ``MessageSender/unknown`` unless it has `origin` or `mainFrame`.
    static func sender(of scanned: borrowing Scanned) -> MessageSender {
        if scanned.origin == nil && scanned.mainFrame == nil { return .unknown }
        let tape = scanned.tape
        return MessageSender(
            originText: scanned.origin.map { tape.string($0) },
            isMainFrame: scanned.mainFrame.map { tape.kind($0) == .true })
    }
}
