import Logging
import Responder

extension PostgresURL: StateServer {}

extension StateLocation {
    /// A PostgreSQL server (``PostgresStateStore``).
    public static func postgres(_ url: PostgresURL) -> StateLocation {
        .server(url)
    }

    /// The PostgreSQL server this names, if it names one.
    public var postgresURL: PostgresURL? {
        guard case .server(let server) = self else { return nil }
        return server as? PostgresURL
    }
}

extension PostgresStateStore {
    /// The store on `url` as a worker or a replay opens it. Its schema must be at this build's version already
    /// (``checkSchema(_:logger:)``): only ``migrate(reporting:logger:)`` runs DDL, so the role of a worker needs only
    /// row rights. The store must run (``run()``) while it is used.
    public static func open(
        _ url: PostgresURL, inboxRetention: Duration, notificationRetention: Duration, logger: Logger
    ) async throws -> PostgresStateStore {
        warnIfUnverified(url, logger: logger)
        let poolURL = try await checkSchema(url, logger: logger)
        return PostgresStateStore(
            url: poolURL, inboxRetention: inboxRetention, notificationRetention: notificationRetention, logger: logger)
    }

    /// Creates or upgrades the schema on `url` and nothing else, for deploy pipelines that migrate before they
    /// start workers; returns what it did, for operators.
    public static func migrate(reporting url: PostgresURL, logger: Logger) async throws -> String {
        warnIfUnverified(url, logger: logger)
        let (found, now) = try await migrate(url, logger: logger)
        return found == now
            ? "the PostgreSQL state store in schema \(url.schema) was at version \(now) already"
            : "migrated the PostgreSQL state store in schema \(url.schema) from version \(found) to \(now)"
    }

    /// One warning line when `url`'s connections may go unverified (``PostgresURL/unverifiedTLSWarning``).
    private static func warnIfUnverified(_ url: PostgresURL, logger: Logger) {
        guard let warning = url.unverifiedTLSWarning else { return }
        logger.warning("\(warning)", metadata: ["state": "\(url)"])
    }
}
