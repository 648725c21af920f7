import Foundation
import NotificationEvents
import PostgresNIO
import Responder

/// A batch of commits as one call of the schema's `commit_events` function (migration 5): one prepared statement,
/// prepared once per connection, one round trip and one transaction for the whole batch. Each commit is a position
/// in fifteen arrays; a commit without a notification change fills the notification's positions with placeholders
/// the function does not read (postgres-nio binds no NULL array elements).
struct CommitBatch: PostgresPreparedStatement {
    static var name: String { PreparedStatementGeneration.name("CommitBatch") }

    static let sql = """
        SELECT outcome, stored, stored_request FROM commit_events(
            $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
        """

    /// The function's row for one commit: its outcome and, when processed already, the stored outputs and their
    /// notification.
    typealias Row = (Int16, ByteBuffer?, String?)

    /// What the function is told of a commit's notification.
    private enum Change: Int16 {
        case none = 0, insert = 1, update = 2
    }

    let commits: [StateCommit]

    func makeBindings() throws -> PostgresBindings {
        var sources: [String] = [], eventIDs: [String] = [], eventRequests: [String] = [], processed: [Date] = [], outputs: [ByteBuffer] = []
        var changes: [Int16] = [], requests: [String] = [], categories: [String] = [], actionSets: [ByteBuffer] = []
        var actionsChanged: [Bool] = [], states: [ByteBuffer] = [], versions: [Int64] = []
        var dated: [Bool] = [], dates: [Date] = [], removals: [Bool] = []
        for commit in commits {
            let entry = commit.inboxEntry
            sources.append(entry.source)
            eventIDs.append(entry.eventID)
            eventRequests.append(entry.requestIdentifier)
            processed.append(entry.processedAt)
            outputs.append(StoredBytes.encode(entry.outputs))
            guard let record = commit.notification else {
                changes.append(Change.none.rawValue)
                requests.append("")
                categories.append("")
                actionSets.append(ByteBuffer())
                actionsChanged.append(false)
                states.append(ByteBuffer())
                versions.append(0)
                dated.append(false)
                dates.append(Date(timeIntervalSince1970: 0))
                removals.append(false)
                continue
            }
            // A new record always writes its actions; an update only when they changed.
            let writesActions = record.version == 0 || commit.actionsChanged
            changes.append(record.version == 0 ? Change.insert.rawValue : Change.update.rawValue)
            requests.append(record.requestIdentifier)
            categories.append(record.categoryIdentifier)
            actionSets.append(writesActions ? ByteBuffer(bytes: EventCodec.encode(record.actions)) : ByteBuffer())
            actionsChanged.append(writesActions)
            states.append(StoredBytes.encode(record.handlerStates))
            versions.append(record.version)
            dated.append(record.notificationDate != nil)
            dates.append(record.notificationDate ?? Date(timeIntervalSince1970: 0))
            removals.append(record.isRemoved)
        }
        var bindings = PostgresBindings(capacity: 15)
        bindings.append(sources)
        bindings.append(eventIDs)
        bindings.append(eventRequests)
        bindings.append(processed)
        bindings.append(outputs)
        bindings.append(changes)
        bindings.append(requests)
        bindings.append(categories)
        bindings.append(actionSets)
        bindings.append(actionsChanged)
        bindings.append(states)
        bindings.append(versions)
        bindings.append(dated)
        bindings.append(dates)
        bindings.append(removals)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }

    /// The result a row of the function stands for, for `commit`.
    static func result(_ row: Row, of commit: StateCommit) throws -> CommitResult {
        switch row {
        case (0, _, _): return .committed
        case (2, let stored?, let storedRequest?):
            return try InboxMatch.commitResult(
                requestIdentifier: commit.inboxEntry.requestIdentifier, storedRequestIdentifier: storedRequest
            ) { try StoredBytes.outputs(stored) }
        default: return .versionConflict
        }
    }
}
