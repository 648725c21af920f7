import Foundation
import Logging
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// One notification at a time, in arrival order; different notifications side by side, up to the limit.
@Suite struct SchedulerTests {
    /// Tracks which notifications are being handled right now.
    final class InFlight: @unchecked Sendable {
        private let lock = NSLock()
        private var current: [String: Int] = [:]
        private var most = 0
        private var overlaps = 0

        func enter(_ key: String) {
            lock.withLock {
                current[key, default: 0] += 1
                if current[key]! > 1 { overlaps += 1 }
                most = max(most, current.values.reduce(0, +))
            }
        }

        func leave(_ key: String) {
            lock.withLock { current[key]! -= 1 }
        }

        var sameNotificationOverlaps: Int { lock.withLock { overlaps } }
        var mostAtOnce: Int { lock.withLock { most } }
    }

    /// Records each event it handles per notification, yielding in between so that others can interleave.
    struct Recorder: NotificationContentExtension {
        let name = "recorder"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState: [String] = []
        let inFlight = InFlight()
        let seen = Journal<String>()

        func didReceive(
            _ response: NotificationResponse, context: inout ExtensionContext<[String]>
        ) async throws -> ResponseOption {
            inFlight.enter(context.requestIdentifier)
            defer { inFlight.leave(context.requestIdentifier) }
            for _ in 0..<Int.random(in: 1...5) { await Task.yield() }
            context.state.append(context.eventID)
            seen.append(context.eventID)
            return .doNotDismiss
        }
    }

    /// Runs `messages` through `scheduler`, submitted while it runs, or before it starts when `oneBatch` (then they
    /// are all handled in its first batch).
    private static func runAll<Tag: Sendable>(
        _ scheduler: ResponseScheduler<Tag>, _ messages: [(InboundMessage, Tag)], oneBatch: Bool = false
    ) async -> [ResponseScheduler<Tag>.Completion] {
        if oneBatch {
            scheduler.submit(messages.map { ($0, $1, nil) })
        }
        return await withTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            if !oneBatch {
                // One by one, as deliveries that arrive apart: the scheduler may take them in several batches.
                for (message, tag) in messages { scheduler.submit([(message, tag, nil)]) }
            }
            scheduler.finish()
            var completions: [ResponseScheduler<Tag>.Completion] = []
            for await completion in scheduler.completions { completions.append(completion) }
            return completions
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func eventsOfOneNotificationRunOneAtATimeInArrivalOrder() async throws {
        let recorder = Recorder()
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(recorder)
        let store = InMemoryStateStore()
        let scheduler = ResponseScheduler<Int>(
            pipeline: ResponsePipeline(registry: registry, store: store, logger: .quiet), maxConcurrentNotifications: 3)
        let notifications = (0..<6).map { "note-\($0)" }
        var messages: [(InboundMessage, Int)] = []
        for round in 0..<25 {
            for request in notifications.shuffled() {
                let event = Events.response(id: "\(request)/\(round)", request: request)
                messages.append((Events.message(event), messages.count))
            }
        }
        let completions = await Self.runAll(scheduler, messages)

        #expect(completions.map(\.tag).sorted() == Array(0..<messages.count))
        #expect(completions.allSatisfy { $0.outcome.disposition == .noUpdate })
        #expect(recorder.inFlight.sameNotificationOverlaps == 0)
        #expect(recorder.inFlight.mostAtOnce <= 3)
        for request in notifications {
            let record = try #require(await store.notification(request))
            let state = try EventCodec.decodeStored([String].self, from: try #require(record.handlerStates["recorder"]))
            #expect(state == (0..<25).map { "\(request)/\($0)" })
        }
    }

    /// Waits for the other notification's first event before finishing its own first event: only completes
    /// when both run at the same time.
    struct Rendezvous: NotificationContentExtension {
        let name = "rendezvous"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState = 0
        let arrived = ["a": Signal(), "b": Signal()]

        func didReceive(
            _ response: NotificationResponse, context: inout ExtensionContext<Int>
        ) async throws -> ResponseOption {
            if context.state == 0 {
                await arrived[context.requestIdentifier]!.fire()
                await arrived[context.requestIdentifier == "a" ? "b" : "a"]!.wait()
            }
            context.state += 1
            return .doNotDismiss
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func differentNotificationsRunConcurrently() async throws {
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(Rendezvous())
        let scheduler = ResponseScheduler<String>(
            pipeline: ResponsePipeline(registry: registry, store: InMemoryStateStore(), logger: .quiet),
            maxConcurrentNotifications: 2)
        let messages = ["a", "b"].map { (Events.message(Events.response(id: "\($0)-1", request: $0)), $0) }
        // In one batch: a batch is handled to its end before the next starts, so two notifications' events run side
        // by side only within one.
        let completions = await Self.runAll(scheduler, messages, oneBatch: true)
        #expect(Set(completions.map(\.tag)) == ["a", "b"])
    }

    @Test(.timeLimit(.minutes(10)))
    func anUndecodableMessageCompletesAtOnceWithItsTag() async throws {
        let scheduler = ResponseScheduler<String>(
            pipeline: ResponsePipeline(registry: try Fixtures.registry(), store: InMemoryStateStore(), logger: .quiet),
            maxConcurrentNotifications: 1)
        let completions = await Self.runAll(
            scheduler,
            [
                (Events.message(body: Array("{".utf8)), "broken"),
                (Events.message(Events.response(id: "e1")), "good"),
            ])
        let broken = try #require(completions.first { $0.tag == "broken" })
        #expect(broken.outcome.deadLetterReason == .malformedJSON)
        #expect(broken.event == nil)
        #expect(broken.message.body == Array("{".utf8))
        let good = try #require(completions.first { $0.tag == "good" })
        #expect(good.event?.id == "e1")
    }

    /// Records, for each call, whether it ran on `executor`; fails every other call (the first, the third, ...),
    /// retryably: a single event's first call, retried once in place.
    struct WhereItRuns: NotificationContentExtension {
        let name = "where-it-runs"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState = 0
        let executor: QueueExecutor
        let onExecutor = Journal<Bool>()

        func didReceive(
            _ response: NotificationResponse, context: inout ExtensionContext<Int>
        ) async throws -> ResponseOption {
            onExecutor.append(executor.isCurrent)
            context.state += 1
            if !onExecutor.entries.count.isMultiple(of: 2) { throw Boom() }
            return .doNotDismiss
        }
    }

    @Test("handlers run on the scheduler's executor, in a batch and when retried in place", .timeLimit(.minutes(10)))
    func handlersRunOnTheSchedulersExecutor() async throws {
        let executor = QueueExecutor()
        let handler = WhereItRuns(executor: executor)
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(handler)
        let scheduler = ResponseScheduler<Int>(
            pipeline: ResponsePipeline(registry: registry, store: InMemoryStateStore(), logger: .quiet),
            maxConcurrentNotifications: 2, retryDelaysInPlace: [.milliseconds(1)], executor: executor)
        let completions = await withTaskExecutorPreference(executor) {
            await Self.runAll(scheduler, [(Events.message(Events.response(id: "e1")), 1)], oneBatch: true)
        }
        #expect(completions.map(\.outcome.disposition) == [.noUpdate])
        #expect(completions.map(\.retriedInPlace) == [1])
        // The first call in the batch, the second in the retry.
        #expect(handler.onExecutor.entries == [true, true])
    }

    @Test(.timeLimit(.minutes(10)))
    func runEndsAtOnceWhenNothingWasSubmitted() async throws {
        let scheduler = ResponseScheduler<Int>(
            pipeline: ResponsePipeline(registry: HandlerRegistry(), store: InMemoryStateStore(), logger: .quiet),
            maxConcurrentNotifications: 4)
        #expect(await Self.runAll(scheduler, []).isEmpty)
    }
}
