import Foundation

/// Where per-notification state and the inbox of processed events live.
///
/// Per notification request identifier it keeps the current action set, each extension's state and a version;
/// per processed event (its source and id), the notification it was about and the exact outputs it produced.
/// Processing one event ends in a commit (``commit(_:)``, a batch of them at once) that writes the notification, the inbox entry and the outputs together or not at all,
/// guarded by optimistic concurrency on the notification's version, so several processes may share a store.
/// Handlers never see the store, so another implementation (e.g. PostgreSQL) needs no handler change.
public protocol StateStore: Sendable {
    /// How long processed events are remembered; a redelivery later than this runs the event again.
    var inboxRetention: Duration { get }

    /// How long a notification that nothing changes is kept; a response after that starts it afresh from its
    /// category's actions, at version 1.
    var notificationRetention: Duration { get }

    /// For each load, in order: the stored outputs of its event (its source and id) if it was processed for its
    /// notification; that it was processed for another one; else the notification's record (nil if none). An inbox
    /// entry of the empty source (stored before the inbox knew sources) matches the id from any source.
    ///
    /// Each load is answered as it would be alone; one that fails (e.g. stored bytes that no longer decode) fails
    /// alone. A thrown error fails every load of the batch.
    func load(_ loads: [StateLoad]) async throws -> [Result<StateSnapshot, any Error>]

    /// Writes each commit atomically, in order, and gives its result, unless its event (its source and id, matched
    /// as ``load(_:)`` matches them) was processed meanwhile or its notification's stored version is no longer the
    /// one it was computed from. A thrown error fails every commit of the batch.
    ///
    /// Each commit is checked and written as it would be alone, after the ones before it, so a later commit of a
    /// notification may be computed from the version an earlier one of the batch gives it. Once a commit of a
    /// notification is not committed (a conflict, a processed or reused id, a failure), its later commits in the
    /// batch are answered ``CommitResult/versionConflict`` without being written: they were computed from a state
    /// that was not stored, and could otherwise pass the version check against another writer's change.
    func commit(_ commits: [StateCommit]) async throws -> [Result<CommitResult, any Error>]

    /// The stored record of a notification, if any.
    func notification(_ requestIdentifier: String) async throws -> NotificationRecord?

    /// The notification's most recent inbox entries, newest first, at most `limit`: what `responder inspect` shows
    /// an operator. It may read the whole inbox (no index serves it, so that commits pay for none): never call it on
    /// the event path.
    func inboxEntries(of requestIdentifier: String, limit: Int) async throws -> [InboxEntry]

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
