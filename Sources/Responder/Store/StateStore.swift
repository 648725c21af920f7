import Foundation
import NotificationEvents

/// Where per-notification state and the inbox of processed events live.
///
/// Per notification request identifier it keeps the current action set, each extension's state and a version;
/// per processed event id, the exact outputs that event produced. Processing one event ends in one
/// ``commit(_:)`` that writes the notification, the inbox entry and the outputs together or not at all,
/// guarded by optimistic concurrency on the notification's version, so several processes may share a store.
/// Handlers never see the store, so another implementation (e.g. PostgreSQL) needs no handler change.
public protocol StateStore: Sendable {
    /// How long processed event ids are remembered; a redelivery later than this runs the event again.
    var inboxRetention: Duration { get }

    /// How long a notification that nothing changes is kept; a response after that starts it afresh from its
    /// category's actions, at version 1.
    var notificationRetention: Duration { get }

    /// The stored outputs of `eventID` if it was processed, else the notification's record (nil if none).
    func load(requestIdentifier: String, eventID: String) async throws -> StateSnapshot

    /// Writes `commit` atomically, unless the event was processed meanwhile or the notification's stored version
    /// is no longer the one the commit was computed from.
    func commit(_ commit: StateCommit) async throws -> CommitResult

    /// The stored record of a notification, if any.
    func notification(_ requestIdentifier: String) async throws -> NotificationRecord?

    /// Forgets the inbox entries processed before `cutoff`; returns how many.
    func pruneInbox(processedBefore cutoff: Date) async throws -> Int

    /// Forgets the notifications (with their handlers' states) last changed before `cutoff`; returns how many.
    func pruneNotifications(changedBefore cutoff: Date) async throws -> Int

    /// Returns when the store can probably take a commit again; throws ``StateStoreUnavailable`` while it cannot.
    ///
    /// The worker calls it, with backoff, while it is paused for an unavailable store, and resumes once it returns.
    /// It must change nothing (e.g. a write transaction that is rolled back) and be cheap enough to call every few
    /// seconds. "Probably": the next commit is the real proof, and a store that fails again pauses the worker again.
    func checkAvailability() async throws
}

/// What a store keeps about one notification.
public struct NotificationRecord: Sendable, Hashable {
    /// The notification's request identifier: the key of the record.
    public var requestIdentifier: String
    /// The category of the notification when it was first stored.
    public var categoryIdentifier: String
    /// The notification's current action set.
    public var actions: [NotificationAction]
    /// Each extension's state as JSON, by extension name.
    public var handlerStates: [String: [UInt8]]
    /// Grows by one with every commit that changes the record; 0 for a record not stored yet.
    public var version: Int64

    /// A record with the given contents.
    public init(
        requestIdentifier: String, categoryIdentifier: String, actions: [NotificationAction],
        handlerStates: [String: [UInt8]] = [:], version: Int64 = 0
    ) {
        self.requestIdentifier = requestIdentifier
        self.categoryIdentifier = categoryIdentifier
        self.actions = actions
        self.handlerStates = handlerStates
        self.version = version
    }
}

/// One processed event as the inbox remembers it.
public struct InboxEntry: Sendable, Hashable {
    /// The processed event's id: the key of the entry.
    public var eventID: String
    /// The notification the event was about.
    public var requestIdentifier: String
    /// The outputs the event produced, in order; returned as they are when the event comes again.
    public var outputs: [OutboundMessage]
    /// When it was processed (wall clock): what retention is measured from.
    public var processedAt: Date

    /// An entry for `eventID`.
    public init(eventID: String, requestIdentifier: String, outputs: [OutboundMessage], processedAt: Date) {
        self.eventID = eventID
        self.requestIdentifier = requestIdentifier
        self.outputs = outputs
        self.processedAt = processedAt
    }
}

/// What a store knows about an event and its notification before the event is handled.
public enum StateSnapshot: Sendable, Hashable {
    /// The event was processed before: these are its outputs.
    case processed([OutboundMessage])
    /// The event is new; this is the notification's record, nil if the notification was never stored.
    case unprocessed(NotificationRecord?)
}

/// Everything one processed event changes, written at once.
public struct StateCommit: Sendable, Hashable {
    /// The inbox entry with the event's outputs.
    public var inboxEntry: InboxEntry
    /// The notification as the event left it, or nil when the event did not change it. Its `version` is the one
    /// it was loaded with (0 for a new record): the store writes it with that version plus one, or reports a
    /// conflict if the stored version differs. The entry's `processedAt` is when the notification last changed.
    public var notification: NotificationRecord?
    /// Whether `notification`'s actions differ from the ones it was loaded with; false lets a store leave the
    /// stored actions as they are. True is always correct.
    public var actionsChanged: Bool

    /// A commit of `inboxEntry` and, if changed, `notification`.
    public init(inboxEntry: InboxEntry, notification: NotificationRecord?, actionsChanged: Bool = true) {
        self.inboxEntry = inboxEntry
        self.notification = notification
        self.actionsChanged = actionsChanged
    }
}

/// How a commit ended.
public enum CommitResult: Sendable, Hashable {
    /// Everything was written.
    case committed
    /// The notification changed since it was loaded: nothing was written; load and handle again.
    case versionConflict
    /// The event was processed meanwhile: nothing was written; these are the outputs stored then.
    case alreadyProcessed([OutboundMessage])
}
