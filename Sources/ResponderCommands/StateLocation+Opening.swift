import Logging
import Responder
import ResponderSQLite
import ServiceLifecycle

#if PostgreSQL
    import ResponderPostgres
#endif

/// A state store as ``Responder/StateLocation/open(inboxRetention:notificationRetention:maximumSQLiteSize:logger:)``
/// opens it, with what it needs while it is used.
public struct OpenedState: Sendable {
    /// The store.
    public let store: any StateStore
    /// What must run for the store to work (PostgreSQL's connection pool), or nil. In a service group it goes
    /// before the services that use the store, so a graceful shutdown stops it after them.
    public let service: (any Service)?

    init(store: any StateStore, service: (any Service)? = nil) {
        self.store = store
        self.service = service
    }

    /// Releases what the store holds open (a SQLite file's connections); the store must not be used afterwards.
    public func close() throws {
        try (store as? SQLiteStateStore)?.close()
    }
}

/// A state location that is neither `:memory:`, a file path nor a URL of a store this package has.
public enum StateLocationError: Error, Equatable, CustomStringConvertible {
    /// Another `scheme://` (a mistyped `postgress://`): refused rather than taken for a SQLite file name, whose
    /// errors would repeat the whole text, password included.
    case unknownScheme

    public var description: String {
        "unknown scheme: a state location is a postgres:// or postgresql:// URL, :memory: or a SQLite file path"
    }
}

extension StateLocation {
    /// The location `text` names. Text that starts with a PostgreSQL scheme must be a valid URL, and text that
    /// starts with any other `scheme://` is refused (``StateLocationError/unknownScheme``): neither is ever taken
    /// for a file name, whose errors would show the whole text, password included. Anything else but `:memory:`
    /// is a file path. A PostgreSQL URL in a build without the PostgreSQL trait is an error that names the trait.
    public init(_ text: String) throws {
        self = try Self.resolving(text, traits: .current)
    }

    /// The location `text` names in a build with `traits`: tests give other traits than the build's.
    static func resolving(_ text: String, traits: BuildTraits) throws -> StateLocation {
        let lowered = text.prefix(11).lowercased()
        if lowered.hasPrefix("postgres:") || lowered.hasPrefix("postgresql:") {
            guard traits.postgreSQL else { throw MissingTrait.postgreSQL }
            #if PostgreSQL
                return .postgres(try PostgresURL(text))
            #else
                throw MissingTrait.postgreSQL
            #endif
        } else if startsWithScheme(text) {
            throw StateLocationError.unknownScheme
        } else if text == ":memory:" {
            return .memory
        } else {
            return .sqlite(path: text)
        }
    }

    /// Whether `text` starts with `scheme://`, a scheme being a letter then letters, digits, `+`, `-` or `.`
    /// (RFC 3986).
    private static func startsWithScheme(_ text: String) -> Bool {
        guard let end = text.range(of: "://") else { return false }
        let scheme = text[..<end.lowerBound].utf8
        // `| 0x20` lowers an ASCII capital and moves no other byte into a-z.
        let isLetter = { (byte: UInt8) in (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        guard let first = scheme.first, isLetter(first) else { return false }
        return scheme.allSatisfy { isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) }
    }

    /// Opens the store. A PostgreSQL schema must be at this build's version already (only ``migrate(logger:)``
    /// runs DDL, so the role of a worker needs only row rights). The result's ``OpenedState/service`` must run
    /// while the store is used. `maximumSQLiteSize` caps a SQLite file
    /// (``ResponderSQLite/SQLiteStateStore/init(path:inboxRetention:notificationRetention:busyTimeout:maximumSize:)``).
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
            #if PostgreSQL
                let store = try await PostgresStateStore.open(
                    postgresServer, inboxRetention: inboxRetention, notificationRetention: notificationRetention,
                    logger: logger)
                return OpenedState(store: store, service: store)
            #else
                throw MissingTrait.postgreSQL
            #endif
        }
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
            #if PostgreSQL
                return try await PostgresStateStore.migrate(reporting: postgresServer, logger: logger)
            #else
                throw MissingTrait.postgreSQL
            #endif
        }
    }

    #if PostgreSQL
        /// The server of a `.server` location: PostgreSQL is the one state server this build has.
        private var postgresServer: PostgresURL {
            guard let url = postgresURL else { preconditionFailure("a state server this build cannot open: \(self)") }
            return url
        }
    #endif
}
