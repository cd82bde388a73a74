extension Manifest {
    /// The channels a page built against `pageContracts` disagrees with this app on, sorted: those
    /// whose digest the page states and the app's (in ``contracts``) differs from, and those the
    /// app has not at all (neither live nor a declared push). A live channel the manifest gives no
    /// digest for (a manifest made from its parts, or an older app's) is not counted: nothing says
    /// it differs. Names that are not valid channel names are left out.
    /// - Parameter pageContracts: the digest of each channel's contract the page was built against, by name.
    /// - Returns: the channels that differ, sorted by name.
    public func channelsDiffering(from pageContracts: [String: String]) -> [Channel] {
        let ours = contracts
        var known: Set<String>?
        var differing: [Channel] = []
        for (name, digest) in pageContracts {
            if let app = ours[name] {
                if app == digest { continue }
            } else {
                if known == nil { known = Set(channels.map(\.name)).union(pushes.map(\.name)) }
                if known?.contains(name) == true { continue }
            }
            guard let channel = try? Channel(validating: name) else { continue }
            differing.append(channel)
        }
        return differing.sorted()
    }
}

extension Router {
    /// Compares the contract digests a page states it was built against (its hello, ``PageHello``)
    /// with the current manifest's (``Manifest/channelsDiffering(from:)``), reports a
    /// ``Diagnostic/contractSkew(_:page:app:)`` for each channel that differs, and returns them.
    ///
    /// A page states its digests once per load (the generated client, once per `connect()`), so
    /// each differing channel is reported once per page load, not once per message. Channels whose
    /// origin policy refuses `sender` (``admits(_:on:)``) are left out: a frame learns nothing about,
    /// and causes no report on, a channel it may not call.
    ///
    /// ```swift
    /// let differing = router.checkContracts(["addCartLine": "sha256:0b1c…"])  // [] when they agree
    /// ```
    /// - Parameters:
    ///   - pageContracts: the digest of each channel's contract the page was built against, by name.
    ///   - sender: who stated them (origin and frame); ``MessageSender/unknown`` by default.
    /// - Returns: the channels that differ, sorted by name.
    @discardableResult
    public func checkContracts(_ pageContracts: [String: String], from sender: MessageSender = .unknown) -> [Channel] {
        guard !pageContracts.isEmpty else { return [] }
        let manifest = manifest
        let differing = manifest.channelsDiffering(from: pageContracts).filter { admits(sender, on: $0) }
        let ours = manifest.contracts
        for channel in differing {
            diagnostics.emit(.contractSkew(channel, page: pageContracts[channel.name] ?? "", app: ours[channel.name]))
        }
        return differing
    }
}
