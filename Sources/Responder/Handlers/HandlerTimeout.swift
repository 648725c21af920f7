/// The error a handler's run ends with when it outlasts its time limit (``PipelineConfiguration/handlerTimeout``, or
/// the limit it was registered with): the handler was cancelled, nothing it recorded is kept, and the input is retried
/// as after any retryable failure. An input whose last attempt timed out is dead-lettered as `handler-timeout`.
public struct HandlerTimeout: HandlerFailure, CustomStringConvertible {
    /// The extension's name, or `delegate` for the app tier.
    public var handler: String
    /// The limit it ran past.
    public var limit: Duration

    public var isRetryable: Bool { true }

    public var description: String {
        "handler-timeout: the \(handler == Self.delegate ? "app delegate" : "extension \"\(handler)\"") ran past its "
            + "limit of \(Self.readable(limit)) and was cancelled; nothing it did was kept. Make what it waits for answer in time, "
            + "or give it a longer limit at registration"
    }

    /// `limit` in whole seconds, or milliseconds when it has a fraction of a second.
    private static func readable(_ limit: Duration) -> String {
        let (seconds, attoseconds) = limit.components
        return attoseconds == 0 ? "\(seconds) s" : "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }

    /// The ``handler`` of the app tier.
    static let delegate = "delegate"
}
