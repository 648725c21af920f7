import Logging
import NotificationEvents

/// The log of one response: the pipeline's logger with the response's event id, request identifier, category and
/// action as metadata, each bounded as a dead letter's detail is (`DeadLetterInfo.boundedDetail(_:)`): they come
/// from the producer, and a log line must not repeat its bytes without bound.
///
/// The metadata goes with each message, built only when the level lets the message through, and the logger
/// handlers see is made only when they ask for it: setting metadata on a logger (which e.g. `StreamLogHandler`
/// renders at once) costs more than the rest of handling a response when nothing is logged.
struct ResponseLog: Sendable {
    let base: Logger
    let eventID: String
    let requestIdentifier: String
    let category: String
    let action: String

    init(_ base: Logger, for input: DecodedResponse) {
        self.init(base, eventID: input.event.id, response: input.event.data)
    }

    /// The log of `response`, handled as the event `eventID`.
    init(_ base: Logger, eventID: String, response: NotificationResponse) {
        self.base = base
        self.eventID = DeadLetterInfo.boundedDetail(eventID)
        requestIdentifier = DeadLetterInfo.boundedDetail(response.notification.request.identifier)
        category = DeadLetterInfo.boundedDetail(response.notification.request.content.categoryIdentifier)
        action = DeadLetterInfo.boundedDetail(response.actionIdentifier.rawValue)
    }

    var metadata: Logger.Metadata {
        [
            "event-id": .string(eventID), "request-identifier": .string(requestIdentifier),
            "category": .string(category), "action": .string(action),
        ]
    }

    /// The pipeline's logger with the response's metadata set, for handlers.
    var logger: Logger {
        var logger = base
        logger.handler.metadata.merge(metadata) { $1 }
        return logger
    }

    func log(_ level: Logger.Level, _ message: @autoclosure () -> Logger.Message, _ extra: @autoclosure () -> Logger.Metadata = [:]) {
        base.log(level: level, message(), metadata: metadata.merging(extra()) { $1 })
    }
}
