/// Settings of a ``Router``, with defaults that protect a host app.
public struct RouterOptions: Sendable {
    /// How bodies are decoded (lenient numbers, depth limit).
    public var decoding: DecodingOptions
    /// How long a request waits for its reply when its channel sets no deadline.
    public var defaultDeadline: Duration
    /// The policy of channels that set none.
    public var defaultBufferPolicy: BufferPolicy
    /// The most messages kept on one channel, whatever its policy says.
    public var maxKeptPerChannel: Int
    /// The most messages kept on all channels together; beyond it the oldest message of the channel is discarded.
    public var maxKeptTotal: Int
    /// Who may call a channel that has no policy of its own, when the router is created
    /// (`nil`: anyone; see ``OriginPolicy`` and ``Router/setDefaultOriginPolicy(_:)``).
    public var originPolicy: OriginPolicy?

    /// Creates options.
    public init(
        decoding: DecodingOptions = DecodingOptions(),
        defaultDeadline: Duration = .seconds(10),
        defaultBufferPolicy: BufferPolicy = .drop,
        maxKeptPerChannel: Int = 100,
        maxKeptTotal: Int = 1_000,
        originPolicy: OriginPolicy? = nil
    ) {
        self.decoding = decoding
        self.defaultDeadline = defaultDeadline
        self.defaultBufferPolicy = defaultBufferPolicy
        self.maxKeptPerChannel = maxKeptPerChannel
        self.maxKeptTotal = maxKeptTotal
        self.originPolicy = originPolicy
    }
}
