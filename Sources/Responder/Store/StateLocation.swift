/// Where a worker's state lives, as `--state` names it: `:memory:` (``InMemoryStateStore``), a SQLite file
/// (ResponderSQLite's `SQLiteStateStore`), or a state server's URL (``StateServer``: a PostgreSQL URL).
///
/// ResponderCommands reads the text (`StateLocation(_:)`, which refuses an unknown `scheme://` so it is never taken
/// for a file name) and opens and migrates each store (`open(…)`, `migrate(logger:)`): the stores live in modules of
/// their own (ResponderSQLite, and ResponderPostgres with the PostgreSQL trait), which a handler library need not
/// link.
public enum StateLocation: Sendable, Hashable, CustomStringConvertible {
    /// State that lasts one run.
    case memory
    /// A SQLite file, created if missing.
    case sqlite(path: String)
    /// A store on a server.
    case server(any StateServer)

    /// The location without secrets, for logs.
    public var description: String {
        switch self {
        case .memory: ":memory:"
        case .sqlite(let path): path
        case .server(let server): server.description
        }
    }

    /// Whether two locations name the same store.
    public static func == (first: StateLocation, second: StateLocation) -> Bool {
        switch (first, second) {
        case (.memory, .memory): true
        case (.sqlite(let first), .sqlite(let second)): first == second
        case (.server(let first), .server(let second)): AnyHashable(first) == AnyHashable(second)
        default: false
        }
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .memory: hasher.combine(0)
        case .sqlite(let path):
            hasher.combine(1)
            hasher.combine(path)
        case .server(let server):
            hasher.combine(2)
            hasher.combine(AnyHashable(server))
        }
    }
}
