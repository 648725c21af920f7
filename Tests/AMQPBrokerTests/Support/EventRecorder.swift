import AMQP
import BrokerHarness
import Synchronization

/// Records a connection's events in the background, so tests can wait for one.
final class EventRecorder: Sendable {
    private final class Storage: Sendable {
        let events = Mutex<[AMQPConnectionEvent]>([])
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    init(_ connection: AMQPConnection) {
        let storage = self.storage
        task = Task {
            for await event in connection.events {
                storage.events.withLock { $0.append(event) }
            }
        }
    }

    deinit {
        task.cancel()
    }

    /// Waits until an event `matches` accepts was recorded.
    func waitFor(
        limit: Duration = hangGuard, _ matches: @Sendable (AMQPConnectionEvent) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + limit
        while !storage.events.withLock({ $0.contains(where: matches) }) {
            guard ContinuousClock.now < deadline else { throw TimedOut(limit: limit) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
