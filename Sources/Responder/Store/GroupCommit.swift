/// Group commit for a ``StateStore``: the commits that arrive while a batch is being written are written together
/// in the next one, so when many responses are handled at once one transaction serves many events, and a lone
/// commit waits for nothing (a batch never waits to fill).
///
/// The store's `write` does the work: it gets a batch of at most `maximumBatch` commits, in the order they arrived,
/// and gives one result per commit, in the same order, each the result that commit would have had alone after the
/// ones before it. A commit's caller gets its result only when `write` returns, so only after the transaction that
/// holds its commit has committed; a batch that failed as a whole gives each of its callers the error.
public actor GroupCommit {
    /// Writes a batch of commits and gives one result per commit, in order.
    public typealias Write = @Sendable ([StateCommit]) async -> [Result<CommitResult, any Error>]

    private struct Pending {
        var commit: StateCommit
        var continuation: CheckedContinuation<CommitResult, any Error>
    }

    /// The most commits one batch takes, so a long queue does not make one huge transaction.
    public let maximumBatch: Int
    private let write: Write
    private var pending: [Pending] = []
    private var isWriting = false

    /// A group commit that writes batches of at most `maximumBatch` commits with `write`.
    public init(maximumBatch: Int, write: @escaping Write) {
        precondition(maximumBatch > 0, "a batch holds at least one commit")
        self.maximumBatch = maximumBatch
        self.write = write
    }

    /// Commits `commit` in the next batch and returns its result once that batch is written.
    public func commit(_ commit: StateCommit) async throws -> CommitResult {
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
            let batch = Array(pending.prefix(maximumBatch))
            pending.removeFirst(batch.count)
            let results = await write(batch.map(\.commit))
            precondition(results.count == batch.count, "a group commit's write gives one result per commit")
            for (member, result) in zip(batch, results) { member.continuation.resume(with: result) }
        }
        isWriting = false
    }
}
