import DequeModule
import Foundation
import NotificationEvents
import Tracing

/// Feeds input messages through a ``ResponsePipeline`` in the order that keeps per-notification state right:
/// the events of one notification are handled one at a time, in the order they were submitted; events of
/// different notifications are handled concurrently, at most `maxConcurrentNotifications` at once.
///
/// A message that does not decode has no notification: its dead-letter outcome is reported at once.
/// Each outcome is reported on ``completions`` as soon as it is known, tagged with what the caller submitted
/// it with (e.g. an AMQP delivery tag), so the caller can acknowledge contiguous prefixes.
///
/// ```swift
/// let scheduler = ResponseScheduler<UInt64>(pipeline: pipeline, maxConcurrentNotifications: 16)
/// async let running: Void = scheduler.run()
/// scheduler.submit(message, tag: deliveryTag)      // from the consumer
/// for await completion in scheduler.completions { ... }   // publish outputs, then ack completion.tag
/// ```
/// With retry delays in place (ordered mode), a retryable failure is handled again after each delay while the
/// notification's later events wait behind it, and only the last failure is reported: a retry never lets a later
/// event overtake the one that failed. Other notifications go on meanwhile. With a wait in place (ordered mode too),
/// an event that meets an outage (an unavailable state store or dependency) is handled again once the wait returns,
/// in the same way.
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
        /// `abandoned` when the event's delay or store wait in place was given up, so it was not reported.
        case finishedHandling(requestIdentifier: String, abandoned: Bool)
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

    /// A scheduler for `pipeline` that handles at most `maxConcurrentNotifications` notifications at once, and
    /// retries a retryable failure in place after each of `retryDelaysInPlace` (none by default).
    ///
    /// Without `waitInPlace` an outage (``ResponseOutcome/unavailability``) is reported as the event's outcome at once
    /// (the caller hands the input back). With it, the event waits in place instead: `waitInPlace` is called with the
    /// outage and returns once it is over, and the event is handled again. When it throws (the caller
    /// gives up, e.g. its session ends) the event is not reported at all, and neither are its notification's later
    /// events in this run, handled or not: their inputs stay unacknowledged and the broker redelivers them, in order.
    public init(
        pipeline: ResponsePipeline, maxConcurrentNotifications: Int, retryDelaysInPlace: [Duration] = [],
        waitInPlace: (@Sendable (Unavailability) async throws -> Void)? = nil
    ) {
        precondition(maxConcurrentNotifications > 0, "maxConcurrentNotifications must be positive")
        self.pipeline = pipeline
        self.maxConcurrentNotifications = maxConcurrentNotifications
        self.retryDelaysInPlace = retryDelaysInPlace
        self.waitInPlace = waitInPlace
    }

    /// Queues `message`; its outcome appears on ``completions`` tagged with `tag`. Call before ``finish()``, and
    /// from one task at a time: the order of the calls is the arrival order. The pipeline handles the message in the
    /// caller's service context (its trace, for the pipeline's spans).
    public func submit(_ message: InboundMessage, tag: Tag) {
        events.yield(.submitted(message, tag, ServiceContext.current))
    }

    /// Says no more messages will be submitted: ``run()`` returns once every submitted message has completed.
    public func finish() {
        events.yield(.noMoreInput)
    }

    /// Handles the submitted messages until ``finish()`` was called and all have completed, or until the calling
    /// task is cancelled (handlers then see the cancellation). Call once.
    public func run() async {
        await withDiscardingTaskGroup { group in
            var queues: [String: Deque<Queued>] = [:]
            var ready = Deque<String>()
            var running = 0
            var inputEnded = false
            // Notifications with an event given up in place: their later events wait for the broker's redelivery.
            var abandoned: Set<String> = []

            func startReadyNotifications() {
                while running < maxConcurrentNotifications, let key = ready.popFirst() {
                    let next = queues[key]!.popFirst()!
                    running += 1
                    group.addTask { [self] in
                        // No outcome: the event's wait was given up (the session ended), so nothing is reported and
                        // its input stays unacknowledged: the broker redelivers it, still ahead of the others.
                        guard let handled = await handleInPlace(next) else {
                            events.yield(.finishedHandling(requestIdentifier: key, abandoned: true))
                            return
                        }
                        completions.yield(
                            Completion(
                                tag: next.tag, message: next.input.message, event: next.input.responseEvent,
                                outcome: handled.outcome, retriedInPlace: handled.retried,
                                firstFailureInPlace: handled.firstFailure))
                        events.yield(.finishedHandling(requestIdentifier: key, abandoned: false))
                    }
                }
            }

            func handle(_ event: Event) {
                switch event {
                case .submitted(let message, let tag, let context):
                    do throws(InputRejection) {
                        let input = try pipeline.decode(message)
                        let key = input.requestIdentifier
                        guard !abandoned.contains(key) else { break }
                        if queues[key] == nil {
                            queues[key] = Deque()
                            ready.append(key)
                        }
                        queues[key]!.append(Queued(input: input, tag: tag, context: context))
                    } catch {
                        completions.yield(
                            Completion(tag: tag, message: message, event: nil, outcome: error.outcome, retriedInPlace: 0,
                                firstFailureInPlace: nil))
                    }
                case .finishedHandling(let key, let gaveUp):
                    running -= 1
                    if gaveUp {
                        abandoned.insert(key)
                        queues[key] = nil
                    } else if queues[key]!.isEmpty {
                        queues[key] = nil
                    } else {
                        ready.append(key)
                    }
                case .noMoreInput:
                    inputEnded = true
                }
            }

            // Everything that arrived since the last pass is handled in one: one wake-up for a burst of
            // deliveries and completions, and notifications start once per pass.
            var batch: [Event] = []
            while await events.take(into: &batch) {
                for event in batch { handle(event) }
                batch.removeAll(keepingCapacity: true)
                startReadyNotifications()
                if inputEnded, running == 0, queues.isEmpty { break }
            }
        }
        events.finish()
        completions.finish()
    }

    /// Handles `queued`, again after each retry delay in place and after each store wait in place; nil when a
    /// delay or wait was cancelled or given up.
    private func handleInPlace(_ queued: Queued) async -> (outcome: ResponseOutcome, retried: Int, firstFailure: Date?)? {
        var outcome = await ServiceContext.withValue(queued.context) { await pipeline.handle(queued.input) }
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
                    return (outcome, retried, firstFailure)
                }
                // Not the event's failure: it keeps its retries for its own faults.
                guard (try? await waitInPlace(unavailability)) != nil else { return nil }
            }
            outcome = await ServiceContext.withValue(queued.context) { await pipeline.handle(queued.input) }
        }
    }
}
