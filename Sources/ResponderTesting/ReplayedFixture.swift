import Foundation
import NotificationEvents
import Responder

/// What a replayed fixture published: the output lines as `responder replay` writes them, the updates, dismissals
/// and removals as typed values, and the run's summary.
public struct ReplayedFixture: Sendable {
    /// Each output as one fixture line, in input order: the bytes a golden file holds.
    public let lines: [String]
    /// The action-set updates, in the same order.
    public let updates: [ActionSetUpdateEvent]
    /// The dismissals, in the same order.
    public let dismissals: [NotificationDismissedEvent]
    /// The removals, in the same order.
    public let removals: [NotificationRemovedEvent]
    /// The counts of the run: events, updated, no update, ignored, deduplicated, dead-lettered, failed.
    public let summary: ReplaySummary

    init(lines: [String], summary: ReplaySummary) throws {
        self.lines = lines
        self.summary = summary
        let outputs = try lines.map { try EventCodec.decodeFixtureLine(Array($0.utf8)) }
        updates = try outputs.filter { $0.properties.type == EventType.actionSetUpdated }
            .map { try EventCodec.decodeActionSetUpdateEvent($0.bodyBytes) }
        dismissals = try outputs.filter { $0.properties.type == EventType.notificationDismissed }
            .map { try EventCodec.decodeDeviceCommandEvent($0.bodyBytes, as: Dismissal.self) }
        removals = try outputs.filter { $0.properties.type == EventType.notificationRemoved }
            .map { try EventCodec.decodeDeviceCommandEvent($0.bodyBytes, as: Removal.self) }
    }

    /// A readable line diff of ``lines`` against the golden file at `url` (as `responder replay --expect` prints
    /// it), or nil when they are the same.
    public func difference(fromGolden url: URL) throws -> String? {
        try LineDiff.describe(lines, againstGoldenAt: url.path)
    }
}
