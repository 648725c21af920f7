import PostgresNIO
import Responder

/// ``PostgresStateStore/load(requestIdentifier:eventID:)``'s query for a group of loads, prepared once per
/// connection: for each (notification, event) pair, numbered from 1, the event's stored outputs if it is in the
/// inbox, and the notification's columns (all null when it is not stored). One row per pair, duplicates included:
/// both joins are on primary keys.
struct LoadEvents: PostgresPreparedStatement {
    static var name: String { PreparedStatementGeneration.name("LoadEvents") }

    static let sql = """
        SELECT wanted.position, i.outputs, n.category_identifier, n.actions, n.handler_states, n.version
        FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS wanted(request_identifier, event_id, position)
        LEFT JOIN notification n ON n.request_identifier = wanted.request_identifier
        LEFT JOIN inbox i ON i.event_id = wanted.event_id
        """

    typealias Row = (Int64, ByteBuffer?, String?, ByteBuffer?, ByteBuffer?, Int64?)

    let keys: [StateLoad]

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(keys.map(\.requestIdentifier))
        bindings.append(keys.map(\.eventID))
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}
