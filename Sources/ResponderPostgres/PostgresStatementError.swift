import PostgresNIO

/// A statement of the store failed for a reason that is the event's, not the store's (``PostgresFailure``): the
/// server refused a value it was given.
///
/// postgres-nio's `PSQLError` describes itself only as "Generic description to prevent accidental leakage of
/// sensitive data", which tells an operator nothing; this carries what the server said instead (its SQLSTATE and
/// message, bounded), for the dead-letter detail and the log. The server's message names the problem, never a
/// password.
struct PostgresStatementError: Error, Sendable, CustomStringConvertible {
    /// The server's SQLSTATE, nil when the server said nothing.
    let state: String?
    /// The SQLSTATE and the server's message, or the client's error code when the server said nothing.
    let text: String

    /// `error` as a readable error when it is a `PSQLError`, else `error` itself.
    static func readable(_ error: any Error) -> any Error {
        guard let error = error as? PSQLError else { return error }
        return PostgresStatementError(
            state: error.code == .server ? error.serverInfo?[.sqlState] : nil,
            text: PostgresFailure.serverText(error) ?? "client error \(error.code)")
    }

    var description: String { "PostgreSQL: \(text)" }
}
