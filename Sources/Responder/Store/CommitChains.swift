/// The rule for a batch that holds several commits of one notification (``StateStore/commit(_:)``): each is
/// checked and written after the ones before it, and once one of them is not committed, the later ones are
/// answered as version conflicts without being written. A later commit was computed from the state the earlier one
/// would have stored; written anyway, it could pass the version check against another writer's change of the same
/// version.
///
/// A store asks ``mayWrite(_:)`` before it writes a commit of the batch, in the batch's order, and tells
/// ``record(_:of:)`` how each written commit ended.
public struct CommitChains: Sendable {
    /// The notifications a commit of the batch was not committed for.
    private var broken: Set<String> = []

    /// No commit of the batch seen yet.
    public init() {}

    /// Whether `commit` may be written: false once an earlier commit of its notification in the batch was not.
    public func mayWrite(_ commit: StateCommit) -> Bool {
        !broken.contains(commit.inboxEntry.requestIdentifier)
    }

    /// Notes how a written `commit` ended.
    public mutating func record(_ result: Result<CommitResult, any Error>, of commit: StateCommit) {
        if case .success(.committed) = result { return }
        broken.insert(commit.inboxEntry.requestIdentifier)
    }

    /// The results of `commits` written one after another by `write` (which gives the result each would have
    /// alone after the ones before it), with the rule applied; `write` is not called for a commit the rule answers.
    public mutating func write(
        _ commits: [StateCommit], by write: (StateCommit) throws -> CommitResult
    ) -> [Result<CommitResult, any Error>] {
        commits.map { commit in
            guard mayWrite(commit) else { return .success(.versionConflict) }
            let result = Result { try write(commit) }
            record(result, of: commit)
            return result
        }
    }
}
