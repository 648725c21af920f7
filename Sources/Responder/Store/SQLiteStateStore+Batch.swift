import GRDB

extension SQLiteStateStore {
    /// The most commits one transaction takes (``GroupCommit``).
    static let maximumBatch = 256

    /// A commit of a batch threw; the batch was rolled back.
    private struct MemberFailure: Error {
        var underlying: any Error
    }

    /// The result of each commit of `batch`, written in one transaction (``GroupCommit``'s write).
    ///
    /// Within the batch each commit is checked and written in turn, exactly as it would be alone (``apply(_:in:)``):
    /// a commit that finds its event processed or its notification changed writes nothing and gets that result, and
    /// a later commit of the batch sees what an earlier one wrote. If writing one commit throws, the batch is rolled
    /// back and every commit of it is written again in a transaction of its own, so only the faulty one fails; if
    /// the transaction itself cannot start or commit (e.g. another process held the file past the busy timeout),
    /// each commit of the batch gets that error.
    static func write(_ batch: [StateCommit], to pool: DatabasePool) async -> [Result<CommitResult, any Error>] {
        do {
            return try await pool.write { db in
                try batch.map { commit in
                    do {
                        return .success(try apply(commit, in: db))
                    } catch {
                        throw MemberFailure(underlying: error)
                    }
                }
            }
        } catch is MemberFailure {
            var results: [Result<CommitResult, any Error>] = []
            for commit in batch {
                do {
                    results.append(.success(try await pool.write { db in try apply(commit, in: db) }))
                } catch {
                    results.append(.failure(error))
                }
            }
            return results
        } catch {
            return batch.map { _ in .failure(error) }
        }
    }
}
