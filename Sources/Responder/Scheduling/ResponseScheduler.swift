import Foundation
import Metrics
import NotificationEvents
import Tracing

/// Feeds input messages through a ``ResponsePipeline`` a batch at a time, in the order that keeps per-notification
/// state right: everything submitted since the last pass is decoded and handled as one batch, or as several in order
/// when it is longer than the scheduler's largest batch (``ResponsePipeline/handle(_:concurrency:under:holdingBack:on:patience:)``),
/// where the events of one notification are handled in the order they were submitted and the chains of different
/// notifications concurrently, at most `maxConcurrentNotifications` at once; the next batch is handled once this one's
/// outcomes are reported.
///
/// A message that does not decode has no notification: its dead-letter outcome is reported at once.
/// Each outcome is reported on ``completions`` as soon as it is known, tagged with what the caller submitted
/// it with (e.g. an AMQP delivery tag), so the caller can acknowledge contiguous prefixes.
///
/// ```swift
/// let scheduler = ResponseScheduler<UInt64>(pipeline: pipeline, maxConcurrentNotifications: 16)
/// async let running: Void = scheduler.run()
/// scheduler.submit([(message, deliveryTag, ServiceContext.current)])   // from the consumer
/// for await completion in scheduler.completions { ... }   // publish outputs, then ack completion.tag
/// ```
/// With retry delays in place (ordered mode), a retryable failure is handled again after each delay while the
/// notification's later events wait behind it, in its batch and in later ones, and only the last failure is
/// reported: a retry never lets a later event overtake the one that failed. Other notifications go on meanwhile, in
/// the next batches. With a wait in place (ordered mode too), an event that meets an outage (an unavailable state
/// store or dependency) is handled again once the wait returns, in the same way.
///
/// A notification whose handler call outlasts its batch's patience (``PipelineConfiguration/slowCallPatience``) holds
/// only itself: the batch's other outcomes are reported at once, the notification's later events wait behind it, and
/// its events are reported when the call returns or is cut at its limit. Each such call keeps one of the
/// `maxConcurrentNotifications` slots; while slow calls hold them all, no batch starts, so the caller's bound on
/// outstanding messages (its prefetch) stops the input, and the scheduler says so at warning, naming the categories.
///
/// The caller bounds how many messages are outstanding (e.g. with the consumer's prefetch); queued messages
/// wait in memory.
public final class ResponseScheduler<Tag: Sendable>: Sendable {
    /// The outcome of one submitted message.
    public struct Completion: Sendable {
        /// What the message was submitted with.
        public let tag: Tag
        /// The message.
        public let message: InboundMessage
        /// The message's response event, or nil when it did not decode or is a lifecycle event.
        public let event: NotificationResponseEvent?
        /// What the pipeline made of it (the last attempt's outcome).
        public let outcome: ResponseOutcome
        /// How many times the message was handled again in place after a retryable failure.
        public let retriedInPlace: Int
        /// When the first failure retried in place happened; nil when none was.
        public let firstFailureInPlace: Date?
    }

    private enum Event: Sendable {
        case submitted(InboundMessage, Tag, ServiceContext?)
        /// The event of a notification that held it back is settled: its later events may be handled;
        /// `abandoned` when the event's delay or store wait in place was given up, so it was not reported.
        case released(requestIdentifier: String, abandoned: Bool)
        /// A slow chain's call ended: its events' outcomes, in order.
        case slowSettled([Queued], [ResponseOutcome?])
        case noMoreInput
    }

    private struct Queued: Sendable {
        var input: DecodedInput
        var tag: Tag
        var context: ServiceContext?
    }

    /// The outcomes, in the order they complete; ends when ``run()`` returns. A consumer that keeps up takes
    /// them in batches with ``HandOff/take(into:)``.
    public let completions = HandOff<Completion>()
    private let events = HandOff<Event>()
    private let pipeline: ResponsePipeline
    private let maxConcurrentNotifications: Int
    private let retryDelaysInPlace: [Duration]
    private let waitInPlace: (@Sendable (Unavailability) async throws -> Void)?
    private let executor: (any TaskExecutor)?
    private let maxBatchSize: Int
    private let slowCalls: Gauge

    /// A scheduler for `pipeline` that handles at most `maxConcurrentNotifications` notifications at once, and
    /// retries a retryable failure in place after each of `retryDelaysInPlace` (none by default).
    ///
    /// Without `waitInPlace` an outage (``ResponseOutcome/unavailability``) is reported as the event's outcome at once
    /// (the caller hands the input back). With it, the event waits in place instead: `waitInPlace` is called with the
    /// outage and returns once it is over, and the event is handled again. When it throws (the caller
    /// gives up, e.g. its session ends) the event is not reported at all, and neither are its notification's later
    /// events in this run, handled or not: their inputs stay unacknowledged and the broker redelivers them, in order.
    ///
    /// The handlers run on `executor` (``ResponsePipeline/handle(_:concurrency:under:holdingBack:on:patience:)``): pass the
    /// one ``run()`` runs on, if it has one, so that handling an event wakes no other thread.
    ///
    /// What arrived in one pass is handled in batches of at most `maxBatchSize` events, in order, each one's outcomes
    /// reported before the next is handled: a caller that publishes the outcomes meanwhile (a broker session on its
    /// own thread) keeps the broker busy with one batch's outputs while the next is handled, instead of leaving it
    /// idle while the whole pass is. Unbounded by default.
    ///
    /// `responder_slow_handler_calls` goes to `metrics` (the process's bootstrapped backend by default).
    public init(
        pipeline: ResponsePipeline, maxConcurrentNotifications: Int, retryDelaysInPlace: [Duration] = [],
        waitInPlace: (@Sendable (Unavailability) async throws -> Void)? = nil, executor: (any TaskExecutor)? = nil,
        maxBatchSize: Int = .max, metrics: any MetricsFactory = MetricsSystem.factory
    ) {
        slowCalls = Gauge(label: MetricDescription.slowHandlerCalls.name, factory: metrics)
        precondition(maxConcurrentNotifications > 0, "maxConcurrentNotifications must be positive")
        precondition(maxBatchSize > 0, "maxBatchSize must be positive")
        self.maxBatchSize = maxBatchSize
        self.pipeline = pipeline
        self.maxConcurrentNotifications = maxConcurrentNotifications
        self.retryDelaysInPlace = retryDelaysInPlace
        self.waitInPlace = waitInPlace
        self.executor = executor
    }

    /// Queues `messages` in order, what arrived together in one step, the one way in: each outcome appears on
    /// ``completions`` tagged with its message's `tag`. Call before ``finish()``. The order of the calls and within
    /// each is the arrival order, so a notification's messages are submitted from one task. The pipeline handles
    /// each message in its service `context` (its trace, for the pipeline's spans).
    public func submit(_ messages: [(message: InboundMessage, tag: Tag, context: ServiceContext?)]) {
        events.yield(contentsOf: messages.map { .submitted($0.message, $0.tag, $0.context) })
    }

    /// Says no more messages will be submitted: ``run()`` returns once every submitted message has completed.
    public func finish() {
        events.yield(.noMoreInput)
    }

    /// Handles the submitted messages until ``finish()`` was called and all have completed, or until the calling
    /// task is cancelled: handlers then see the cancellation, the batch being handled is finished and reported, and
    /// no other batch is started (its messages are not reported). Call once.
    public func run() async {
        await withDiscardingTaskGroup { group in
            var held = Held()
            var inputEnded = false
            // From the start, so dashboards see the gauge before the first slow call.
            slowCalls.record(0)
            // Everything that arrived since the last pass is handled in batches of at most `maxBatchSize`, each one
            // store load and one commit: one wake-up for a burst of deliveries.
            var taken: [Event] = []
            var batch: [Queued] = []
            while await events.take(into: &taken) {
                for event in taken {
                    switch event {
                    case .submitted(let message, let tag, let context):
                        do throws(InputRejection) {
                            let input = try pipeline.decode(message)
                            let key = input.requestIdentifier
                            let queued = Queued(input: input, tag: tag, context: context)
                            if held.abandoned.contains(key) { continue }
                            if !held.holds(queued) { batch.append(queued) }
                        } catch {
                            completions.yield(
                                Completion(
                                    tag: tag, message: message, event: nil, outcome: error.outcome, retriedInPlace: 0,
                                    firstFailureInPlace: nil))
                        }
                    case .released(let key, let gaveUp):
                        let waiting = held.waiting.removeValue(forKey: key) ?? []
                        if gaveUp { held.abandoned.insert(key) } else { batch += waiting }
                        // A slow call's event retried in place kept its slot until now.
                        if held.freeSlot(of: key) { slowCalls.record(held.slow.count) }
                    case .slowSettled(let chain, let outcomes):
                        let key = chain[0].input.requestIdentifier
                        let waiting = held.waiting.removeValue(forKey: key) ?? []
                        for (queued, outcome) in zip(chain, outcomes) { report(queued, outcome, holding: &held, in: &group) }
                        if held.waiting[key] != nil {
                            // Retried in place (ordered mode): the call again, so the slot stays taken until released.
                            held.waiting[key]! += waiting
                        } else {
                            batch += waiting
                            if held.freeSlot(of: key) { slowCalls.record(held.slow.count) }
                        }
                    case .noMoreInput:
                        inputEnded = true
                    }
                }
                taken.removeAll(keepingCapacity: true)
                var start = batch.startIndex
                // Cancelled (the caller's session is ending), no further batch starts: its events are not handled,
                // stored or reported, so their inputs stay unacknowledged and the broker redelivers them.
                while start < batch.endIndex, !Task.isCancelled {
                    // Slow calls keep their slots: with none free, the rest waits for one of them to end.
                    let free = maxConcurrentNotifications - held.slow.count
                    guard free > 0 else {
                        if !held.warnedSlotsHeld { warnSlotsHeld(by: held.slow) }
                        held.warnedSlotsHeld = true
                        break
                    }
                    let end = start + min(maxBatchSize, batch.endIndex - start)
                    // An event that an earlier batch of this pass held back holds its notification's later events.
                    var chunk: [Queued] = []
                    for queued in batch[start..<end] { if !held.holds(queued) { chunk.append(queued) } }
                    if !chunk.isEmpty { await handle(chunk, concurrency: free, holding: &held, in: &group) }
                    start = end
                }
                // What is left waits for a slot, or for the next session: a notification held meanwhile (by a slow
                // call or a wait in place of this pass) takes its events into its waiting line now, so that one it is
                // given later cannot overtake them.
                var rest: [Queued] = []
                for queued in batch[start...] { if !held.holds(queued) { rest.append(queued) } }
                batch = rest
                if inputEnded, held.waiting.isEmpty, batch.isEmpty { break }
            }
        }
        events.finish()
        completions.finish()
    }

    /// The notifications whose events wait, by request identifier.
    private struct Held {
        /// Notifications whose event waits in place (a retry, a store wait) or on a slow call: their later events,
        /// in order.
        var waiting: [String: [Queued]] = [:]
        /// Notifications with an event given up in place: their later events wait for the broker's redelivery.
        var abandoned: Set<String> = []
        /// Notifications with a slow call, each holding a slot: the category its event was sent with.
        var slow: [String: String] = [:]
        /// Whether the warning that slow calls hold every slot was given since a slot was last free.
        var warnedSlotsHeld = false

        /// Puts `queued` at the end of its notification's waiting line when the notification is held, so that no
        /// event given later overtakes it; returns whether it did.
        mutating func holds(_ queued: Queued) -> Bool {
            let key = queued.input.requestIdentifier
            guard waiting[key] != nil else { return false }
            waiting[key]!.append(queued)
            return true
        }

        /// Frees the slot `key`'s slow call held, if it held one; returns whether it did.
        mutating func freeSlot(of key: String) -> Bool {
            guard slow.removeValue(forKey: key) != nil else { return false }
            warnedSlotsHeld = false
            return true
        }
    }

    /// Handles `batch` on at most `concurrency` lanes and reports its outcomes; an event whose outcome holds its
    /// notification back waits in place in a task of `group`, a slow chain settles in one, and their notifications'
    /// later events join `held`.
    private func handle(
        _ batch: [Queued], concurrency: Int, holding held: inout Held, in group: inout DiscardingTaskGroup
    ) async {
        let handled = await pipeline.handle(
            batch.map(\.input), concurrency: concurrency, under: batch.map(\.context),
            holdingBack: { [self] in holdsBack($0) }, on: executor, patience: pipeline.configuration.slowCallPatience)
        var slowChains: [Int: SlowChain] = [:]
        var slow = Set<Int>()
        for chain in handled.slowChains {
            slowChains[chain.positions[0]] = chain
            slow.formUnion(chain.positions)
        }
        // In batch order: an earlier event of a slow notification, settled in an earlier round, is reported before
        // the slow chain holds the notification.
        for (index, queued) in batch.enumerated() {
            if let chain = slowChains[index] {
                let queued = chain.positions.map { batch[$0] }
                let key = queued[0].input.requestIdentifier
                held.waiting[key] = []
                held.slow[key] = Self.category(of: queued)
                group.addTask { [self] in events.yield(.slowSettled(queued, await chain.outcomes())) }
                slowCalls.record(held.slow.count)
            } else if !slow.contains(index) {
                report(queued, handled.outcomes[index], holding: &held, in: &group)
            }
        }
    }

    /// What a slow chain's warning names it by: the category of its first response, cut as metric labels are (a
    /// producer writes it); a chain of follow-ups and lifecycle events has none of its own.
    private static func category(of chain: [Queued]) -> String {
        guard let response = chain.lazy.compactMap(\.input.responseEvent).first else { return "(follow-up)" }
        let category = response.data.notification.request.content.categoryIdentifier
        return String(category.prefix(utf8Bytes: UnregisteredCategories.maximumLabelBytes))
    }

    /// Reports the outcome of `queued`; one that holds its notification back waits in place in a task of `group`, and
    /// its notification's later events join `held`.
    private func report(
        _ queued: Queued, _ outcome: ResponseOutcome?, holding held: inout Held, in group: inout DiscardingTaskGroup
    ) {
        let key = queued.input.requestIdentifier
        // Behind an event of its notification that holds it back, earlier in the batch: without an outcome, or
        // (from a store that broke no chain) committed, to be reported after that event from the inbox.
        guard held.waiting[key] == nil, let outcome else {
            held.waiting[key]!.append(queued)
            return
        }
        guard holdsBack(outcome) else {
            completions.yield(
                Completion(
                    tag: queued.tag, message: queued.input.message, event: queued.input.responseEvent, outcome: outcome,
                    retriedInPlace: 0, firstFailureInPlace: nil))
            return
        }
        held.waiting[key] = []
        group.addTask { [self] in
            // No outcome: the event's wait was given up (the session ended), so nothing is reported and its
            // input stays unacknowledged: the broker redelivers it, still ahead of the others.
            let settled = await settleInPlace(queued, after: outcome)
            if let settled { completions.yield(settled) }
            events.yield(.released(requestIdentifier: key, abandoned: settled == nil))
        }
    }

    /// Says at warning that slow calls hold every slot, naming their categories.
    private func warnSlotsHeld(by slow: [String: String]) {
        pipeline.logger.warning(
            "slow handler calls hold every slot of --concurrency: no new inputs are taken until one returns or is cut",
            metadata: [
                "slow-calls": "\(slow.count)", "categories": "\(Set(slow.values).sorted().joined(separator: ","))",
            ])
    }

    /// Whether `outcome` waits in place, holding back its notification's later events.
    private func holdsBack(_ outcome: ResponseOutcome) -> Bool {
        switch outcome {
        case .failed(_, retryable: true): !retryDelaysInPlace.isEmpty
        default: outcome.unavailability != nil && waitInPlace != nil
        }
    }

    /// Handles `queued`, whose first handling ended with `first`, again after each retry delay in place and after each
    /// wait in place, and returns its completion; nil when a delay or wait was cancelled or given up.
    private func settleInPlace(_ queued: Queued, after first: ResponseOutcome) async -> Completion? {
        var outcome = first
        var retried = 0
        var firstFailure: Date?
        while true {
            switch outcome {
            case .failed(_, retryable: true) where retried < retryDelaysInPlace.count:
                firstFailure = firstFailure ?? Date()
                retried += 1
                guard (try? await Task.sleep(for: retryDelaysInPlace[retried - 1])) != nil else { return nil }
            default:
                guard let unavailability = outcome.unavailability, let waitInPlace else {
                    return Completion(
                        tag: queued.tag, message: queued.input.message, event: queued.input.responseEvent,
                        outcome: outcome, retriedInPlace: retried, firstFailureInPlace: firstFailure)
                }
                // Not the event's failure: it keeps its retries for its own faults.
                guard (try? await waitInPlace(unavailability)) != nil else { return nil }
            }
            outcome = await ServiceContext.withValue(queued.context) { await pipeline.handle(queued.input, on: executor) }
        }
    }
}
