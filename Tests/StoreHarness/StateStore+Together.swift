import Responder

extension StateStore {
    /// The commits as one batch; a thrown error is every commit's.
    public func commitTogether(_ commits: [StateCommit]) async -> [Result<CommitResult, any Error>] {
        do {
            return try await commit(commits)
        } catch {
            return commits.map { _ in .failure(error) }
        }
    }

    /// The loads as one batch; a thrown error is every load's.
    public func loadTogether(_ loads: [StateLoad]) async -> [Result<StateSnapshot, any Error>] {
        do {
            return try await load(loads)
        } catch {
            return loads.map { _ in .failure(error) }
        }
    }
}
