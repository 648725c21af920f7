import Logging

/// Sends log lines to stderr at `level` and above, with their metadata as `key=value`, and returns the worker's
/// logger. stdout stays free for what a command outputs.
func bootstrapLogging(level: Logger.Level) -> Logger {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
    return Logger(label: "responder")
}
