import AMQP
import Foundation
import NotificationEvents
import ResponderIntake
import Testing

@testable import Responder
@testable import ResponderWorker

/// What becomes of an input after the pipeline, decided without a broker (``SettlementPlan``): each outcome's
/// publications, count and reason, and an output the connection cannot carry failing its input alone.
@Suite struct SettlementPlanTests {
    let routing = FailureRouting(topology: Topology(), workerID: "worker-7")
    let limits = PublishLimits(frameMax: 131_072)
    let now = Date(timeIntervalSince1970: 1_795_165_300)

    let delivery = AMQPDelivery(
        body: Array(#"{"id":"evt-1"}"#.utf8), properties: MessageProperties(), exchange: "notifications.responses",
        routingKey: "red-category", deliveryTag: 1, consumerTag: "c")

    func plan(_ outcome: ResponseOutcome, retriedInPlace: Int = 0, routing: FailureRouting? = nil) -> SettlementPlan {
        SettlementPlan(
            outcome, of: delivery, eventID: "evt-1", from: "responder.responses", retriedInPlace: retriedInPlace,
            firstFailureInPlace: nil, routing: routing ?? self.routing, limits: limits, now: now)
    }

    func output(routingKey: String = "red-category") -> OutboundMessage {
        OutboundMessage(
            exchange: "notifications.action-updates", routingKey: routingKey, body: [1], properties: MessageProperties())
    }

    /// A handler's failure.
    struct Refused: Error, CustomStringConvertible {
        var description: String { "the payment service said no" }
    }

    func reason(of forwarded: ForwardedInput?) -> String? {
        forwarded?.properties.headers[DeadLetterInfo.Header.reason.rawValue]?.stringValue
    }

    @Test func aCompletedInputPublishesItsOutputsAndNothingElse() {
        let plan = plan(.completed(outputs: [output(), output()], disposition: .updated))
        #expect(plan.outputs.count == 2)
        #expect(plan.forwarded == nil)
        #expect(plan.outcome == .updated)
        #expect(plan.reason == nil)
        #expect(plan.worked)
        #expect(plan.warnings.isEmpty)
        #expect(plan.publicationCount == 2)
    }

    @Test(arguments: [ResponseOutcome.Disposition.ignored, .deduplicated, .stale])
    func onlyAHandledInputShowsADependencyWorks(_ disposition: ResponseOutcome.Disposition) {
        #expect(!plan(.completed(outputs: [], disposition: disposition)).worked)
        #expect(plan(.completed(outputs: [], disposition: .noUpdate)).worked)
    }

    @Test func anOutputTheConnectionCannotCarryDeadLettersItsInputAlone() {
        let plan = plan(
            .completed(outputs: [output(), output(routingKey: String(repeating: "c", count: 256))], disposition: .updated))
        #expect(plan.outputs.isEmpty, "none of the input's outputs goes out")
        #expect(plan.forwarded?.exchange == routing.topology.deadLetterExchange)
        #expect(reason(of: plan.forwarded) == DeadLetterReason.unpublishable.rawValue)
        #expect(plan.outcome == .deadLettered)
        #expect(plan.reason == .unpublishable)
        #expect(plan.warnings.map(\.message) == ["an output cannot be published; input dead-lettered"])
    }

    @Test func aRetryableFailureGoesToARetryQueueUncountedAsADeadLetter() {
        let plan = plan(.failed(Refused(), retryable: true))
        #expect(plan.forwarded?.routingKey == "responder.responses.retry.1s")
        #expect(plan.outcome == .retried)
        #expect(plan.reason == nil)
        #expect(plan.outputs.isEmpty)
        #expect(plan.warnings.map(\.message) == ["handler failed; input sent to retry"])
        #expect(plan.warnings.first?.metadata["event-id"] == "evt-1")
        #expect(plan.warnings.first?.metadata["error"] == "the payment service said no")
    }

    @Test func aTimeoutOnTheLastAttemptIsDeadLetteredAsHandlerTimeout() {
        var topology = Topology()
        topology.retryDelays = []
        let plan = plan(
            .failed(HandlerTimeout(handler: "delegate", limit: .seconds(5)), retryable: true),
            routing: FailureRouting(topology: topology, workerID: "w"))
        #expect(plan.outcome == .deadLettered)
        #expect(plan.reason == .handlerTimeout)
        #expect(reason(of: plan.forwarded) == DeadLetterReason.handlerTimeout.rawValue)
        #expect(plan.warnings.map(\.message) == ["handler failed; input dead-lettered"])
    }

    @Test func anInputThatCanNeverBeHandledIsDeadLetteredWithItsReason() {
        let plan = plan(.deadLetter(reason: .invalidField, detail: "data.actionIdentifier: missing"))
        #expect(plan.forwarded?.exchange == routing.topology.deadLetterExchange)
        #expect(reason(of: plan.forwarded) == DeadLetterReason.invalidField.rawValue)
        #expect(plan.outcome == .deadLettered)
        #expect(plan.reason == .invalidField)
        #expect(plan.warnings.isEmpty, "the pipeline logged it")
    }

    @Test func aDependencyOutageHandsTheInputBackAndPausesForTheDependency() throws {
        let plan = plan(.dependencyUnavailable(DependencyUnavailable("payments")))
        #expect(plan.forwarded?.routingKey == "responder.responses")
        #expect(plan.outcome == .handedBack)
        #expect(!plan.worked)
        guard case .dependency(let unavailable)? = plan.unavailability else {
            Issue.record("no dependency outage in \(String(describing: plan.unavailability))")
            return
        }
        #expect(unavailable.dependency == "payments")
    }

    @Test func aFollowUpBackEarlyGoesOutAgainAsItsOutput() {
        let plan = plan(.completed(outputs: [output()], disposition: .deferred))
        #expect(plan.outputs.count == 1)
        #expect(plan.outcome == .deferred)
        #expect(!plan.worked, "no handler ran")
    }

    @Test func anOutageHandsTheInputBackUntouchedAndPauses() throws {
        let plan = plan(.storeUnavailable(StateStoreUnavailable(reason: "connection refused")))
        let forwarded = try #require(plan.forwarded)
        #expect(forwarded.exchange == "")
        #expect(forwarded.routingKey == "responder.responses")
        #expect(forwarded.body == delivery.body)
        #expect(plan.outcome == .handedBack)
        #expect(plan.reason == nil)
        guard case .store(let unavailable)? = plan.unavailability else {
            Issue.record("no store outage in \(String(describing: plan.unavailability))")
            return
        }
        #expect(unavailable.reason == "connection refused")
    }
}
