extension MessageSender {
    /// The sender WebKit describes in `WKScriptMessage.frameInfo`: its
    /// `securityOrigin` (`protocol`, `host`, `port`) and `isMainFrame`.
    ///
    /// WebKit reports port `0` for the scheme's default port, and an empty protocol
    /// and host for an opaque origin (a sandboxed frame, `about:blank`, a `data:` URL):
    /// that origin is unknown, so a channel with an ``OriginPolicy`` refuses it. Parts
    /// that do not make a valid ``Origin`` leave the origin unknown too, with what
    /// WebKit said kept in ``claimedOrigin`` for the rejection's message.
    /// - Parameters:
    ///   - securityOriginProtocol: `frameInfo.securityOrigin.protocol` (`"https"`).
    ///   - host: `frameInfo.securityOrigin.host`.
    ///   - port: `frameInfo.securityOrigin.port` (`0`: the default port).
    ///   - isMainFrame: `frameInfo.isMainFrame`.
    public init(securityOriginProtocol: String, host: String, port: Int, isMainFrame: Bool) {
        self.init(origin: nil, isMainFrame: isMainFrame)
        if securityOriginProtocol.isEmpty && host.isEmpty { return }
        do {
            origin = try Origin(scheme: securityOriginProtocol, host: host, port: port)
        } catch {
            // The reason is WebKit's parts' own (all of them); only the displayed text is cut.
            self.init(
                claimedOrigin: "\(securityOriginProtocol)://\(host)\(port == 0 ? "" : ":\(port)")",
                reason: error.reason, isMainFrame: isMainFrame)
        }
    }
}
