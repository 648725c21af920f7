/// The database holds no state store tables, or tables at a version older than this build needs: `responder
/// migrate` has not run for this build. Workers and replays never create or change tables themselves, so that
/// their role needs only row rights; they refuse to start instead.
public struct PostgresSchemaNotMigrated: Error, Sendable, Hashable, CustomStringConvertible {
    /// The version found in the database: 0 when it has no state store tables.
    public var found: Int
    /// The version this build needs.
    public var needed: Int
    /// The schema that should hold the tables.
    public var schema: String

    public var description: String {
        let state = found == 0 ? "has no state store tables" : "is at version \(found), older than this responder needs (\(needed))"
        return "the PostgreSQL schema \(schema) \(state): run `responder migrate` first, with a role that may create tables"
    }
}
