import PostgresNIO

/// ``PostgresStateStore/load(requestIdentifier:eventID:)``'s one query, prepared once per connection: the event's
/// stored outputs if it is in the inbox, and the notification's columns (all null when it is not stored).
struct LoadEvent: PostgresPreparedStatement {
    static let sql = """
        SELECT i.outputs, n.category_identifier, n.actions, n.handler_states, n.version
        FROM (SELECT $1::text AS id) AS wanted
        LEFT JOIN notification n ON n.request_identifier = wanted.id
        LEFT JOIN inbox i ON i.event_id = $2
        """

    typealias Row = (ByteBuffer?, String?, ByteBuffer?, ByteBuffer?, Int64?)

    let requestIdentifier: String
    let eventID: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(requestIdentifier)
        bindings.append(eventID)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}
