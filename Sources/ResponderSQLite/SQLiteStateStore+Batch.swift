import GRDB
import Responder

extension SQLiteStateStore {
    /// The most commits one transaction takes, and the most loads one hop to the writer's queue reads.
    static let maximumBatch = 256

    /// A commit of a batch threw; the batch was rolled back.
    private struct MemberFailure: Error {
        var underlying: any Error
    }

    /// The result of each commit of `batch`, written in one transaction, with `chains`' rule for several commits of
    /// one notification (``CommitChains``), which goes on to the next batch of the same call.
    ///
    /// Within the batch each commit is checked and written in turn, exactly as it would be alone (``apply(_:in:)``):
    /// a commit that finds its event processed or its notification changed writes nothing and gets that result, and
    /// a later commit of the batch sees what an earlier one wrote. If writing one commit throws, the batch is rolled
    /// back and every commit of it is written again in a transaction of its own, so only the faulty one fails (and
    /// the later commits of its notification, by the rule); if the transaction itself cannot start or commit (e.g.
    /// another process held the file past the busy timeout), each commit of the batch gets that error.
    static func write(
        _ batch: [StateCommit], chains: inout CommitChains, to pool: DatabasePool
    ) async -> [Result<CommitResult, any Error>] {
        let before = chains
        do {
            let (results, after) = try await pool.write { db in
                var chains = before
                var failure: MemberFailure?
                let results = chains.write(batch) { commit in
                    // After a failed statement SQLite may have rolled the transaction back itself (SQLITE_FULL,
                    // SQLITE_IOERR, ...): a later statement would then commit alone, outside the batch, part of a
                    // commit without the rest (an inbox entry without its outputs). Nothing more is written.
                    if let failure { throw failure }
                    do {
                        return try apply(commit, in: db)
                    } catch {
                        failure = MemberFailure(underlying: error)
                        throw failure!
                    }
                }
                if let failure { throw failure }
                return (results, chains)
            }
            chains = after
            return results
        } catch is MemberFailure {
            var results: [Result<CommitResult, any Error>] = []
            for commit in batch {
                guard chains.mayWrite(commit) else {
                    results.append(.success(.versionConflict))
                    continue
                }
                let result: Result<CommitResult, any Error>
                do {
                    result = .success(try await pool.write { db in try apply(commit, in: db) })
                } catch {
                    result = .failure(error)
                }
                chains.record(result, of: commit)
                results.append(result)
            }
            return results
        } catch {
            for commit in batch { chains.record(.failure(error), of: commit) }
            return batch.map { _ in .failure(error) }
        }
    }
}
