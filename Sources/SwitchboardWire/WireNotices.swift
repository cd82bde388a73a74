import Switchboard

/// A line the wire format writes that is not a message's outcome: a push from the app, or the
/// router's manifest (with `--push`):
/// ```json
/// {"manifest":{"channels":["addCartLine",…],"features":{…},"contract":"sha256:…","pushes":["cartChanged"],"contracts":{…}}}
/// {"push":"cartChanged","body":{"offers":[],"price":"0","priceCurrency":"","lines":[…]}}
/// ```
/// A push whose body cannot be encoded is written as
/// `{"push":NAME,"error":{"kind":"failed","channel":NAME,"message":…}}`.
public struct WireNotice: Sendable, Hashable {
    /// The line's JSON text with its newline.
    public let line: [UInt8]

    /// The manifest line.
    package init(manifest: Manifest) {
        // `BodyEncoder` keeps the manifest's encode order (sorted names).
        let json = (try? BodyEncoder().encodeJSON(manifest)) ?? Array(#"{"channels":[],"features":{}}"#.utf8)
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(plain: "manifest")
        writer.writeRaw(json)
        writer.endObject()
        writer.writeNewline()
        line = writer.bytes
    }

    /// The line of a push.
    package init(push: PushMessage) {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(plain: "push")
        writer.write(push.channel.name)
        do {
            let body = try push.body.jsonBytes()
            writer.key(plain: "body")
            writer.writeRaw(body)
        } catch {
            writer.key(plain: "error")
            WireError(
                kind: .failed, channel: push.channel.name,
                message: "\(push.channel): the push could not be encoded: \(error)"
            ).write(to: &writer)
        }
        writer.endObject()
        writer.writeNewline()
        line = writer.bytes
    }

    /// The line as text, with its newline.
    public var text: String { String(decoding: line, as: UTF8.self) }
}

/// Follows a router's pushes and manifest changes and keeps them, rendered, in the order they
/// came, until a ``WireNoticeSink`` writes them between outcome lines: what the CLI writes with
/// `--push`. The manifest is queued first, then again after each change.
///
/// A push made while a message is handled (a handler or responder calling `Router.push(_:)`)
/// is written before that message's outcome line; one made on another thread, before the next
/// outcome line (or at the end).
public final class WireNotices: Sendable {
    private let queue = Locked<[WireNotice]>([])
    private let registrations: [Registration]

    /// Follows nothing: a sink with it writes outcome lines only.
    public static var none: WireNotices { WireNotices() }

    private init() {
        registrations = []
    }

    /// Starts following `router`.
    /// - Parameters:
    ///   - router: the router.
    ///   - manifests: whether to queue the manifest (now, and after each change) beside the pushes.
    public init(router: Router, manifests: Bool = true) {
        let queue = queue
        // Each line is rendered before the lock is taken: rendering runs user code (a push's
        // `encode(to:)`, the contract's derivation), which may push again.
        var registrations = [
            router.observePushes { push in
                let notice = WireNotice(push: push)
                queue.withLock { $0.append(notice) }
            }
        ]
        if manifests {
            let first = WireNotice(manifest: router.manifest)
            queue.withLock { $0.append(first) }
            registrations.append(
                router.observeManifest { manifest in
                    let notice = WireNotice(manifest: manifest)
                    queue.withLock { $0.append(notice) }
                })
        }
        self.registrations = registrations
    }

    /// Takes the notices queued so far, oldest first.
    public func take() -> [WireNotice] {
        queue.withLock { queue in
            defer { queue = [] }
            return queue
        }
    }

    /// Stops following the router (as releasing it does) and drops what was not taken yet.
    public func stop() {
        for registration in registrations { registration.cancel() }
        _ = take()
    }
}

/// A sink that writes a router's notices (``WireNotices``: pushes, manifests) into `base` in order
/// with the outcome lines: before each outcome, and when flushed.
public struct WireNoticeSink<Base: WireOutcomeSink>: WireOutcomeSink {
    /// The sink written to.
    public private(set) var base: Base
    /// The notices written.
    public let notices: WireNotices

    /// Wraps `base`.
    public init(_ base: Base, notices: WireNotices) {
        self.base = base
        self.notices = notices
    }

    /// Writes the notices queued so far, then the outcome.
    /// - Throws: what `base` throws.
    public mutating func emit(_ outcome: WireOutcome) throws {
        try drain()
        try base.emit(outcome)
    }

    /// Writes the notices queued so far, then flushes `base`.
    /// - Throws: what `base` throws.
    public mutating func flush() throws {
        try drain()
        try base.flush()
    }

    /// Passes a notice on to `base`.
    /// - Throws: what `base` throws.
    public mutating func emit(notice: WireNotice) throws {
        try base.emit(notice: notice)
    }

    private mutating func drain() throws {
        for notice in notices.take() { try base.emit(notice: notice) }
    }
}

extension WireNoticeSink: Sendable where Base: Sendable {}
