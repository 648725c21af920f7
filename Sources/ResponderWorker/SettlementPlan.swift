import AMQP
import Foundation
import Logging
import NotificationEvents
import Responder
import ResponderIntake

/// What becomes of one input once the pipeline is done with it, decided in one place and without a broker: the
/// messages published for it (its outputs, or the input itself sent on to a retry queue, the dead-letter exchange or
/// back to its own queue, never both), how it counts, why it is dead-lettered, and what the worker must say or do.
///
/// The session publishes what it says, then acknowledges the input once the broker confirmed all of it
/// (``AckTracker``), or sends it back when the broker refused any.
struct SettlementPlan {
    /// The outputs to publish, in order.
    var outputs: [OutboundMessage] = []
    /// The input sent on instead of outputs.
    var forwarded: ForwardedInput?
    /// How the input counts in `responder_inputs_total`.
    var outcome: WorkerMetrics.Outcome
    /// Why it is dead-lettered, when it is.
    var reason: DeadLetterReason?
    /// The input was handled: a dependency outage the worker is probing is over.
    var worked = false
    /// Handed back for this outage, which pauses the worker.
    var unavailability: Unavailability?
    /// Warnings for the log: the event id (bounded), the queue an input is forwarded to and the failure's own
    /// description (bounded), as the worker logged them before.
    var warnings: [(message: Logger.Message, metadata: Logger.Metadata)] = []

    /// The plan for `delivery`, which ended with `outcome`: its event `eventID` (when it decoded), retried in place
    /// `retriedInPlace` times since `firstFailureInPlace` (ordered mode), coming from `queue`. Failures go where
    /// `routing` says; anything of the input that `limits` would refuse dead-letters it as `unpublishable`
    /// before any of it is published.
    init(
        _ outcome: ResponseOutcome, of delivery: AMQPDelivery, eventID: String?, from queue: String,
        retriedInPlace: Int, firstFailureInPlace: Date?, routing: FailureRouting, limits: PublishLimits, now: Date
    ) {
        let eventID = DeadLetterInfo.boundedDetail(eventID ?? "")
        switch outcome {
        case .completed(let produced, let disposition):
            outputs = produced
            self.outcome = WorkerMetrics.Outcome(disposition)
            worked = disposition == .updated || disposition == .noUpdate
        case .deadLetter(let rejection, let detail):
            forwarded = routing.deadLetter(delivery, reason: rejection, detail: detail, limits: limits, now: now)
            self.outcome = .deadLettered
            reason = rejection
        case .failed(let error, let retryable):
            let (input, deadLetterReason) = routing.afterFailure(
                of: delivery, detail: String(describing: error), retryable: retryable, timedOut: error is HandlerTimeout,
                retriedInPlace: retriedInPlace, firstFailureInPlace: firstFailureInPlace, limits: limits, now: now)
            forwarded = input
            self.outcome = deadLetterReason == nil ? .retried : .deadLettered
            reason = deadLetterReason
            warnings.append((
                deadLetterReason == nil ? "handler failed; input sent to retry" : "handler failed; input dead-lettered",
                [
                    "event-id": "\(eventID)", "queue": "\(input.routingKey)",
                    "error": "\(DeadLetterInfo.boundedDetail(String(describing: error)))",
                ]
            ))
        case .storeUnavailable, .dependencyUnavailable:
            forwarded = .handBack(delivery, to: queue)
            self.outcome = .handedBack
            unavailability = outcome.unavailability
        }
        // An output the connection cannot carry (a category identifier over 255 bytes as its routing key) fails
        // its input alone; checked before anything of the input is published.
        if let problem = outputs.lazy.compactMap(limits.problem).first ?? forwarded.flatMap(limits.problem) {
            warnings.append(
                ("an output cannot be published; input dead-lettered", ["event-id": "\(eventID)", "error": "\(problem)"]))
            outputs = []
            forwarded = routing.deadLetter(delivery, unpublishable: problem, limits: limits, now: now)
            self.outcome = .deadLettered
            reason = .unpublishable
        }
    }

    /// How many messages the plan publishes.
    var publicationCount: Int { outputs.count + (forwarded == nil ? 0 : 1) }
}
