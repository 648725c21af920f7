/// Calls to a store that are served in groups: the calls that arrive while a group is being served are served
/// together in the next one, so when many responses are handled at once one transaction or one round trip serves
/// many events, and a lone call waits for nothing (a group never waits to fill).
///
/// The store's `serve` does the work: it gets a group of at most `maximumGroup` calls, in the order they arrived,
/// and gives one result per call, in the same order, each the result that call would have had alone after the ones
/// before it. A caller gets its result only when `serve` returns (for a commit, only after the transaction that
/// holds it has committed); a group that failed as a whole gives each of its callers the error.
public actor GroupedCalls<Call: Sendable, Answer: Sendable> {
    /// Serves a group of calls and gives one result per call, in order.
    public typealias Serve = @Sendable ([Call]) async -> [Result<Answer, any Error>]

    private struct Pending {
        var call: Call
        var continuation: CheckedContinuation<Answer, any Error>
    }

    /// The most calls one group takes, so a long queue does not make one huge transaction or statement.
    public let maximumGroup: Int
    private let serve: Serve
    private var pending: [Pending] = []
    private var isServing = false

    /// Calls served in groups of at most `maximumGroup` by `serve`.
    public init(maximumGroup: Int, serve: @escaping Serve) {
        precondition(maximumGroup > 0, "a group holds at least one call")
        self.maximumGroup = maximumGroup
        self.serve = serve
    }

    /// Makes `call` in the next group and returns its answer once that group is served.
    public func callAsFunction(_ call: Call) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            pending.append(Pending(call: call, continuation: continuation))
            if !isServing {
                isServing = true
                Task { await servePending() }
            }
        }
    }

    /// Serves groups until no call is waiting.
    private func servePending() async {
        while !pending.isEmpty {
            let group = Array(pending.prefix(maximumGroup))
            pending.removeFirst(group.count)
            let results = await serve(group.map(\.call))
            precondition(results.count == group.count, "a group's serve gives one result per call")
            for (member, result) in zip(group, results) { member.continuation.resume(with: result) }
        }
        isServing = false
    }
}

/// Group commit for a ``StateStore``: the commits that arrive while a batch is being written are written together in
/// the next one, each still atomic and checked as it would be alone.
public typealias GroupCommit = GroupedCalls<StateCommit, CommitResult>

/// Grouped loads for a ``StateStore``: the loads that arrive while a group is being read are read together in the
/// next one, each answered as it would be alone.
public typealias GroupLoad = GroupedCalls<StateLoad, StateSnapshot>
