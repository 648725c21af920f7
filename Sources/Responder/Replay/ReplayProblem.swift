import NotificationEvents

/// A fixture line that did not end in outputs: reported with its line number, and the replay goes on.
public struct ReplayProblem: Sendable, Hashable, CustomStringConvertible {
    /// What happened to the line.
    public enum Kind: Sendable, Hashable {
        /// The line or its event can never be handled.
        case deadLettered(DeadLetterReason, detail: String)
        /// A handler or the store failed.
        case failed(detail: String, retryable: Bool)
    }

    /// The line's number in the fixture, from 1.
    public var line: Int
    /// What happened to it.
    public var kind: Kind

    public var description: String {
        switch kind {
        case .deadLettered(let reason, let detail): "line \(line): dead-lettered (\(reason.rawValue)): \(detail)"
        case .failed(let detail, let retryable):
            "line \(line): failed (\(retryable ? "retryable" : "permanent")): \(detail)"
        }
    }
}
