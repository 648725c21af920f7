/// What an inbox entry found for an event means: the one rule every store applies.
///
/// An entry matches an event by its source and id (or by id alone for an entry of the empty source, stored before
/// the inbox knew sources). A match stored for the event's own notification is a duplicate: its outputs are the
/// answer. A match stored for another notification is not: the producer reused an id, and answering with the
/// stored outputs would publish another notification's update.
public enum InboxMatch {
    /// The snapshot of a load for `requestIdentifier` that matched an entry stored for `storedRequestIdentifier`;
    /// `outputs` (the entry's) is read only for a duplicate.
    public static func snapshot(
        requestIdentifier: String, storedRequestIdentifier: String, outputs: () throws -> [OutboundMessage]
    ) rethrows -> StateSnapshot {
        guard storedRequestIdentifier == requestIdentifier else {
            return .idReused(requestIdentifier: storedRequestIdentifier)
        }
        return .processed(try outputs())
    }

    /// The result of a commit for `requestIdentifier` that met an entry stored for `storedRequestIdentifier`.
    public static func commitResult(
        requestIdentifier: String, storedRequestIdentifier: String, outputs: () throws -> [OutboundMessage]
    ) rethrows -> CommitResult {
        guard storedRequestIdentifier == requestIdentifier else {
            return .idReused(requestIdentifier: storedRequestIdentifier)
        }
        return .alreadyProcessed(try outputs())
    }
}
