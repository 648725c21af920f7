import BrokerHarness
import Foundation
import NotificationEvents
import Responder
@testable import ResponderWorker
import Synchronization
import Testing
import WorkerHarness

/// The worker's handlers run on its broker session's thread, where its inputs arrive and its acks leave, so that
/// handling an input wakes no other thread (the Scaling article's "Threads").
@Suite(.enabled(if: TestBroker.isAvailable, "needs a broker: run scripts/test"), .timeLimit(.minutes(10)))
struct SessionThreadTests {
    /// Records the name of the thread each call runs on, and answers with a button, so each input publishes an update.
    struct ThreadRecorder: NotificationContentExtension {
        struct State: Codable, Sendable {}
        let name = "thread-recorder"
        let categoryIdentifiers: Set<String> = [FlakyHandler.category]
        let initialState = State()
        let threads = Threads()

        final class Threads: Sendable {
            private let names = Mutex<[String]>([])
            var all: [String] { names.withLock { $0 } }

            /// Records the calling thread's name: a synchronous function, since `Thread.current` is unavailable from
            /// asynchronous contexts.
            func recordCurrent() {
                let name = Thread.current.name ?? ""
                names.withLock { $0.append(name) }
            }
        }

        func didReceive(
            _ response: NotificationResponse, context: inout ExtensionContext<State>
        ) async throws -> ResponseOption {
            threads.recordCurrent()
            context.setNotificationActions([NotificationAction(identifier: context.eventID, title: "Done")])
            return .doNotDismiss
        }
    }

    @Test func handlersRunOnTheSessionsThread() async throws {
        let topology = TestTopology("session-thread")
        let probe = try await QueueProbe.open(topology)
        let recorder = ThreadRecorder()
        var registry = HandlerRegistry()
        registry.register(
            NotificationCategory(
                identifier: FlakyHandler.category, actions: [NotificationAction(identifier: "poke", title: "Poke")]))
        try registry.register(recorder)
        let worker = try InProcessWorker(topology: topology, registry: registry)
        try await worker.waitUntilReady()

        try await probe.publish((1...3).map { FlakyHandler.poke("note-\($0)", topology) })
        _ = try await probe.takeUpdates(3)
        try await worker.stop()

        #expect(recorder.threads.all == Array(repeating: ResponderService.sessionThreadName, count: 3))
        await probe.cleanUp()
    }
}
