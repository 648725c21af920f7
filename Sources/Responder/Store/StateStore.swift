import Foundation

/// Where per-notification state and the inbox of processed events live.
///
/// Per notification request identifier it keeps the current action set, each extension's state and a version;
/// per processed event (its source and id), the notification it was about and the exact outputs it produced.
/// Processing one event ends in one ``commit(_:)`` that writes the notification, the inbox entry and the outputs together or not at all,
/// guarded by optimistic concurrency on the notification's version, so several processes may share a store.
/// Handlers never see the store, so another implementation (e.g. PostgreSQL) needs no handler change.
public protocol StateStore: Sendable {
    /// How long processed events are remembered; a redelivery later than this runs the event again.
    var inboxRetention: Duration { get }

    /// How long a notification that nothing changes is kept; a response after that starts it afresh from its
    /// category's actions, at version 1.
    var notificationRetention: Duration { get }

    /// The stored outputs of the event `eventID` from `source` if it was processed for this notification; that it
    /// was processed for another one; else the notification's record (nil if none). An inbox entry of the empty
    /// source (stored before the inbox knew sources) matches the id from any source.
    func load(requestIdentifier: String, source: String, eventID: String) async throws -> StateSnapshot

    /// Writes `commit` atomically, unless the event (its source and id, matched as
    /// ``load(requestIdentifier:source:eventID:)`` matches them) was processed meanwhile or the notification's stored
    /// version is no longer the one the commit was computed from.
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
