import Foundation

/// A ``StateStore`` in memory: for tests and for replay with `--state :memory:`. Nothing survives the process.
public actor InMemoryStateStore: StateStore {
    public nonisolated let inboxRetention: Duration
    public nonisolated let notificationRetention: Duration
    private var notifications: [String: (record: NotificationRecord, changedAt: Date)] = [:]
    private var inbox: [String: InboxEntry] = [:]

    /// An empty store that remembers processed events for `inboxRetention` (default 7 days) and unchanged
    /// notifications for `notificationRetention` (default 30 days).
    public init(
        inboxRetention: Duration = StateRetention.inbox, notificationRetention: Duration = StateRetention.notifications
    ) {
        self.inboxRetention = inboxRetention
        self.notificationRetention = notificationRetention
    }

    public func load(requestIdentifier: String, eventID: String) -> StateSnapshot {
        if let entry = inbox[eventID] { return .processed(entry.outputs) }
        return .unprocessed(notifications[requestIdentifier]?.record)
    }

    public func commit(_ commit: StateCommit) -> CommitResult {
        if let entry = inbox[commit.inboxEntry.eventID] { return .alreadyProcessed(entry.outputs) }
        if var record = commit.notification {
            guard (notifications[record.requestIdentifier]?.record.version ?? 0) == record.version else {
                return .versionConflict
            }
            record.version += 1
            notifications[record.requestIdentifier] = (record, commit.inboxEntry.processedAt)
        }
        inbox[commit.inboxEntry.eventID] = commit.inboxEntry
        return .committed
    }

    public func notification(_ requestIdentifier: String) -> NotificationRecord? {
        notifications[requestIdentifier]?.record
    }

    /// Memory is always there: returns at once.
    public func checkAvailability() {}

    public func pruneInbox(processedBefore cutoff: Date) -> Int {
        let expired = inbox.values.filter { $0.processedAt < cutoff }.map(\.eventID)
        for eventID in expired { inbox[eventID] = nil }
        return expired.count
    }

    public func pruneNotifications(changedBefore cutoff: Date) -> Int {
        let expired = notifications.filter { $0.value.changedAt < cutoff }.map(\.key)
        for requestIdentifier in expired { notifications[requestIdentifier] = nil }
        return expired.count
    }
}
