/// The database holds the state store's tables at a version newer than this build knows: a newer `responder`
/// migrated it. Running against it could misread or damage the state, so the worker refuses to start.
public struct PostgresSchemaTooNew: Error, Sendable, Hashable, CustomStringConvertible {
    /// The version found in the database.
    public var found: Int
    /// The newest version this build knows.
    public var known: Int
    /// The schema holding the tables.
    public var schema: String

    public var description: String {
        "the PostgreSQL state store in schema \(schema) is at version \(found), newer than this responder knows "
            + "(\(known)); run a responder at least as new as the one that migrated it"
    }
}
