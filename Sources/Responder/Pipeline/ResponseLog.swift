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

    init(_ base: Logger, for input: DecodedInput) {
        switch input {
        case .response(let response):
            self.init(base, eventID: response.event.id, response: response.event.data)
        case .lifecycle(let lifecycle):
            // A lifecycle event has no category or action of its own: the action names what it is.
            self.init(
                base, eventID: lifecycle.event.id, requestIdentifier: lifecycle.requestIdentifier, category: "",
                action: "lifecycle")
        case .followUp(let followUp):
            // The category is the stored record's, unknown until it is loaded.
            self.init(followUp: followUp.id, of: followUp.requestIdentifier, category: "", base: base)
        }
    }

    /// The log of the follow-up `id` of the notification `requestIdentifier` of `category`: its action says what it is.
    init(followUp id: String, of requestIdentifier: String, category: String, base: Logger) {
        self.init(base, eventID: id, requestIdentifier: requestIdentifier, category: category, action: "follow-up")
    }

    /// The log of `response`, handled as the event `eventID`.
    init(_ base: Logger, eventID: String, response: NotificationResponse) {
        self.init(
            base, eventID: eventID, requestIdentifier: response.notification.request.identifier,
            category: response.notification.request.content.categoryIdentifier,
            action: response.actionIdentifier.rawValue)
    }

    private init(_ base: Logger, eventID: String, requestIdentifier: String, category: String, action: String) {
        self.base = base
        self.eventID = DeadLetterInfo.boundedDetail(eventID)
        self.requestIdentifier = DeadLetterInfo.boundedDetail(requestIdentifier)
        self.category = DeadLetterInfo.boundedDetail(category)
        self.action = DeadLetterInfo.boundedDetail(action)
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
