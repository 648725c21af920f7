import Synchronization

/// The suffix of the store's prepared statements' names, advanced when the store becomes unavailable.
///
/// postgres-nio prepares a statement once per connection under its name and keeps a failed preparation as that
/// name's answer for the connection's life; and a plan prepared before a table changed may not fit it afterwards
/// (0A000). So after a renamed table, a revoked grant or a missing function the pool's connections would go on
/// failing once the database is right again. Under a new name each connection prepares the statement afresh.
enum PreparedStatementGeneration {
    private static let current = Atomic<Int>(0)

    /// The name of `statement` in the current generation.
    static func name(_ statement: String) -> String { "responder.\(statement).\(current.load(ordering: .relaxed))" }

    /// Starts a new generation: the next execution on each connection prepares again.
    static func advance() { current.add(1, ordering: .relaxed) }
}
