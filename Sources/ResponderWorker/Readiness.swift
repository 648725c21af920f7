import Synchronization

/// Whether the worker can take work now, for `/health/ready`: connected to the broker, not blocked by it, and not
/// shutting down. Updated by the worker, read by the HTTP server.
public final class Readiness: Sendable {
    /// What keeps the worker from being ready.
    public enum Obstacle: String, Sendable, CaseIterable {
        case disconnected = "not connected to the broker"
        case blocked = "the broker blocked publishing (connection.blocked)"
        case shuttingDown = "shutting down"
    }

    private let obstacles = Mutex<Set<Obstacle>>([.disconnected])

    public init() {}

    /// Whether nothing keeps the worker from being ready.
    public var isReady: Bool { obstacles.withLock { $0.isEmpty } }

    /// What keeps the worker from being ready now, in a stable order.
    public var currentObstacles: [Obstacle] {
        obstacles.withLock { current in Obstacle.allCases.filter(current.contains) }
    }

    /// Records that `obstacle` holds (`true`) or has cleared (`false`).
    public func set(_ obstacle: Obstacle, _ holds: Bool) {
        obstacles.withLock { current in
            if holds { current.insert(obstacle) } else { current.remove(obstacle) }
        }
    }
}
