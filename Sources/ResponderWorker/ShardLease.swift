/// How ordered mode's workers keep their membership of the fleet in the state store, which gives each of them its
/// share of the shards (the Ordered mode article).
public struct ShardLease: Sendable, Hashable {
    /// How often a worker renews its membership and looks at the fleet: how soon a graceful change is seen.
    public var heartbeat: Duration
    /// How long a membership lasts without renewal: a worker that died is replaced on its shards after this.
    /// Several heartbeats, so a slow store does not cost a live worker its shards.
    public var timeout: Duration

    /// Renewed every `heartbeat` (2 s by default), dead after `timeout` (10 s by default).
    public init(heartbeat: Duration = .seconds(2), timeout: Duration = .seconds(10)) {
        self.heartbeat = heartbeat
        self.timeout = timeout
    }
}
