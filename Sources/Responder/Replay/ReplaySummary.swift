import NotificationEvents

/// What a replay did, counted by outcome and by action.
public struct ReplaySummary: Sendable, Hashable, CustomStringConvertible {
    /// Fixture lines replayed (blank lines are not counted).
    public var events = 0
    /// Events that changed a notification's actions (one update each).
    public var updated = 0
    /// Events whose handlers changed no actions.
    public var noUpdate = 0
    /// Events no handler receives (e.g. a dismiss without customDismissAction).
    public var ignored = 0
    /// Events seen before: their stored outputs were written again.
    public var deduplicated = 0
    /// Responses to notifications replaced or removed since: nothing changed.
    public var stale = 0
    /// Lines that did not decode, or events that can never be handled.
    public var deadLettered = 0
    /// Events whose handlers or store failed (the worker would retry them).
    public var failed = 0
    /// Output lines written.
    public var outputs = 0
    /// Decoded events by action identifier.
    public var actions: [String: Int] = [:]

    /// An empty summary.
    public init() {}

    /// The summary as replay prints it at the end, e.g.
    /// `42 events: 7 updated, 30 no update, 1 ignored, 1 deduplicated, 3 dead-lettered, 0 failed; 8 outputs`
    /// followed by one line per action.
    public var description: String {
        var text =
            "\(events) events: \(updated) updated, \(noUpdate) no update, \(ignored) ignored, \(deduplicated) deduplicated, "
        // Only when there are any: summaries of replays without replaced notifications read as they always did.
        if stale > 0 { text += "\(stale) stale, " }
        text += "\(deadLettered) dead-lettered, \(failed) failed; \(outputs) outputs"
        for (action, count) in actions.sorted(by: { $0.key < $1.key }) {
            text += "\n  \(action): \(count)"
        }
        return text
    }
}
