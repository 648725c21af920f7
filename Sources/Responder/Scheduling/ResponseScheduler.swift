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
/// event overtake the one that failed. Other notifications go on meanwhile.
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
        /// The message's event, or nil when it did not decode.
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
        case finishedHandling(requestIdentifier: String)
        case noMoreInput
    }

    private struct Queued: Sendable {
        var input: DecodedResponse
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

    /// A scheduler for `pipeline` that handles at most `maxConcurrentNotifications` notifications at once, and
    /// retries a retryable failure in place after each of `retryDelaysInPlace` (none by default).
    public init(pipeline: ResponsePipeline, maxConcurrentNotifications: Int, retryDelaysInPlace: [Duration] = []) {
        precondition(maxConcurrentNotifications > 0, "maxConcurrentNotifications must be positive")
        self.pipeline = pipeline
        self.maxConcurrentNotifications = maxConcurrentNotifications
        self.retryDelaysInPlace = retryDelaysInPlace
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

            func startReadyNotifications() {
                while running < maxConcurrentNotifications, let key = ready.popFirst() {
                    let next = queues[key]!.popFirst()!
                    running += 1
                    group.addTask { [pipeline, completions, events, retryDelaysInPlace] in
                        var outcome = await ServiceContext.withValue(next.context) { await pipeline.handle(next.input) }
                        var retried = 0
                        var firstFailure: Date?
                        while case .failed(_, retryable: true) = outcome, retried < retryDelaysInPlace.count {
                            firstFailure = firstFailure ?? Date()
                            // Cancelled while waiting (the session ended): report nothing, so the input stays
                            // unacknowledged and the broker redelivers it, still ahead of the notification's others.
                            do { try await Task.sleep(for: retryDelaysInPlace[retried]) } catch {
                                events.yield(.finishedHandling(requestIdentifier: key))
                                return
                            }
                            retried += 1
                            outcome = await ServiceContext.withValue(next.context) { await pipeline.handle(next.input) }
                        }
                        completions.yield(
                            Completion(
                                tag: next.tag, message: next.input.message, event: next.input.event, outcome: outcome,
                                retriedInPlace: retried, firstFailureInPlace: firstFailure))
                        events.yield(.finishedHandling(requestIdentifier: key))
                    }
                }
            }

            func handle(_ event: Event) {
                switch event {
                case .submitted(let message, let tag, let context):
                    do throws(InputRejection) {
                        let input = try pipeline.decode(message)
                        let key = input.requestIdentifier
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
                case .finishedHandling(let key):
                    running -= 1
                    if queues[key]!.isEmpty {
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
}
