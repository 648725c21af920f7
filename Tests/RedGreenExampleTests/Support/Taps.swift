import Foundation
import Logging
import NotificationEvents
import RedGreenExample
import Responder

/// Responses to red and green notifications, as the sample app would send them.
enum Taps {
    static let start = Date(timeIntervalSince1970: 1_795_165_200)

    static func message(
        _ id: String, _ action: String, request: String = "red-1", category: String = RedGreen.redCategoryIdentifier
    ) -> InboundMessage {
        let event = NotificationResponseEvent(
            id: id, source: "/tests", type: EventType.notificationResponse, time: start,
            data: NotificationResponse(
                actionIdentifier: ActionIdentifier(rawValue: action),
                notification: NotificationEvents.Notification(
                    date: start,
                    request: NotificationRequest(
                        identifier: request, content: NotificationContent(categoryIdentifier: category)))))
        return InboundMessage(
            body: EventCodec.encode(event), properties: MessageProperties(contentType: "application/cloudevents+json"))
    }

    /// The action identifiers of each update an outcome carries.
    static func actionSets(_ outcome: ResponseOutcome) throws -> [[String]] {
        try outcome.outputs.map {
            try EventCodec.decoder.decode(ActionSetUpdateEvent.self, from: Data($0.body)).data.actions.map(\.identifier)
        }
    }
}

/// A log handler that keeps every record with its metadata.
struct RecordingLogHandler: LogHandler {
    final class Records: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(message: String, metadata: Logger.Metadata)] = []

        func append(_ message: String, _ metadata: Logger.Metadata) {
            lock.withLock { entries.append((message, metadata)) }
        }

        var all: [(message: String, metadata: Logger.Metadata)] { lock.withLock { entries } }
    }

    let records: Records
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        records.append(event.message.description, metadata.merging(event.metadata ?? [:]) { $1 })
    }
}

extension Logger {
    /// A logger that drops everything, so test output stays readable.
    static let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
}
