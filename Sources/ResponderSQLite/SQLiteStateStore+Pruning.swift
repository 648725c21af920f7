import Foundation
import GRDB

/// Pruning: old inbox entries and notifications go in bounded transactions that commits take turns with.
extension SQLiteStateStore {
    /// How many inbox entries or notifications one pruning transaction deletes (or, for notifications, looks at) at
    /// most: a few milliseconds of work, so commits wait little for the write lock, and each transaction adds a
    /// bounded amount to the WAL, which the checkpointer (`SQLiteCheckpointer`) recycles between them.
    static let pruningBatch = 2_000

    /// Deletes in transactions of `pruningBatch` entries, oldest first (their outputs go with them), then
    /// checkpoints the WAL; commits take turns with the batches.
    public func pruneInbox(processedBefore cutoff: Date) async throws -> Int {
        try await pruneInbox(processedBefore: cutoff, batchSize: Self.pruningBatch) { await Task.yield() }
    }

    /// ``pruneInbox(processedBefore:)`` in batches of `batchSize`, calling `betweenBatches` after each batch that
    /// may have more behind it.
    func pruneInbox(
        processedBefore cutoff: Date, batchSize: Int, betweenBatches: () async throws -> Void
    ) async throws -> Int {
        try await SQLiteUnavailability.mapping {
            var total = 0
            while true {
                let deleted = try await pool.write { db in
                    try db.execute(
                        sql: """
                            DELETE FROM inbox WHERE rowid IN
                                (SELECT rowid FROM inbox WHERE processed_at < ? ORDER BY processed_at LIMIT ?)
                            """, arguments: [cutoff.timeIntervalSince1970, batchSize])
                    return db.changesCount
                }
                total += deleted
                guard deleted == batchSize else { break }
                try await betweenBatches()
            }
            if total > 0 { try await checkpointer.checkpoint() }
            return total
        }
    }

    /// Handler states go with their notification (ON DELETE CASCADE). The hourly pass walks the table in rowid
    /// order, `pruningBatch` rows a transaction: an index on `changed_at` would cost a write on every commit to
    /// save one scan an hour, and deleting "the first n old rows" again and again would scan the kept rows
    /// before them again in every batch.
    public func pruneNotifications(changedBefore cutoff: Date) async throws -> Int {
        try await pruneNotifications(changedBefore: cutoff, batchSize: Self.pruningBatch) { await Task.yield() }
    }

    /// ``pruneNotifications(changedBefore:)`` in batches of `batchSize` rows, calling `betweenBatches` after each.
    func pruneNotifications(
        changedBefore cutoff: Date, batchSize: Int, betweenBatches: () async throws -> Void
    ) async throws -> Int {
        try await SQLiteUnavailability.mapping {
            var total = 0
            var after: Int64 = .min
            while true {
                let from = after
                let batch = try await pool.write { db -> (last: Int64, deleted: Int)? in
                    let window = "SELECT rowid AS id FROM notification WHERE rowid > ? ORDER BY rowid LIMIT ?"
                    guard let last = try Int64.fetchOne(db, sql: "SELECT max(id) FROM (\(window))", arguments: [from, batchSize])
                    else { return nil }
                    try db.execute(
                        sql: "DELETE FROM notification WHERE rowid > ? AND rowid <= ? AND changed_at < ?",
                        arguments: [from, last, cutoff.timeIntervalSince1970])
                    return (last, db.changesCount)
                }
                guard let batch else { break }
                total += batch.deleted
                after = batch.last
                try await betweenBatches()
            }
            if total > 0 { try await checkpointer.checkpoint() }
            return total
        }
    }
}
