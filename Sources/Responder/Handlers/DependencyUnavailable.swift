/// The error a handler throws when something it depends on (an API, a service of its own) is unavailable: not the
/// response's fault, so trying it again later can help, and so can waiting.
///
/// On its own it fails the input retryably, as any retryable error does. When the same handler fails with it for
/// ``PipelineConfiguration/dependencyFailures`` different events in a row, the pipeline reports
/// ``ResponseOutcome/dependencyUnavailable(_:)`` instead, and a worker pauses as it does for an unavailable state
/// store: inputs go back to the queue uncounted rather than through the retry queues to the dead-letter queue.
///
/// ```swift
/// do {
///     try await chat.post(reply)
/// } catch let error as URLError where error.code == .cannotConnectToHost {
///     throw DependencyUnavailable("chat API", underlying: error)
/// }
/// ```
public struct DependencyUnavailable: HandlerFailure, CustomStringConvertible {
    /// What is unavailable, as people call it; it goes to the log, never to `/health/ready`.
    public var dependency: String
    /// What the handler met, if anything.
    public var underlying: (any Error)?

    /// `dependency` is unavailable, as `underlying` shows.
    public init(_ dependency: String, underlying: (any Error)? = nil) {
        self.dependency = dependency
        self.underlying = underlying
    }

    public var isRetryable: Bool { true }

    public var description: String {
        "dependency-unavailable: \(dependency)" + (underlying.map { ": \($0)" } ?? "")
    }
}
