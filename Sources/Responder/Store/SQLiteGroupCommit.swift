import GRDB

/// Group commit for ``SQLiteStateStore``: the commits that arrive while a transaction is being written are
/// written together in the next one, so when many responses are handled at once one transaction (one WAL
/// append, one lock round trip with other processes) serves many events, and a lone commit waits for nothing.
///
/// Within a batch each commit is checked and written in turn, exactly as it would be alone
/// (``SQLiteStateStore/apply(_:in:)``): a commit that finds its event processed or its notification changed
/// writes nothing and gets that result, and a later commit of the batch sees what an earlier one wrote. Results
/// are given only after the batch's transaction has committed. If writing one commit throws, the batch is rolled
/// back and every commit of it is written again in a transaction of its own, so only the faulty one fails; if the
/// transaction itself cannot start or commit (e.g. another process held the file past the busy timeout), each
/// commit of the batch gets that error.
actor SQLiteGroupCommit {
    private struct Pending {
        var commit: StateCommit
        var continuation: CheckedContinuation<CommitResult, any Error>
    }

    /// A commit of a batch threw; the batch was rolled back.
    private struct MemberFailure: Error {
        var underlying: any Error
    }

    /// The most commits one transaction takes, so a long queue does not make one huge transaction.
    private static let maximumBatch = 256

    private let pool: DatabasePool
    private var pending: [Pending] = []
    private var isWriting = false

    init(pool: DatabasePool) {
        self.pool = pool
    }

    func commit(_ commit: StateCommit) async throws -> CommitResult {
        try await withCheckedThrowingContinuation { continuation in
            pending.append(Pending(commit: commit, continuation: continuation))
            if !isWriting {
                isWriting = true
                Task { await writePending() }
            }
        }
    }

    /// Writes batches until no commit is waiting.
    private func writePending() async {
        while !pending.isEmpty {
            let batch = Array(pending.prefix(Self.maximumBatch))
            pending.removeFirst(batch.count)
            let results = await write(batch.map(\.commit))
            for (member, result) in zip(batch, results) { member.continuation.resume(with: result) }
        }
        isWriting = false
    }

    /// The result of each commit of `batch`, written in one transaction if none of them throws.
    private nonisolated func write(_ batch: [StateCommit]) async -> [Result<CommitResult, any Error>] {
        do {
            return try await pool.write { db in
                try batch.map { commit in
                    do {
                        return .success(try SQLiteStateStore.apply(commit, in: db))
                    } catch {
                        throw MemberFailure(underlying: error)
                    }
                }
            }
        } catch is MemberFailure {
            var results: [Result<CommitResult, any Error>] = []
            for commit in batch {
                do {
                    results.append(.success(try await pool.write { db in try SQLiteStateStore.apply(commit, in: db) }))
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
