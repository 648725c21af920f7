import Responder

extension StateStore {
    /// One load, as a batch of one: what a test asks of a store about a single event.
    public func load(requestIdentifier: String, source: String, eventID: String) async throws -> StateSnapshot {
        try await load([StateLoad(requestIdentifier: requestIdentifier, source: source, eventID: eventID)])[0].get()
    }

    /// One commit, as a batch of one.
    public func commit(_ commit: StateCommit) async throws -> CommitResult {
        try await self.commit([commit])[0].get()
    }
}
