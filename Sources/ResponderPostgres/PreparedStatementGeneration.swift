import Synchronization

/// The suffix of the store's prepared statements' names, advanced when an error says the prepared statements may no
/// longer fit the database.
///
/// postgres-nio prepares a statement once per connection under its name and keeps a failed preparation as that
/// name's answer for the connection's life; and a plan prepared before a table changed may not fit it afterwards
/// (0A000). So after a renamed table, a revoked grant or a missing function the pool's connections would go on
/// failing once the database is right again. Under a new name each connection prepares the statement afresh. Only
/// those errors advance it (``invalidatingStates``): every generation leaves its statements prepared on the
/// connections that stay open, so a lost connection or a timeout, which leaves the statements as they were, must
/// not pile up generations while a database flaps.
enum PreparedStatementGeneration {
    /// The SQLSTATEs after which a prepared statement may fail or not fit: a table, column, function or schema
    /// missing, a privilege revoked, a cached plan that no longer fits, a prepared statement unknown.
    static let invalidatingStates: Set<String> = ["0A000", "26000", "3F000", "42501", "42703", "42883", "42P01"]

    private static let current = Atomic<Int>(0)

    /// The name of `statement` in the current generation.
    static func name(_ statement: String) -> String { "responder.\(statement).\(current.load(ordering: .relaxed))" }

    /// Starts a new generation when `state`, the SQLSTATE of a failure, is one of ``invalidatingStates``: the next
    /// execution on each connection prepares again.
    static func advance(after state: String?) {
        guard invalidates(state) else { return }
        current.add(1, ordering: .relaxed)
    }

    /// Whether a failure of SQLSTATE `state` (nil: no server error, such as a lost connection) may have left
    /// prepared statements that fail or do not fit.
    static func invalidates(_ state: String?) -> Bool {
        state.map(invalidatingStates.contains) ?? false
    }
}
