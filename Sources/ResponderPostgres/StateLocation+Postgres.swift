import Logging
import Responder
import ServiceLifecycle

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

    /// The location `text` names. Text that starts with a PostgreSQL scheme must be a valid URL, and text that
    /// starts with any other `scheme://` is refused (``PostgresURLError/unknownScheme``): neither is ever taken
    /// for a file name, whose errors would show the whole text, password included. Anything else but `:memory:`
    /// is a file path.
    public init(_ text: String) throws(PostgresURLError) {
        let lowered = text.prefix(11).lowercased()
        if lowered.hasPrefix("postgres:") || lowered.hasPrefix("postgresql:") {
            self = .server(try PostgresURL(text))
        } else if Self.startsWithScheme(text) {
            throw .unknownScheme
        } else if text == ":memory:" {
            self = .memory
        } else {
            self = .sqlite(path: text)
        }
    }

    /// Whether `text` starts with `scheme://`, a scheme being a letter then letters, digits, `+`, `-` or `.`
    /// (RFC 3986).
    private static func startsWithScheme(_ text: String) -> Bool {
        guard let end = text.range(of: "://") else { return false }
        let scheme = text[..<end.lowerBound].utf8
        guard let first = scheme.first, first.isASCIILetter else { return false }
        return scheme.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || "+-.".utf8.contains($0) }
    }

    /// Opens the store. A PostgreSQL schema must be at this build's version already
    /// (``PostgresStateStore/checkSchema(_:logger:)``): only ``migrate(logger:)`` runs DDL, so the role of a
    /// worker needs only row rights. The result's ``OpenedState/service`` must run while the store is used.
    /// `maximumSQLiteSize` caps a SQLite file
    /// (``SQLiteStateStore/init(path:inboxRetention:notificationRetention:busyTimeout:maximumSize:)``).
    public func open(
        inboxRetention: Duration, notificationRetention: Duration, maximumSQLiteSize: Int? = nil, logger: Logger
    ) async throws -> OpenedState {
        switch self {
        case .memory:
            return OpenedState(
                store: InMemoryStateStore(inboxRetention: inboxRetention, notificationRetention: notificationRetention))
        case .sqlite(let path):
            return OpenedState(
                store: try SQLiteStateStore(
                    path: path, inboxRetention: inboxRetention, notificationRetention: notificationRetention,
                    maximumSize: maximumSQLiteSize))
        case .server:
            let url = postgresServer
            Self.warnIfUnverified(url, logger: logger)
            let poolURL = try await PostgresStateStore.checkSchema(url, logger: logger)
            let store = PostgresStateStore(
                url: poolURL, inboxRetention: inboxRetention, notificationRetention: notificationRetention,
                logger: logger)
            return OpenedState(store: store, service: store)
        }
    }

    /// The server of a `.server` location: PostgreSQL is the one state server this build has.
    private var postgresServer: PostgresURL {
        guard let url = postgresURL else { preconditionFailure("a state server this build cannot open: \(self)") }
        return url
    }

    /// One warning line when `url`'s connections may go unverified (``PostgresURL/unverifiedTLSWarning``).
    private static func warnIfUnverified(_ url: PostgresURL, logger: Logger) {
        guard let warning = url.unverifiedTLSWarning else { return }
        logger.warning("\(warning)", metadata: ["state": "\(url)"])
    }

    /// Creates or upgrades the store's schema and nothing else, for deploy pipelines that migrate before they
    /// start workers; returns what it did, for operators.
    public func migrate(logger: Logger) async throws -> String {
        switch self {
        case .memory:
            return "an in-memory store has no schema to migrate"
        case .sqlite(let path):
            // Opening a SQLite store creates or upgrades its tables.
            try SQLiteStateStore(path: path).close()
            return "the SQLite state file \(path) is up to date"
        case .server:
            let url = postgresServer
            Self.warnIfUnverified(url, logger: logger)
            let (found, now) = try await PostgresStateStore.migrate(url, logger: logger)
            return found == now
                ? "the PostgreSQL state store in schema \(url.schema) was at version \(now) already"
                : "migrated the PostgreSQL state store in schema \(url.schema) from version \(found) to \(now)"
        }
    }
}
