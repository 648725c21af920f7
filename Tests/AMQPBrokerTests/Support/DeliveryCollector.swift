import AMQP
import BrokerHarness
import Synchronization

/// Collects a consumer's deliveries in the background, so tests can look at what arrived so far.
final class DeliveryCollector: Sendable {
    /// How a consumer's sequence ended.
    enum End: Equatable, Sendable {
        /// Finished normally, after a cancel.
        case finished
        /// Threw this error.
        case failed(AMQPError)
    }

    private struct State {
        var deliveries: [AMQPDelivery] = []
        var end: End?
    }

    private final class Storage: Sendable {
        let state = Mutex(State())
    }

    private let storage = Storage()
    private let task: Task<Void, Never>

    init(_ consumer: AMQPConsumer) {
        let storage = self.storage
        task = Task {
            do throws(AMQPError) {
                for try await delivery in consumer {
                    storage.state.withLock { $0.deliveries.append(delivery) }
                }
                storage.state.withLock { $0.end = .finished }
            } catch {
                storage.state.withLock { $0.end = .failed(error) }
            }
        }
    }

    deinit {
        task.cancel()
    }

    var deliveries: [AMQPDelivery] { storage.state.withLock { $0.deliveries } }

    /// How the consumer's sequence ended, `nil` while it runs.
    var end: End? { storage.state.withLock { $0.end } }

    /// Waits until at least `count` deliveries arrived.
    @discardableResult
    func waitFor(_ count: Int, limit: Duration = hangGuard) async throws -> [AMQPDelivery] {
        try await poll(limit) { $0.deliveries.count >= count ? $0.deliveries : nil }
    }

    /// Waits until the sequence ended.
    func waitForEnd(limit: Duration = hangGuard) async throws -> End {
        try await poll(limit) { $0.end }
    }

    private func poll<Value: Sendable>(_ limit: Duration, _ check: (State) -> Value?) async throws -> Value {
        let deadline = ContinuousClock.now + limit
        while true {
            if let value = storage.state.withLock({ check($0) }) { return value }
            guard ContinuousClock.now < deadline else { throw TimedOut(limit: limit) }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
