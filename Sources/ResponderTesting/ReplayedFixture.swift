import Foundation
import NotificationEvents
import Responder

/// What a replayed fixture published: the output lines as `responder replay` writes them, the updates as typed
/// values, and the run's summary.
public struct ReplayedFixture: Sendable {
    /// Each output as one fixture line, in input order: the bytes a golden file holds.
    public let lines: [String]
    /// The action-set updates, in the same order.
    public let updates: [ActionSetUpdateEvent]
    /// The counts of the run: events, updated, no update, ignored, deduplicated, dead-lettered, failed.
    public let summary: ReplaySummary

    init(lines: [String], summary: ReplaySummary) throws {
        self.lines = lines
        self.summary = summary
        updates = try lines.map { line in
            try EventCodec.decodeActionSetUpdateEvent(EventCodec.decodeFixtureLine(Array(line.utf8)).bodyBytes)
        }
    }

    /// A readable line diff of ``lines`` against the golden file at `url` (as `responder replay --expect` prints
    /// it), or nil when they are the same.
    public func difference(fromGolden url: URL) throws -> String? {
        try LineDiff.describe(lines, againstGoldenAt: url.path)
    }
}
