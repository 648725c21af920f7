/// How a commit ended.
public enum CommitResult: Sendable, Hashable {
    /// Everything was written.
    case committed
    /// The notification changed since it was loaded: nothing was written; load and handle again.
    case versionConflict
    /// The event was processed meanwhile: nothing was written; these are the outputs stored then.
    case alreadyProcessed([OutboundMessage])
    /// An event of the same source and id was processed meanwhile for another notification, the one named: nothing
    /// was written (see ``StateSnapshot/idReused(requestIdentifier:)``).
    case idReused(requestIdentifier: String)
}
