/// An error a handler throws that says whether trying again can help.
///
/// Errors that do not conform are retryable: a handler opts out of retries explicitly.
public protocol HandlerFailure: Error {
    /// Whether the same response may succeed if handled again later.
    var isRetryable: Bool { get }
}

/// A handler error that retrying cannot fix: the response is dead-lettered at once.
public struct PermanentFailure: HandlerFailure, CustomStringConvertible {
    /// What went wrong.
    public var underlying: any Error

    /// Marks `underlying` as permanent.
    public init(_ underlying: any Error) {
        self.underlying = underlying
    }

    /// A permanent failure described by `message` alone.
    public init(_ message: String) {
        self.underlying = Message(text: message)
    }

    public var isRetryable: Bool { false }

    public var description: String { String(describing: underlying) }

    private struct Message: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }
}

extension Error {
    /// Whether handling the response again may succeed: false only for a ``HandlerFailure`` that says so.
    var isRetryableHandlerError: Bool {
        (self as? any HandlerFailure)?.isRetryable ?? true
    }
}
