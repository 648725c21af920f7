import GRDB
import GRDBSQLite
import Responder

/// Which SQLite failures mean the state file cannot serve now, as opposed to a fault of the event or a bug.
///
/// SQLite reports a full disk (or `max_page_count` reached), every kind of I/O error, a lock held past the busy
/// timeout (a write waits that long for other processes before BUSY or LOCKED comes back), a read-only or
/// unopenable file, a corrupt file or one that is not a database, a broken WAL lock protocol and an allocation
/// failure: none of them is the event's doing, and an operator (or time) can cure all of them. The store's
/// statements are fixed, so a statement that fails as SQL (SQLITE_ERROR: a table or column missing or renamed), a
/// transaction the database rolled back under it (SQLITE_ABORT, as GRDB reports every statement after an I/O
/// error in a transaction), a schema changed under it (SQLITE_SCHEMA), an authorizer's refusal (SQLITE_AUTH) or
/// an internal error says the database is wrong, not the event, and pauses too. Everything else (a constraint, a
/// value too big, a type mismatch, a misuse) stays a plain error, which fails the event.
enum SQLiteUnavailability {
    /// The primary result codes that make the store unavailable, with their names for the reason.
    static let names: [Int32: String] = [
        SQLITE_PERM: "SQLITE_PERM", SQLITE_BUSY: "SQLITE_BUSY", SQLITE_LOCKED: "SQLITE_LOCKED",
        SQLITE_NOMEM: "SQLITE_NOMEM", SQLITE_READONLY: "SQLITE_READONLY", SQLITE_IOERR: "SQLITE_IOERR",
        SQLITE_CORRUPT: "SQLITE_CORRUPT", SQLITE_FULL: "SQLITE_FULL", SQLITE_CANTOPEN: "SQLITE_CANTOPEN",
        SQLITE_PROTOCOL: "SQLITE_PROTOCOL", SQLITE_NOLFS: "SQLITE_NOLFS", SQLITE_NOTADB: "SQLITE_NOTADB",
        SQLITE_ERROR: "SQLITE_ERROR", SQLITE_INTERNAL: "SQLITE_INTERNAL", SQLITE_ABORT: "SQLITE_ABORT",
        SQLITE_SCHEMA: "SQLITE_SCHEMA", SQLITE_AUTH: "SQLITE_AUTH",
    ]

    /// `error` as a ``StateStoreUnavailable`` when it is one of those failures, else `error` itself.
    ///
    /// The reason is built from the result code alone (SQLite's fixed text for it, its name and the extended code),
    /// never from the error's message or statement, so it is short and holds no event data.
    static func map(_ error: any Error) -> any Error {
        guard let error = error as? DatabaseError, let name = names[error.resultCode.primaryResultCode.rawValue] else {
            return error
        }
        let extended = error.extendedResultCode.rawValue
        return StateStoreUnavailable(reason: "\(String(cString: sqlite3_errstr(extended))) (\(name), extended code \(extended))")
    }

    /// Runs `body`, mapping what it throws with ``map(_:)``.
    static func mapping<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw map(error)
        }
    }
}
