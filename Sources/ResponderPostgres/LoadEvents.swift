import Foundation
import PostgresNIO
import Responder

/// ``PostgresStateStore/load(_:)``'s query for a group of loads, prepared once per
/// connection: for each (notification, source, event) triple, numbered from 1, the notification and stored outputs
/// of the inbox entry the event matches (its own, else one of its id and the empty source, stored before the inbox
/// knew sources), and the notification's columns (all null when it is not stored). One row per triple, duplicates
/// included: the notification's join is on its primary key, the inbox's takes one entry.
struct LoadEvents: PostgresPreparedStatement {
    static var name: String { PreparedStatementGeneration.name("LoadEvents") }

    static let sql = """
        SELECT wanted.position, i.request_identifier, i.outputs,
            n.category_identifier, n.actions, n.handler_states, n.version, n.notification_date, n.removed
        FROM unnest($1::text[], $2::text[], $3::text[])
            WITH ORDINALITY AS wanted(request_identifier, source, event_id, position)
        LEFT JOIN notification n ON n.request_identifier = wanted.request_identifier
        LEFT JOIN LATERAL (
            SELECT inbox.request_identifier, inbox.outputs FROM inbox
            WHERE inbox.event_id = wanted.event_id AND inbox.source IN (wanted.source, '')
            ORDER BY inbox.source DESC LIMIT 1
        ) AS i ON true
        """

    typealias Row = (Int64, String?, ByteBuffer?, String?, ByteBuffer?, ByteBuffer?, Int64?, Date?, Bool?)

    let keys: [StateLoad]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(keys.map(\.requestIdentifier))
        bindings.append(keys.map(\.source))
        bindings.append(keys.map(\.eventID))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}
