import Foundation
import Logging
import NotificationEvents

/// The processing of one input message, shared by replay and the broker worker: checks and decodes it, returns
/// the stored outputs of an event seen before, routes it to its handlers, and commits the notification's new
/// state, the inbox entry and the outputs together.
///
/// The pipeline never publishes or acknowledges anything: it returns a ``ResponseOutcome`` and the transport acts
/// on it. Events of one notification must not be handled concurrently by one process (a batch handles them in
/// order, and ``ResponseScheduler`` orders batches); across processes, optimistic concurrency on the
/// notification's version keeps them consistent.
///
/// A class, immutable: the batch's lanes and handler calls share one pipeline instead of copying its many references.
public final class ResponsePipeline: Sendable {
    /// The categories and handlers responses are routed to.
    public let registry: HandlerRegistry
    /// Where per-notification state and the inbox live.
    public let store: any StateStore
    /// The pipeline's settings.
    public let configuration: PipelineConfiguration
    /// The exchange action-set updates are addressed to; their routing key is the category identifier. A broker
    /// worker takes it from its topology (``defaultOutputExchange`` is the topology's default).
    public let outputExchange: String
    let logger: Logger
    let metrics = PipelineMetrics()
    let unregisteredCategories: UnregisteredCategories
    let storeFailures = StoreFailureStreak()
    let handlerDeadlines = HandlerDeadlines()
    let dependencyFailures: DependencyFailureStreak
    let abandonedCalls: AbandonedCalls

    /// Whether a handler's dependency is taken to be down: the handler failed with ``DependencyUnavailable`` for
    /// ``PipelineConfiguration/dependencyFailures`` different events in a row, and none of its calls has returned
    /// since; or ``PipelineConfiguration/maxAbandonedCalls`` calls cut off by their time limit still run. Other
    /// handlers' inputs and lifecycle events do not end it; a worker's dependency outage lasts as long.
    public var isDependencyUnavailable: Bool { dependencyFailures.holdsAnOutage || abandonedCalls.unavailability != nil }

    /// The output exchange of the default topology.
    public static let defaultOutputExchange = "notifications.action-updates"

    /// The input queue of the default topology, which names the follow-up delay queues (``FollowUpLadder``).
    public static let defaultInputQueue = "responder.responses"

    /// A pipeline routing to `registry`, keeping state in `store` and addressing updates to `outputExchange`.
    ///
    /// `logger` receives one structured line per input (event id, request identifier, category, action, each
    /// bounded; outcome: debug when handled or not routed, warning or error when refused or failed), a warning at
    /// most once a minute for each category that is not registered, and is handed on to handlers; it never receives
    /// a response's `userText`.
    public convenience init(
        registry: HandlerRegistry, store: any StateStore,
        configuration: PipelineConfiguration = PipelineConfiguration(),
        outputExchange: String = ResponsePipeline.defaultOutputExchange,
        logger: Logger = Logger(label: "responder.pipeline")
    ) {
        self.init(
            registry: registry, store: store, configuration: configuration, outputExchange: outputExchange,
            logger: logger, unregisteredCategories: UnregisteredCategories())
    }

    /// The same, counting unregistered categories with `unregisteredCategories` (tests give it their metrics and clock).
    init(
        registry: HandlerRegistry, store: any StateStore, configuration: PipelineConfiguration,
        outputExchange: String, logger: Logger, unregisteredCategories: UnregisteredCategories
    ) {
        self.unregisteredCategories = unregisteredCategories
        self.registry = registry
        self.store = store
        self.configuration = configuration
        dependencyFailures = DependencyFailureStreak(threshold: configuration.dependencyFailures)
        abandonedCalls = AbandonedCalls(limit: configuration.maxAbandonedCalls)
        self.outputExchange = outputExchange
        self.logger = logger
    }

    /// Processes one input message from start to end: ``decode(_:)`` then ``handle(_:on:)``.
    public func process(_ message: InboundMessage) async -> ResponseOutcome {
        do {
            return await handle(try decode(message))
        } catch {
            return error.outcome
        }
    }

    /// Checks a message's content type, encoding and size and decodes its event, in structured or binary content
    /// mode (`EventContentMode.of(contentType:headers:)`, NotificationEvents); a rejection is logged and counted.
    ///
    /// Accepted content types are `application/cloudevents+json` and `application/json` (parameters such as
    /// `charset` aside); a message without a content type is read as JSON too, since the body is checked by decoding
    /// anyway and many publishers leave the property unset. A content encoding other than none, `identity` or
    /// `utf-8` is refused, as is a body over ``PipelineConfiguration/maxBodySize``.
    ///
    /// A lifecycle event (`notification.lifecycle.v1`) decodes by the same rules; any other type is refused. A message
    /// whose `type` property is `responder.follow-up.v1` is a follow-up back from its delay queue (``DecodedFollowUp``).
    public func decode(_ message: InboundMessage) throws(InputRejection) -> DecodedInput {
        do throws(InputRejection) {
            try message.admissionCheck(maxBodySize: configuration.maxBodySize)
            let decoded = try Self.decodeInput(message)
            // Counted rather than logged: a producer with a broken tracer would otherwise log every message.
            if TraceContext.dropsAny(of: message.properties.headers) { metrics.invalidTraceHeaders.increment() }
            return decoded
        } catch {
            let outcome = error.outcome
            metrics.record(outcome)
            let messageID = DeadLetterInfo.boundedDetail(message.properties.messageID ?? "")
            logger.log(level: outcome.logLevel, outcome.logMessage, metadata: outcome.logMetadata.merging(["message-id": "\(messageID)"]) { $1 })
            throw error
        }
    }

    /// The event of either content mode, told apart as the CloudEvents AMQP binding does (`EventContentMode`), with
    /// the contract's rules and no admission check: what operator tools read a stored message with.
    public static func decodeEvent(_ message: InboundMessage) throws(InputRejection) -> NotificationResponseEvent {
        let properties = message.properties
        do {
            switch properties.contentMode {
            case .structured:
                return try EventCodec.decodeResponseEvent(message.body)
            case .binary:
                return try EventCodec.decodeResponseEvent(
                    headers: properties.jsonHeaders, contentType: properties.contentType, body: message.body)
            }
        } catch {
            throw InputRejection(reason: error.deadLetterReason, detail: error.description)
        }
    }

    /// A response, or a lifecycle event when the message's type says so (and only then, so a response's refusal
    /// reads as it always did), or a follow-up when the message's `type` property says so. An event may not claim
    /// the follow-ups' inbox source (``FollowUp/inboxSource``).
    private static func decodeInput(_ message: InboundMessage) throws(InputRejection) -> DecodedInput {
        if message.properties.type == FollowUpMessage.type { return .followUp(try FollowUpMessage.decode(message)) }
        let input = try decodeEventInput(message)
        guard input.source != FollowUp.inboxSource else {
            throw InputRejection(
                reason: .invalidField, detail: "the event's source is \(FollowUp.inboxSource), which only follow-ups use")
        }
        return input
    }

    private static func decodeEventInput(_ message: InboundMessage) throws(InputRejection) -> DecodedInput {
        do throws(InputRejection) {
            return .response(DecodedResponse(message: message, event: try decodeEvent(message)))
        } catch let rejection where rejection.reason == .unknownType {
            let properties = message.properties
            do {
                let event =
                    switch properties.contentMode {
                    case .structured: try EventCodec.decodeLifecycleEvent(message.body)
                    case .binary:
                        try EventCodec.decodeLifecycleEvent(
                            headers: properties.jsonHeaders, contentType: properties.contentType, body: message.body)
                    }
                return .lifecycle(DecodedLifecycle(message: message, event: event))
            } catch .unknownType {
                throw rejection
            } catch let lifecycleError {
                throw InputRejection(reason: lifecycleError.deadLetterReason, detail: lifecycleError.description)
            }
        }
    }

    /// Handles one decoded event: a batch of one (``handle(_:concurrency:)``), its handlers on `executor`
    /// (``handle(_:concurrency:under:holdingBack:on:patience:)``).
    public func handle(_ input: DecodedInput, on executor: (any TaskExecutor)? = nil) async -> ResponseOutcome {
        // Nothing holds an event back without `holdingBack`: every outcome is there.
        await handle([input], concurrency: 1, under: [], holdingBack: nil, on: executor).outcomes[0]!
    }

    /// The outcome of an event whose source and id the inbox holds for another notification. Not a duplicate (its
    /// stored outputs are the other notification's) and not an event to handle: CloudEvents makes an id unique per
    /// source, so a second event under the same one is a producer's mistake, and handling it would leave the inbox
    /// unable to tell a redelivery of either. It is dead-lettered, since no retry or redrive helps while the inbox
    /// remembers the first: the producer must send it again under an id of its own. The detail repeats no value: the
    /// dead letter carries the event.
    static let idReused = ResponseOutcome.deadLetter(
        reason: .eventIDReused,
        detail: "the event's id was already processed from the same source for another notification: "
            + "a CloudEvents id must be unique per source; publish this event again under an id of its own")

    /// Why one of `outputs` cannot be published, or nil when all can (``PipelineConfiguration/publishability``).
    func unpublishable(_ outputs: [OutboundMessage]) -> String? {
        guard let publishability = configuration.publishability else { return nil }
        return outputs.lazy.compactMap(publishability).first
    }

    /// The record of a notification seen for the first time, or of one that replaces `replaced` under the same
    /// request identifier: its category's actions, no handler state, and `replaced`'s version, which the commit
    /// raises, so the versions of the notification's outputs never go back.
    func freshRecord(
        _ requestIdentifier: String, category: String, delivered date: Date, replacing replaced: NotificationRecord?
    ) -> NotificationRecord {
        NotificationRecord(
            requestIdentifier: requestIdentifier, categoryIdentifier: category,
            actions: registry.categories.initialActions(forCategory: category), version: replaced?.version ?? 0,
            notificationDate: date)
    }
}
