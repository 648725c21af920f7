import Foundation
import NotificationEvents
import PostgresNIO
import Responder

extension PostgresStateStore {
    /// The most times a statement that failed on a serialization failure or a deadlock is run.
    static let attempts = 5

    /// Runs `body` on the pool, again after a serialization failure or a deadlock (after a short random pause,
    /// so the two sides do not meet again), and turns connection and server trouble into
    /// ``StateStoreUnavailable``. Unless unbounded, an operation that has no answer within the store's timeout (it may be waiting for a
    /// connection the pool cannot open) is cancelled and reported unavailable; `bounded` false lifts that limit.
    func operation<Result: Sendable>(
        bounded: Bool = true, _ body: @escaping @Sendable (PostgresClient) async throws -> Result
    ) async throws -> Result {
        let deadline = bounded ? timeout : nil
        var attempt = 1
        while true {
            do {
                guard let deadline else { return try await body(client) }
                return try await Deadline.answer(within: deadline) { try await body(self.client) }
            } catch {
                switch PostgresFailure(error) {
                case .retry where attempt < Self.attempts:
                    attempt += 1
                    try await Task.sleep(for: .milliseconds(Int.random(in: 1...(10 << attempt))))
                case .retry, .other: throw error
                case .unavailable(let unavailable): throw unavailable
                }
            }
        }
    }

    /// The one statement of a commit (see the type's documentation). It returns a row when it wrote, none when
    /// the event is in the inbox already or the notification's version moved on.
    static func commitQuery(_ commit: StateCommit) -> PostgresQuery {
        let entry = commit.inboxEntry
        let outputs = StoredBytes.encode(entry.outputs)
        guard let record = commit.notification else {
            return """
                INSERT INTO inbox (event_id, request_identifier, processed_at, outputs)
                SELECT \(entry.eventID), \(entry.requestIdentifier), \(entry.processedAt), \(outputs)
                WHERE NOT EXISTS (SELECT 1 FROM inbox WHERE event_id = \(entry.eventID))
                RETURNING 1
                """
        }
        let states = StoredBytes.encode(record.handlerStates)
        if record.version == 0 {
            let actions = ByteBuffer(bytes: EventCodec.encode(record.actions))
            return """
                WITH written AS (
                    INSERT INTO notification
                        (request_identifier, category_identifier, actions, handler_states, version, changed_at)
                    SELECT \(record.requestIdentifier), \(record.categoryIdentifier), \(actions), \(states), 1,
                        \(entry.processedAt)
                    WHERE NOT EXISTS (SELECT 1 FROM inbox WHERE event_id = \(entry.eventID))
                    ON CONFLICT DO NOTHING RETURNING 1
                )
                INSERT INTO inbox (event_id, request_identifier, processed_at, outputs)
                SELECT \(entry.eventID), \(entry.requestIdentifier), \(entry.processedAt), \(outputs) FROM written
                RETURNING 1
                """
        }
        // Unchanged actions are bound as NULL, which COALESCE turns into the stored ones.
        let category: String? = commit.actionsChanged ? record.categoryIdentifier : nil
        let actions: ByteBuffer? = commit.actionsChanged ? ByteBuffer(bytes: EventCodec.encode(record.actions)) : nil
        return """
            WITH written AS (
                UPDATE notification SET category_identifier = COALESCE(\(category), category_identifier),
                    actions = COALESCE(\(actions), actions), handler_states = \(states), version = version + 1,
                    changed_at = \(entry.processedAt)
                WHERE request_identifier = \(record.requestIdentifier) AND version = \(record.version)
                    AND NOT EXISTS (SELECT 1 FROM inbox WHERE event_id = \(entry.eventID))
                RETURNING 1
            )
            INSERT INTO inbox (event_id, request_identifier, processed_at, outputs)
            SELECT \(entry.eventID), \(entry.requestIdentifier), \(entry.processedAt), \(outputs) FROM written
            RETURNING 1
            """
    }

    /// A notification record from its columns; nil when the notification is not stored (null columns).
    static func record(
        _ requestIdentifier: String, category: String?, actions: ByteBuffer?, states: ByteBuffer?, version: Int64?
    ) throws -> NotificationRecord? {
        guard let category, let actions, let states, let version else { return nil }
        return NotificationRecord(
            requestIdentifier: requestIdentifier, categoryIdentifier: category,
            actions: try EventCodec.decodeStored([NotificationAction].self, from: Array(actions.readableBytesView)),
            handlerStates: try StoredBytes.states(states), version: version)
    }
}
