import Metrics
import Responder
import Synchronization

/// Whether the worker can take work now, for `/health/ready`: connected to the broker, not blocked by it, its state
/// store available, and not shutting down. Updated by the worker, read by the HTTP server.
public final class Readiness: Sendable {
    /// What keeps the worker from being ready.
    public enum Obstacle: String, Sendable, CaseIterable {
        case disconnected = "not connected to the broker"
        case blocked = "the broker blocked publishing (connection.blocked)"
        case storeUnavailable = "the state store is unavailable; inputs wait in the queue"
        case dependencyUnavailable = "a dependency of the handlers is unavailable; inputs wait in the queue"
        case shuttingDown = "shutting down"
    }

    /// Each obstacle that holds. Only the obstacle's fixed sentence is shown: readiness answers anyone who reaches
    /// the port, and the details (a database's error names its user and host) go to the log.
    private let obstacles = Mutex<Set<Obstacle>>([.disconnected])
    /// `responder_ready`: 1 while ready, else 0, so dashboards and alerts see what `/health/ready` says.
    private let gauge = Gauge(label: MetricDescription.ready.name)

    /// Not ready (not yet connected).
    public init() {
        gauge.record(0)
    }

    /// Whether nothing keeps the worker from being ready.
    public var isReady: Bool { obstacles.withLock { $0.isEmpty } }

    /// What keeps the worker from being ready now, in a stable order.
    public var currentObstacles: [Obstacle] {
        obstacles.withLock { current in Obstacle.allCases.filter { current.contains($0) } }
    }

    /// ``currentObstacles`` as sentences for people.
    public var currentReasons: [String] { currentObstacles.map(\.rawValue) }

    /// Records that `obstacle` holds (`true`) or has cleared (`false`).
    public func set(_ obstacle: Obstacle, _ holds: Bool) {
        // Recorded under the lock, so concurrent changes reach the gauge in the order they happened.
        obstacles.withLock { current in
            if holds { current.insert(obstacle) } else { current.remove(obstacle) }
            gauge.record(current.isEmpty ? 1 : 0)
        }
    }
}
