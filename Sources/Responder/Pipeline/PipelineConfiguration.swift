/// The settings of a ``ResponsePipeline``; the defaults are the documented ones.
public struct PipelineConfiguration: Sendable, Hashable {
    /// The exchange action-set updates are published to; their routing key is the category identifier.
    public var outputExchange = "notifications.action-updates"
    /// The CloudEvents `source` of the updates.
    public var source = "/responder"
    /// The `app-id` property of the updates.
    public var appID = "responder"
    /// The largest body accepted, in bytes (default 256 KiB); a larger one is dead-lettered.
    public var maxBodySize = 256 * 1024
    /// How many times an event is handled again after its notification changed under it (another process
    /// committed first) before it fails retryably.
    public var maxConflictRetries = 5

    /// The default settings.
    public init() {}
}
