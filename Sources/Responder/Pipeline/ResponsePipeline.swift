import Foundation
import Logging
import NotificationEvents

/// The processing of one input message, shared by replay and the broker worker: checks and decodes it, returns
/// the stored outputs of an event seen before, routes it to its handlers, and commits the notification's new
/// state, the inbox entry and the outputs together.
///
/// The pipeline never publishes or acknowledges anything: it returns a ``ResponseOutcome`` and the transport acts
/// on it. Events of one notification must not be handled concurrently by one process (``ResponseScheduler``
/// orders them); across processes, optimistic concurrency on the notification's version keeps them consistent.
public struct ResponsePipeline: Sendable {
    /// The categories and handlers responses are routed to.
    public let registry: HandlerRegistry
    /// Where per-notification state and the inbox live.
    public let store: any StateStore
    /// The pipeline's settings.
    public let configuration: PipelineConfiguration
    /// The exchange action-set updates are addressed to; their routing key is the category identifier. A broker
    /// worker takes it from its topology (``defaultOutputExchange`` is the topology's default).
    public let outputExchange: String
    private let logger: Logger
    let metrics = PipelineMetrics()
    private let storeFailures = StoreFailureStreak()

    /// The output exchange of the default topology.
    public static let defaultOutputExchange = "notifications.action-updates"

    /// A pipeline routing to `registry`, keeping state in `store` and addressing updates to `outputExchange`.
    ///
    /// `logger` receives one structured line per input (event id, request identifier, category, action, each
    /// bounded; outcome: debug when handled or not routed, warning or error when refused or failed) and is handed
    /// on to handlers; it never receives a response's `userText`.
    public init(
        registry: HandlerRegistry, store: any StateStore,
        configuration: PipelineConfiguration = PipelineConfiguration(),
        outputExchange: String = ResponsePipeline.defaultOutputExchange,
        logger: Logger = Logger(label: "responder.pipeline")
    ) {
        self.registry = registry
        self.store = store
        self.configuration = configuration
        self.outputExchange = outputExchange
        self.logger = logger
    }

    /// Processes one input message from start to end: ``decode(_:)`` then ``handle(_:)``.
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
    public func decode(_ message: InboundMessage) throws(InputRejection) -> DecodedResponse {
        do throws(InputRejection) {
            try message.admissionCheck(maxBodySize: configuration.maxBodySize)
            let decoded = DecodedResponse(message: message, event: try Self.decodeEvent(message))
            // Counted rather than logged: a producer with a broken tracer would otherwise log every message.
            if TraceContext.dropsAny(of: message.properties.headers) { metrics.invalidTraceHeaders.increment() }
            return decoded
        } catch {
            let outcome = error.outcome
            metrics.record(outcome)
            let messageID = DeadLetterInfo.boundedDetail(message.properties.messageId ?? "")
            logger.log(level: outcome.logLevel, outcome.logMessage, metadata: outcome.logMetadata.merging(["message-id": "\(messageID)"]) { $1 })
            throw error
        }
    }

    /// The event of either content mode, told apart as the CloudEvents AMQP binding does (`EventContentMode`).
    private static func decodeEvent(_ message: InboundMessage) throws(InputRejection) -> NotificationResponseEvent {
        let properties = message.properties
        do {
            switch EventContentMode.of(contentType: properties.contentType, headers: properties.headers) {
            case .structured:
                return try EventCodec.decodeResponseEvent(message.body)
            case .binary:
                return try EventCodec.decodeResponseEvent(
                    headers: properties.headers, contentType: properties.contentType, body: message.body)
            }
        } catch {
            throw InputRejection(reason: error.deadLetterReason, detail: error.description)
        }
    }

    /// Handles a decoded event: returns its stored outputs if it was processed before, else runs its handlers and
    /// commits their effects. Handler and store errors are returned as ``ResponseOutcome/failed(_:retryable:)``,
    /// except a store's ``StateStoreUnavailable``, returned as ``ResponseOutcome/storeUnavailable(_:)``.
    ///
    /// With a ``PipelineConfiguration/tracer``, the handling is a `handle` span (its store commit a `commit` span
    /// within it), a child of the span in the task's service context.
    public func handle(_ input: DecodedResponse) async -> ResponseOutcome {
        await traced("handle") { await handleUntraced(input) }
    }

    private func handleUntraced(_ input: DecodedResponse) async -> ResponseOutcome {
        let log = ResponseLog(logger, for: input)
        let outcome: ResponseOutcome
        switch registry.route(input.event.data) {
        case .ignored(let why):
            // Debug, as a handled response is: `responder_inputs_total{outcome="ignored"}` counts these, and a
            // line per event at info would let any producer write to the log at its own rate.
            log.log(.debug, "response not routed", ["outcome": "ignored", "why": "\(why)"])
            outcome = .completed(outputs: [], disposition: .ignored)
        case .handler(let receiver):
            outcome = await handle(input, by: receiver, log: log)
            log.log(outcome.logLevel, outcome.logMessage, outcome.logMetadata)
        }
        metrics.record(outcome)
        return outcome
    }

    private func handle(
        _ input: DecodedResponse, by receiver: Route.Receiver, log: ResponseLog
    ) async -> ResponseOutcome {
        do {
            for _ in 0...configuration.maxConflictRetries {
                switch try await storeCall({
                    try await store.load([
                        StateLoad(requestIdentifier: input.requestIdentifier, source: input.event.source, eventID: input.event.id)
                    ])[0].get()
                }) {
                case .processed(let outputs):
                    return .completed(outputs: outputs, disposition: .deduplicated)
                case .idReused:
                    return Self.idReused
                case .unprocessed(let stored):
                    let record = stored ?? newRecord(for: input)
                    let handled = try await run(receiver, for: input, on: record, log: log)
                    try configuration.stepReached?(.afterHandler)
                    if let problem = unpublishable(handled.outputs) {
                        return .deadLetter(
                            reason: .unpublishable,
                            detail: "an output built for this input cannot be published: \(problem)")
                    }
                    let entry = InboxEntry(
                        source: input.event.source, eventID: input.event.id, requestIdentifier: input.requestIdentifier,
                        outputs: handled.outputs, processedAt: Date())
                    // An update carries the version its commit gives the notification, so a response with an
                    // update writes the notification even when nothing else of it changed.
                    let changed = handled.record == record && handled.outputs.isEmpty ? nil : handled.record
                    let commit = StateCommit(
                        inboxEntry: entry, notification: changed, actionsChanged: handled.record.actions != record.actions)
                    let result = try await traced("commit", { try await storeCall { try await store.commit([commit])[0].get() } })
                    storeFailures.worked()
                    switch result {
                    case .committed:
                        try? configuration.stepReached?(.afterCommit)
                        return .completed(
                            outputs: handled.outputs, disposition: handled.outputs.isEmpty ? .noUpdate : .updated)
                    case .alreadyProcessed(let outputs):
                        return .completed(outputs: outputs, disposition: .deduplicated)
                    case .idReused:
                        return Self.idReused
                    case .versionConflict:
                        metrics.stateConflicts.increment()
                        log.log(.debug, "the notification changed meanwhile; handling the response again")
                    }
                }
            }
            return .failed(StateConflictError(attempts: configuration.maxConflictRetries + 1), retryable: true)
        } catch let unavailable as StateStoreUnavailable {
            return .storeUnavailable(unavailable)
        } catch let refused as StateStoreRefusedValue {
            return .deadLetter(reason: .invalidField, detail: "the state store refused a value of this event: \(refused)")
        } catch let failure as StoreCallError {
            if let unavailable = storeFailures.failed(input.event.id, failure.underlying) {
                return .storeUnavailable(unavailable)
            }
            return .failed(failure.underlying, retryable: true)
        } catch let failure as HandlerRunError {
            return .failed(failure.underlying, retryable: failure.underlying.isRetryableHandlerError)
        } catch {
            return .failed(error, retryable: true)
        }
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
    private func unpublishable(_ outputs: [OutboundMessage]) -> String? {
        guard let publishability = configuration.publishability else { return nil }
        return outputs.lazy.compactMap(publishability).first
    }

    /// A store error that is not ``StateStoreUnavailable``, told apart from the handlers' errors for the
    /// backstop (``StoreFailureStreak``).
    private struct StoreCallError: Error {
        var underlying: any Error
    }

    /// Runs a call of the store, telling its errors apart from the handlers'.
    private func storeCall<Answer>(_ call: () async throws -> Answer) async throws -> Answer {
        do {
            return try await call()
        } catch let unavailable as StateStoreUnavailable {
            throw unavailable
        } catch let refused as StateStoreRefusedValue {
            throw refused
        } catch {
            throw StoreCallError(underlying: error)
        }
    }

    /// The record of a notification seen for the first time: its category's actions, no handler state.
    private func newRecord(for input: DecodedResponse) -> NotificationRecord {
        let category = input.event.data.notification.request.content.categoryIdentifier
        return NotificationRecord(
            requestIdentifier: input.requestIdentifier, categoryIdentifier: category,
            actions: registry.categories.initialActions(forCategory: category))
    }
}
