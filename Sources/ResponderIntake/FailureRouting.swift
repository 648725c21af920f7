import AMQP
import Foundation
import NotificationEvents
import Responder

/// Decides where an input goes when it cannot complete: the next retry queue, or the dead-letter exchange with
/// headers saying why (`DeadLetterInfo`, Schemas/dead-letter.v1.schema.json).
///
/// The input's body and properties travel unchanged; only headers are added, so a re-driven message is the
/// message the producer sent.
package struct FailureRouting: Sendable {
    package var topology: Topology
    package var workerID: String

    /// Routing for `topology`, naming `workerID` in the headers.
    package init(topology: Topology, workerID: String) {
        self.topology = topology
        self.workerID = workerID
    }

    /// The failure history an input carries from earlier attempts, or a fresh one.
    ///
    /// The headers are the worker's own only if nobody forged them, so each is checked: attempts must be an integer
    /// from 0 to the number of retries (more counts as every retry spent), the first failure a date of at most 64
    /// bytes, the original exchange and routing key strings AMQP can route with (at most 255 bytes). Anything else
    /// is ignored, and the delivery's own values stand in.
    ///
    /// Where the input came from is read from the headers only on an input back from a retry queue: there the
    /// worker wrote them itself on the earlier trip, over anything the producer sent. On any other delivery (from
    /// the input exchange, or a shard) they are a producer's and never name the origin: the broker's exchange and
    /// routing key do, which is where a redrive sends the input back.
    package struct History {
        var attempts: Int
        var firstFailure: Date?
        var originalExchange: String
        var originalRoutingKey: String

        init(_ delivery: AMQPDelivery, retries: Int, isBackFromRetry: Bool) {
            let headers = delivery.properties.headers
            let attempts = headers[DeadLetterInfo.Header.attempts.rawValue]?.intValue ?? 0
            self.attempts = min(max(attempts, 0), retries)
            firstFailure = headers[DeadLetterInfo.Header.firstFailure.rawValue]?.stringValue.flatMap {
                $0.utf8.count <= 64 ? try? Date($0, strategy: .iso8601) : nil
            }
            let recorded: (FieldValue?) -> String? = { isBackFromRetry ? Self.routable($0) : nil }
            originalExchange = recorded(headers[DeadLetterInfo.Header.originalExchange.rawValue]) ?? delivery.exchange
            originalRoutingKey =
                recorded(headers[DeadLetterInfo.Header.originalRoutingKey.rawValue]) ?? delivery.routingKey
        }

        private static func routable(_ value: FieldValue?) -> String? {
            guard let text = value?.stringValue, text.utf8.count <= PublishLimits.maxShortStringBytes else { return nil }
            return text
        }
    }

    /// The publication for a failed handler: a retry while attempts remain and the error is retryable, else a
    /// dead letter, with its reason (`nil` for a retry): `handler-timeout` when the last attempt `timedOut`. A retry that would break `limits` (the input's headers
    /// and the failure headers over a frame) is a dead letter as ``DeadLetterReason/unpublishable`` instead.
    ///
    /// An ordered topology retries in place (`retriedInPlace` times already, the first failure at
    /// `firstFailureInPlace`), so its failures are final here: a retry queue would put the input behind the
    /// notification's later events.
    package func afterFailure(
        of delivery: AMQPDelivery, detail: String, retryable: Bool, timedOut: Bool = false, retriedInPlace: Int = 0,
        firstFailureInPlace: Date? = nil, limits: PublishLimits, now: Date
    ) -> (ForwardedInput, deadLetterReason: DeadLetterReason?) {
        var history = history(of: delivery)
        history.firstFailure = history.firstFailure ?? firstFailureInPlace
        let attempts = history.attempts + 1 + retriedInPlace
        guard retryable, !topology.isOrdered, attempts <= topology.retryDelays.count else {
            let reason = timedOut ? .handlerTimeout : Self.deadLetterReason(retryable: retryable)
            let letter = deadLetter(
                delivery, reason: reason, detail: detail, attempts: attempts, history: history, limits: limits, now: now)
            return (letter, reason)
        }
        var properties = delivery.properties
        for (name, value) in failureHeaders(reason: nil, detail: detail, attempts: attempts, history: history, now: now) {
            properties.headers[name] = value
        }
        // Through the default exchange straight to the retry queue, which dead-letters back into the input queue.
        let retry = ForwardedInput(
            exchange: "", routingKey: topology.retryQueue(attempt: attempts), body: delivery.body, properties: properties)
        if let problem = limits.problem(retry) {
            return (deadLetter(delivery, unpublishable: "its retry: \(problem)", limits: limits, now: now), .unpublishable)
        }
        return (retry, nil)
    }

    /// Why a failed input that is not retried is dead-lettered: its retries ran out, or its handler said never.
    package static func deadLetterReason(retryable: Bool) -> DeadLetterReason {
        retryable ? .retriesExhausted : .handlerFailed
    }

    /// The dead letter of an input for which `problem` (what ``PublishLimits`` said) keeps an output or retry
    /// from being published.
    package func deadLetter(
        _ delivery: AMQPDelivery, unpublishable problem: String, limits: PublishLimits, now: Date
    ) -> ForwardedInput {
        deadLetter(
            delivery, reason: .unpublishable, detail: "a message built for this input cannot be published: \(problem)",
            limits: limits, now: now)
    }

    /// The publication that dead-letters `delivery` for `reason`, to the dead-letter exchange with the original
    /// routing key (cut to 255 bytes). Should the input's own properties make it break `limits` (its headers and
    /// the failure headers over a frame, a property that decoding made longer than 255 bytes), it goes with only
    /// the failure headers and the properties that fit, and the detail says so. The body always travels.
    package func deadLetter(
        _ delivery: AMQPDelivery, reason: DeadLetterReason, detail: String, attempts: Int? = nil, history: History? = nil,
        limits: PublishLimits, now: Date
    ) -> ForwardedInput {
        let history = history ?? self.history(of: delivery)
        let attempts = attempts ?? history.attempts
        var letter = ForwardedInput(
            exchange: topology.deadLetterExchange,
            routingKey: String(history.originalRoutingKey.prefix(utf8Bytes: PublishLimits.maxShortStringBytes)),
            body: delivery.body, properties: delivery.properties)
        for (name, value) in failureHeaders(reason: reason, detail: detail, attempts: attempts, history: history, now: now) {
            letter.properties.headers[name] = value
        }
        guard let problem = limits.problem(letter) else { return letter }
        letter.properties = Self.fittingProperties(of: delivery.properties)
        let explained = "\(detail); the input's headers were dropped: \(problem)"
        for (name, value) in failureHeaders(reason: reason, detail: explained, attempts: attempts, history: history, now: now) {
            letter.properties.headers[name] = value
        }
        return letter
    }

    /// The history `delivery` carries, checked against this topology's retries.
    package func history(of delivery: AMQPDelivery) -> History {
        // A retry queue dead-letters into the input queue through the default exchange (see Topology).
        let isBackFromRetry = !topology.isOrdered && delivery.exchange.isEmpty && delivery.routingKey == topology.inputQueue
        return History(delivery, retries: topology.retryDelays.count, isBackFromRetry: isBackFromRetry)
    }

    /// The properties without headers and without a short string longer than a publish carries.
    private static func fittingProperties(of properties: MessageProperties) -> MessageProperties {
        var kept = properties
        kept.headers = [:]
        for property in ShortStringProperty.allCases
        where (kept[shortString: property]?.utf8.count ?? 0) > PublishLimits.maxShortStringBytes {
            kept[shortString: property] = nil
        }
        return kept
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
        return FieldTable(json: headers)
    }
}
