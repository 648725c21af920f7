import AMQP
import Foundation
import NotificationEvents
import Responder
import Tracing

/// What the session does with an input once the scheduler completed it: carries out its ``SettlementPlan`` (the
/// publications, on the output channel), waits for their confirms, and acknowledges or rejects it.
extension BrokerSession {
    /// What one input is waiting for before it can be acknowledged.
    struct Settlement: Sendable {
        var received: Received
        var confirmations: [PublishConfirmation]
        /// From handing the publications to the connection to their confirms, while tracing is on.
        var publishSpan: (any Span)?
        var outcome: WorkerMetrics.Outcome
        var reason: DeadLetterReason?
    }

    /// A delivery whose body was over the limit arrives without it (the client discarded the frames): the broker
    /// still holds the message whole, so rejecting it lets the input queue's dead-letter exchange keep it, body
    /// and all, with the broker's `x-death` (reason `rejected`; redrive reads it as `body-too-large`).
    func refuseOversized(_ delivery: AMQPDelivery, acks: Acknowledger) throws(AMQPError) {
        try acks.deadLetterThroughBroker(delivery.deliveryTag)
        if let tracing {
            tracing.finish(
                tracing.startProcessing(delivery.message), outcome: .deadLettered, reason: .bodyTooLarge)
        }
        logger.warning(
            "input body over the limit; dead-lettered by the broker without reading it",
            metadata: [
                "message-id": "\(DeadLetterInfo.boundedDetail(delivery.properties.messageID ?? ""))",
                "body-size": "\(delivery.bodySize)", "limit": "\(pipeline.configuration.maxBodySize)",
            ])
        metrics.record(.deadLettered)
        metrics.deadLettered(reason: DeadLetterReason.bodyTooLarge.rawValue)
    }

    func publish(
        _ completion: ResponseScheduler<Received>.Completion, on channel: AMQPChannel
    ) throws(AMQPError) -> Settlement {
        let delivery = completion.tag.delivery
        let plan = SettlementPlan(
            completion.outcome, of: delivery, eventID: completion.event?.id, from: completion.tag.input.queue,
            retriedInPlace: completion.retriedInPlace, firstFailureInPlace: completion.firstFailureInPlace,
            routing: failures, limits: channel.publishLimits, now: Date())
        if plan.worked { pause.inputWorked() }
        if let unavailability = plan.unavailability, pause.unavailable(unavailability) { cancelConsumer() }
        for warning in plan.warnings { logger.warning(warning.message, metadata: warning.metadata) }
        var publishSpan: (any Span)?
        var stampedWith: (any Span)?
        if let tracing, let span = completion.tag.span {
            if let event = completion.event { tracing.describe(span, event: event) }
            if case .completed = completion.outcome, plan.reason == nil { stampedWith = span }
            if plan.publicationCount > 0 { publishSpan = tracing.startPublishing(plan.publicationCount, of: span) }
        }
        // The worker's edge: an output goes out as it is, stamped with the span that made it.
        var confirmations = try plan.outputs.map { output throws(AMQPError) in
            var properties = output.properties
            if let tracing, let stampedWith { tracing.stamp(&properties, with: stampedWith) }
            return try channel.publishPipelined(
                output.body, exchange: output.exchange, routingKey: output.routingKey, mandatory: true,
                properties: properties)
        }
        if let forwarded = plan.forwarded {
            confirmations.append(
                try channel.publishPipelined(
                    forwarded.body, exchange: forwarded.exchange, routingKey: forwarded.routingKey, mandatory: true,
                    properties: forwarded.properties))
        }
        if !confirmations.isEmpty {
            completion.tag.input.acks.confirming(delivery.deliveryTag)
            try? pipeline.configuration.stepReached?(.afterPublish)
        }
        return Settlement(
            received: completion.tag, confirmations: confirmations,
            publishSpan: publishSpan, outcome: plan.outcome, reason: plan.reason)
    }

    /// Acknowledges the inputs of `batch`, in the order they were published, as their confirms arrive: the ones
    /// already confirmed when the loop reaches them share one ``acknowledge(_:)`` (one `multiple` ack where their
    /// tags allow), which goes out before the loop waits for a confirm still to come.
    func confirmAndAcknowledge(_ batch: [Settlement]) async throws {
        var confirmed: [Settlement] = []
        for settlement in batch {
            if !confirmed.isEmpty, settlement.confirmations.contains(where: { !$0.isResolved }) {
                try acknowledge(confirmed)
                confirmed.removeAll(keepingCapacity: true)
            }
            if try await confirm(settlement) { confirmed.append(settlement) }
        }
        if !confirmed.isEmpty { try acknowledge(confirmed) }
    }

    /// Waits for the broker's confirms of everything `settlement`'s input produced and returns `true`; when the
    /// broker refused an output (nack, or returned as unroutable), sends the input back for redelivery instead,
    /// where the inbox republishes the same outputs, and returns `false`.
    private func confirm(_ settlement: Settlement) async throws -> Bool {
        do throws(AMQPError) {
            for confirmation in settlement.confirmations { try await confirmation.confirmed() }
            settlement.publishSpan?.end()
        } catch {
            settlement.publishSpan?.setStatus(SpanStatus(code: .error, message: "\(error)"))
            settlement.publishSpan?.end()
            switch error {
            case .nacked, .returned:
                defer { metrics.inFlight.decrement() }
                let received = settlement.received
                if let tracing, let span = received.span {
                    tracing.finish(span, outcome: .retried, reason: nil)
                }
                logger.error(
                    "the broker refused an output; the input goes back to the queue",
                    metadata: ["message-id": "\(received.delivery.properties.messageID ?? "")", "error": "\(error)"])
                try received.input.acks.settle(received.delivery.deliveryTag, accepted: false)
                return false
            default:
                throw error
            }
        }
        try? pipeline.configuration.stepReached?(.afterConfirm)
        return true
    }

    /// Acknowledges the inputs of `settlements`, whose outputs (if any) the broker confirmed: records each as
    /// accepted, then sends the acks of each channel they came from once, so inputs settled together share a
    /// `multiple` ack where their tags allow it. The end-to-end duration is taken once their acks are sent.
    func acknowledge(_ settlements: [Settlement]) throws {
        for settlement in settlements {
            try settlement.received.input.acks.settle(settlement.received.delivery.deliveryTag, accepted: true)
        }
        var sent: [ObjectIdentifier] = []
        for settlement in settlements where !sent.contains(ObjectIdentifier(settlement.received.input.acks)) {
            let acks = settlement.received.input.acks
            sent.append(ObjectIdentifier(acks))
            try acks.sendAcks()
        }
        for settlement in settlements {
            if let tracing, let span = settlement.received.span {
                tracing.finish(span, outcome: settlement.outcome, reason: settlement.reason)
            }
            metrics.record(settlement.outcome)
            if let reason = settlement.reason { metrics.deadLettered(reason: reason.rawValue) }
            metrics.inFlight.decrement()
        }
    }
}
