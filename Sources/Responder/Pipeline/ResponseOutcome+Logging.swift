import Logging
import NotificationEvents

extension ResponseOutcome {
    /// How an outcome is logged: debug for a handled response (one line per input would drown a busy worker's
    /// log, and metrics count them), warnings for rejections and retryable failures, errors for permanent ones.
    /// An unavailable store is debug too: every input in hand meets it at once, and the worker logs the outage once.
    var logLevel: Logger.Level {
        switch self {
        case .completed, .storeUnavailable, .dependencyUnavailable: .debug
        case .failed(_, let retryable): retryable ? .warning : .error
        case .deadLetter: .warning
        }
    }

    var logMessage: Logger.Message {
        switch self {
        case .completed: "response handled"
        case .failed: "response failed"
        case .deadLetter: "input rejected"
        case .storeUnavailable: "response not handled: the state store is unavailable"
        case .dependencyUnavailable: "response not handled: a dependency of its handler is unavailable"
        }
    }

    var logMetadata: Logger.Metadata {
        switch self {
        case .completed(let outputs, let disposition):
            ["outcome": "\(disposition.rawValue)", "outputs": "\(outputs.count)"]
        case .failed(let error, let retryable):
            // A handler's error can quote the input it failed on.
            ["outcome": "failed", "retryable": "\(retryable)", "error": "\(DeadLetterInfo.boundedDetail("\(error)"))"]
        case .deadLetter(let reason, let detail):
            // A detail can quote the input (a producer's category, say): bounded as the dead letter's header is.
            [
                "outcome": "dead_lettered", "reason": "\(reason.rawValue)",
                "detail": "\(DeadLetterInfo.boundedDetail(detail))",
            ]
        case .storeUnavailable:
            // The worker logs the reason once for its pause, not once per input.
            ["outcome": "store_unavailable"]
        case .dependencyUnavailable:
            ["outcome": "dependency_unavailable"]
        }
    }
}
