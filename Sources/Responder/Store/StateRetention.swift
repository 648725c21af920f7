/// How long a state store keeps what it no longer needs, by default: the one home of the retention defaults the
/// stores, the command line and the documentation use.
public enum StateRetention {
    /// How long a processed event id is remembered for deduplication: 7 days.
    public static let inbox: Duration = .seconds(7 * 24 * 3600)
    /// How long a notification nothing changes is kept: 30 days.
    public static let notifications: Duration = .seconds(30 * 24 * 3600)
}
