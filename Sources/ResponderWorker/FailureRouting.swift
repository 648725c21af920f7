import AMQP
import Foundation
import NotificationEvents
import Responder

/// Decides where an input goes when it cannot complete: the next retry queue, or the dead-letter exchange with
/// headers saying why (`DeadLetterInfo`, Schemas/dead-letter.v1.schema.json).
///
/// The input's body and properties travel unchanged; only headers are added, so a re-driven message is the
/// message the producer sent.
struct FailureRouting: Sendable {
    var topology: Topology
    var workerID: String

    /// The failure history an input carries from earlier attempts, or a fresh one.
    struct History {
        var attempts: Int
        var firstFailure: Date?
        var originalExchange: String
        var originalRoutingKey: String

        init(_ delivery: AMQPDelivery) {
            let headers = delivery.properties.headers
            attempts = headers[DeadLetterInfo.Header.attempts.rawValue]?.intValue ?? 0
            firstFailure = headers[DeadLetterInfo.Header.firstFailure.rawValue]?.stringValue.flatMap {
                try? Date($0, strategy: .iso8601)
            }
            originalExchange = headers[DeadLetterInfo.Header.originalExchange.rawValue]?.stringValue ?? delivery.exchange
            originalRoutingKey =
                headers[DeadLetterInfo.Header.originalRoutingKey.rawValue]?.stringValue ?? delivery.routingKey
        }
    }

    /// The publication for a failed handler: a retry while attempts remain and the error is retryable, else a
    /// dead letter.
    func afterFailure(of delivery: AMQPDelivery, detail: String, retryable: Bool, now: Date) -> (Publication, retried: Bool) {
        let history = History(delivery)
        let attempts = history.attempts + 1
        guard retryable, attempts <= topology.retryDelays.count else {
            let reason = Self.deadLetterReason(retryable: retryable)
            return (deadLetter(delivery, reason: reason, detail: detail, attempts: attempts, history: history, now: now), false)
        }
        var properties = delivery.properties
        for (name, value) in failureHeaders(reason: nil, detail: detail, attempts: attempts, history: history, now: now) {
            properties.headers[name] = value
        }
        // Through the default exchange straight to the retry queue, which dead-letters back into the input queue.
        let retry = Publication(
            exchange: "", routingKey: topology.retryQueue(attempt: attempts), body: delivery.body, properties: properties)
        return (retry, true)
    }

    /// Why a failed input that is not retried is dead-lettered: its retries ran out, or its handler said never.
    static func deadLetterReason(retryable: Bool) -> DeadLetterReason {
        retryable ? .retriesExhausted : .handlerFailed
    }

    /// The publication that dead-letters `delivery` for `reason`.
    func deadLetter(
        _ delivery: AMQPDelivery, reason: DeadLetterReason, detail: String, attempts: Int? = nil, history: History? = nil,
        now: Date
    ) -> Publication {
        let history = history ?? History(delivery)
        var properties = delivery.properties
        let headers = failureHeaders(
            reason: reason, detail: detail, attempts: attempts ?? history.attempts, history: history, now: now)
        for (name, value) in headers { properties.headers[name] = value }
        return Publication(
            exchange: topology.deadLetterExchange, routingKey: history.originalRoutingKey, body: delivery.body,
            properties: properties)
    }

    private func failureHeaders(
        reason: DeadLetterReason?, detail: String, attempts: Int, history: History, now: Date
    ) -> FieldTable {
        let info = DeadLetterInfo(
            reason: reason ?? .retriesExhausted, detail: detail, originalExchange: history.originalExchange,
            originalRoutingKey: history.originalRoutingKey, attempts: attempts,
            firstFailure: history.firstFailure ?? now, lastFailure: now, worker: workerID)
        var headers = info.headers
        // A retry is not a dead letter yet: it carries the history but no reason, so nobody mistakes it for one.
        if reason == nil { headers[DeadLetterInfo.Header.reason.rawValue] = nil }
        return FieldTable(headers.sorted { $0.key < $1.key }.map { ($0.key, FieldValue($0.value)) })
    }
}
