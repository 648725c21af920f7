import Foundation
import NotificationEvents
import PipelineHarness
import Responder
import Testing

/// Ordered mode's retries: a retryable failure is handled again in place, and the notification's later events wait
/// behind it, whatever the outcome; other notifications go on meanwhile.
@Suite struct InPlaceRetryTests {
    /// Records the events it handles and fails those it is told to, a given number of times each.
    final class FlakyRecorder: NotificationContentExtension, @unchecked Sendable {
        let name = "flaky"
        let categoryIdentifiers: Set<String> = ["photo-category"]
        let initialState: [String] = []
        private let lock = NSLock()
        private var failuresLeft: [String: Int]
        private var journal: [String] = []

        init(failing: [String: Int]) {
            failuresLeft = failing
        }

        /// Every handling, failed or not, in the order it happened: `<event id>` or `<event id>!` for a failure.
        var handled: [String] { lock.withLock { journal } }

        func didReceive(
            _ response: NotificationResponse, context: inout ExtensionContext<[String]>
        ) async throws -> ResponseOption {
            let fails = lock.withLock {
                let fails = (failuresLeft[context.eventID] ?? 0) > 0
                failuresLeft[context.eventID, default: 0] -= 1
                journal.append(context.eventID + (fails ? "!" : ""))
                return fails
            }
            if fails { throw Boom() }
            context.state.append(context.eventID)
            return .doNotDismiss
        }
    }

    private static func run(
        _ recorder: FlakyRecorder, retryDelays: [Duration], events: [NotificationResponseEvent]
    ) async throws -> (completions: [ResponseScheduler<String>.Completion], store: InMemoryStateStore) {
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(recorder)
        let store = InMemoryStateStore()
        let scheduler = ResponseScheduler<String>(
            pipeline: ResponsePipeline(registry: registry, store: store, logger: .quiet), maxConcurrentNotifications: 4,
            retryDelaysInPlace: retryDelays)
        let completions = await withTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            scheduler.submit(events.map { (Events.message($0), $0.id, nil) })
            scheduler.finish()
            var completions: [ResponseScheduler<String>.Completion] = []
            for await completion in scheduler.completions { completions.append(completion) }
            return completions
        }
        return (completions, store)
    }

    private static func events(_ request: String, count: Int) -> [NotificationResponseEvent] {
        (1...count).map { Events.response(id: "\(request)/\($0)", request: request) }
    }

    private static func state(of request: String, in store: InMemoryStateStore) async throws -> [String] {
        let record = try #require(await store.notification(request))
        return try EventCodec.decodeStored([String].self, from: try #require(record.handlerStates["flaky"]))
    }

    @Test(.timeLimit(.minutes(10)))
    func aFailedEventIsRetriedBeforeTheNotificationsLaterEvents() async throws {
        let recorder = FlakyRecorder(failing: ["a/2": 2])
        let (completions, store) = try await Self.run(
            recorder, retryDelays: [.milliseconds(1), .milliseconds(1), .milliseconds(1)],
            events: Self.events("a", count: 4) + Self.events("b", count: 4))

        let handledA = recorder.handled.filter { $0.hasPrefix("a/") }
        #expect(handledA == ["a/1", "a/2!", "a/2!", "a/2", "a/3", "a/4"])
        #expect(try await Self.state(of: "a", in: store) == ["a/1", "a/2", "a/3", "a/4"])
        #expect(try await Self.state(of: "b", in: store) == ["b/1", "b/2", "b/3", "b/4"])
        let retried = try #require(completions.first { $0.tag == "a/2" })
        #expect(retried.retriedInPlace == 2)
        #expect(retried.outcome.disposition == .noUpdate)
        #expect(completions.filter { $0.tag != "a/2" }.allSatisfy { $0.retriedInPlace == 0 })
        // Completions of one notification come in its order, so its updates are published in that order.
        #expect(completions.map(\.tag).filter { $0.hasPrefix("a/") } == ["a/1", "a/2", "a/3", "a/4"])
    }

    @Test(.timeLimit(.minutes(10)))
    func anEventThatFailsEveryRetryIsReportedFailedAndTheLaterEventsFollowIt() async throws {
        let recorder = FlakyRecorder(failing: ["a/2": 10])
        let (completions, store) = try await Self.run(
            recorder, retryDelays: [.milliseconds(1), .milliseconds(1)], events: Self.events("a", count: 3))

        #expect(recorder.handled == ["a/1", "a/2!", "a/2!", "a/2!", "a/3"])
        let failed = try #require(completions.first { $0.tag == "a/2" })
        guard case .failed(_, retryable: true) = failed.outcome else {
            Issue.record("a/2: \(failed.outcome)")
            return
        }
        #expect(failed.retriedInPlace == 2)
        #expect(completions.map(\.tag) == ["a/1", "a/2", "a/3"])
        #expect(try await Self.state(of: "a", in: store) == ["a/1", "a/3"])
    }

    @Test(.timeLimit(.minutes(10)))
    func aPermanentFailureIsNotRetried() async throws {
        final class Permanent: NotificationContentExtension, Sendable {
            let name = "permanent"
            let categoryIdentifiers: Set<String> = ["photo-category"]
            let initialState = 0
            let calls = Journal<String>()

            func didReceive(
                _ response: NotificationResponse, context: inout ExtensionContext<Int>
            ) async throws -> ResponseOption {
                calls.append(context.eventID)
                throw PermanentFailure("never")
            }
        }
        let handler = Permanent()
        var registry = try Fixtures.registry(extension: nil)
        try registry.register(handler)
        let scheduler = ResponseScheduler<Int>(
            pipeline: ResponsePipeline(registry: registry, store: InMemoryStateStore(), logger: .quiet),
            maxConcurrentNotifications: 1, retryDelaysInPlace: [.milliseconds(1)])
        let completion = await withTaskGroup(of: Void.self) { group in
            group.addTask { await scheduler.run() }
            scheduler.submit([(Events.message(Events.response(id: "p/1", request: "p")), 1, nil)])
            scheduler.finish()
            var all: [ResponseScheduler<Int>.Completion] = []
            for await completion in scheduler.completions { all.append(completion) }
            return all.first
        }
        #expect(handler.calls.entries == ["p/1"])
        #expect(completion?.retriedInPlace == 0)
    }

    @Test(.timeLimit(.minutes(10)))
    func withoutDelaysInPlaceAFailureIsReportedAtOnce() async throws {
        let recorder = FlakyRecorder(failing: ["a/1": 1])
        let (completions, _) = try await Self.run(recorder, retryDelays: [], events: Self.events("a", count: 2))
        #expect(recorder.handled == ["a/1!", "a/2"])
        #expect(completions.first { $0.tag == "a/1" }?.retriedInPlace == 0)
    }
}
