import GRDB
import GRDBSQLite
import Responder

/// One of GRDB's cached statements, run through SQLite's C interface.
///
/// GRDB's statement API boxes every argument and builds row objects (with a dictionary of lowercased column
/// names per query); for the store's few short statements per event that cost several times what SQLite itself
/// spends. The statements still come from, and stay in, GRDB's per-connection cache, and are always left reset
/// with no bindings, as GRDB expects to find them.
///
/// Kept while it pays: Benchmarks/thresholds.json's replay row "redgreen sqlite" (247,300 instructions an event) fails without it.
struct SQLiteStatement {
    private let statement: OpaquePointer
    private let sql: String

    /// Runs `body` with the cached statement for `sql` on `db`, then resets it.
    static func with<T>(_ sql: String, in db: Database, _ body: (SQLiteStatement) throws -> T) throws -> T {
        let statement = SQLiteStatement(statement: try db.cachedStatement(sql: sql).sqliteStatement, sql: sql)
        defer {
            sqlite3_reset(statement.statement)
            sqlite3_clear_bindings(statement.statement)
        }
        return try body(statement)
    }

    /// SQLite copies what is bound this way, so Swift's buffers may go away before the statement runs.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds parameter `index` (from 1).
    func bind(_ index: Int32, _ text: String) throws {
        var text = text
        try check(text.withUTF8 { utf8 in
            // A null pointer would bind NULL, not the empty string.
            guard let base = utf8.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, nil) }
            return sqlite3_bind_text(statement, index, base, Int32(utf8.count), Self.transient)
        })
    }

    func bind(_ index: Int32, _ blob: [UInt8]) throws {
        try check(blob.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return sqlite3_bind_zeroblob(statement, index, 0) }
            return sqlite3_bind_blob(statement, index, base, Int32(bytes.count), Self.transient)
        })
    }

    func bind(_ index: Int32, _ integer: Int64) throws {
        try check(sqlite3_bind_int64(statement, index, integer))
    }

    func bind(_ index: Int32, _ number: Double) throws {
        try check(sqlite3_bind_double(statement, index, number))
    }

    /// Runs the statement to its end.
    func execute() throws {
        while try step() {}
    }

    /// Moves to the next row; false at the end.
    func step() throws -> Bool {
        let code = sqlite3_step(statement)
        if code == SQLITE_ROW { return true }
        if code == SQLITE_DONE { return false }
        throw error(code)
    }

    func isNull(_ column: Int32) -> Bool {
        sqlite3_column_type(statement, column) == SQLITE_NULL
    }

    func text(_ column: Int32) -> String {
        guard let text = sqlite3_column_text(statement, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        guard let blob = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(statement, column))))
    }

    func integer(_ column: Int32) -> Int64 {
        sqlite3_column_int64(statement, column)
    }

    func double(_ column: Int32) -> Double {
        sqlite3_column_double(statement, column)
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw error(code) }
    }

    private func error(_ code: Int32) -> DatabaseError {
        DatabaseError(
            resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(statement))),
            sql: sql)
    }
}
