import AMQP
import ArgumentParser
import Foundation
import NotificationEvents
import Responder
import ResponderIntake
import ResponderWorker

/// Which dead letters a `redrive` takes: every condition given must hold. Without any, all of them.
struct DeadLetterSelection: ParsableArguments {
    @Option(help: "Only messages dead-lettered for this reason code (\(DeadLetterReason.allCases.map(\.rawValue).joined(separator: ", "))).")
    var reason: DeadLetterReason?

    @Option(help: "Only the message with this message id.")
    var messageId: String?

    @Option(help: "Only messages about this notification (the event's request identifier).")
    var requestIdentifier: String?

    @Option(help: "Only messages about notifications of this category.")
    var category: String?

    @Option(help: "Only messages dead-lettered at or after this time (RFC 3339, e.g. 2026-11-25T08:00:00Z).")
    var since: String?

    @Option(help: "Only messages dead-lettered before this time (RFC 3339).")
    var until: String?

    /// The time window, checked once before any message is read.
    func window() throws -> (since: Date?, until: Date?) {
        func date(_ text: String?, _ flag: String) throws -> Date? {
            guard let text else { return nil }
            guard let date = try? Date(text, strategy: .iso8601) else {
                throw ValidationError("\(flag): not an RFC 3339 time: \(text)")
            }
            return date
        }
        return (try date(since, "--since"), try date(until, "--until"))
    }

    /// Whether `message` (whose headers gave `origin`) is selected. The notification and category are read from the
    /// message's event by the contract's rules, so a message that does not decode matches neither.
    func matches(_ message: AMQPDelivery, _ origin: DeadLetterOrigin, window: (since: Date?, until: Date?)) -> Bool {
        if let reason, origin.reason != reason { return false }
        if let messageId, message.properties.messageID != messageId { return false }
        if window.since != nil || window.until != nil {
            guard let at = origin.deadLetteredAt else { return false }
            if let since = window.since, at < since { return false }
            if let until = window.until, at >= until { return false }
        }
        if requestIdentifier != nil || category != nil {
            guard let event = try? ResponsePipeline.decodeEvent(message.message) else { return false }
            let request = event.data.notification.request
            if let requestIdentifier, request.identifier != requestIdentifier { return false }
            if let category, request.content.categoryIdentifier != category { return false }
        }
        return true
    }
}
