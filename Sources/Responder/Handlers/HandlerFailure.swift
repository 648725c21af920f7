/// An error a handler throws that says whether trying again can help.
///
/// Errors that do not conform are retryable: a handler opts out of retries explicitly.
public protocol HandlerFailure: Error {
    /// Whether the same response may succeed if handled again later.
    var isRetryable: Bool { get }
}

extension Error {
    /// Whether handling the response again may succeed: false only for a ``HandlerFailure`` that says so.
    var isRetryableHandlerError: Bool {
        (self as? any HandlerFailure)?.isRetryable ?? true
    }
}
