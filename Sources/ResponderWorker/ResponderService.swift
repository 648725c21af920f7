import AMQP
import Logging
import Responder
import ResponderIntake
import ServiceLifecycle
import Synchronization

/// `responder run` as a service: keeps a connection to the broker, consumes and handles inputs over it, and
/// reconnects with capped exponential backoff and jitter when it is lost or the broker cancels the consumer.
///
/// While the state store, or a dependency of the handlers, is unavailable it pauses: inputs stay in the queue,
/// uncounted, and `/health/ready` says why.
///
/// On graceful shutdown it stops consuming, finishes the inputs it holds, waits for their confirms and acks, closes
/// the connection and returns. Inputs it could not finish stay unacknowledged and are redelivered.
public struct ResponderService: Service {
    private let configuration: WorkerConfiguration
    private let pipeline: ResponsePipeline
    private let readiness: Readiness
    private let logger: Logger
    private let metrics = WorkerMetrics()
    private let pause: IntakePause
    private let ownership: ShardOwnership?

    /// A worker consuming with `configuration`, handling inputs with `pipeline`, and reporting on `readiness`.
    public init(configuration: WorkerConfiguration, pipeline: ResponsePipeline, readiness: Readiness, logger: Logger) {
        self.configuration = configuration
        self.pipeline = pipeline
        self.readiness = readiness
        self.logger = logger
        pause = IntakePause(
            store: pipeline.store, backoff: configuration.storeRetryBackoff, readiness: readiness, metrics: metrics,
            logger: logger, inPlace: configuration.topology.isOrdered,
            dependencyDown: { [pipeline] in pipeline.isDependencyUnavailable })
        // A store without fleet leases leaves ordered mode without an owner: run() refuses it.
        if configuration.topology.isOrdered, let leases = pipeline.store as? any FleetLeases {
            ownership = ShardOwnership(
                store: leases, shards: configuration.topology.shards, member: configuration.workerID,
                lease: configuration.shardLease, metrics: metrics, logger: logger)
        } else {
            ownership = nil
        }
    }

    public func run() async throws {
        if configuration.topology.isOrdered, ownership == nil { throw OrderedModeNeedsFleetLeases() }
        let current = CurrentSession()
        // Outlives the sessions: a reconnection keeps the worker's shards. Left once no session runs, so nothing
        // of the shards is in hand.
        let heartbeat = ownership.map { ownership in Task { await ownership.maintain() } }
        defer { heartbeat?.cancel() }
        try await withGracefulShutdownHandler {
            do {
                try await reconnectLoop(current)
            } catch {
                await leaveFleet(stopping: heartbeat)
                throw error
            }
            await leaveFleet(stopping: heartbeat)
        } onGracefulShutdown: {
            logger.info("shutting down: finishing the inputs in hand")
            readiness.set(.shuttingDown, true)
            current.stop()
        }
    }

    /// Stops the heartbeat, and once no renewal can follow, leaves the fleet so the others take the shards at once.
    private func leaveFleet(stopping heartbeat: Task<Void, Never>?) async {
        heartbeat?.cancel()
        await heartbeat?.value
        await ownership?.leave()
    }

    /// What `ps` and debuggers call a broker session's thread.
    static let sessionThreadName = "broker-session"

    private func reconnectLoop(_ current: CurrentSession) async throws {
        var attempts = ReconnectAttempts(backoff: configuration.reconnectBackoff)
        var random = SystemRandomNumberGenerator()
        while !current.isStopping {
            do {
                // One thread for the session: the consuming connection's I/O and the session's tasks that do not
                // suspend, so handing an input or ack from one to the next wakes no other thread. The publishing
                // connection keeps a thread of its own: a write the broker holds back (flow control, a memory or
                // disk alarm) blocks the thread that writes, and must not stop the consumer's acks and heartbeats.
                let thread = IOThread(name: Self.sessionThreadName)
                defer { thread.endWhenIdle() }
                let consuming = try await connect(role: "consumer", on: thread)
                let publishing: AMQPConnection
                do {
                    publishing = try await connect(role: "publisher", on: nil)
                } catch {
                    await consuming.close()
                    throw error
                }
                let session = BrokerSession(
                    consuming: consuming, publishing: publishing, on: thread, configuration: configuration,
                    pipeline: pipeline,
                    readiness: readiness, metrics: metrics, pause: pause, ownership: ownership, logger: logger)
                current.begin(session)
                let began = ContinuousClock.now
                do {
                    try await session.run()
                } catch {
                    await consuming.close()
                    await publishing.close()
                    attempts.sessionEnded(receivedInput: session.hasReceivedInput, lasted: .now - began)
                    throw error
                }
                await consuming.close()
                await publishing.close()
                if current.isStopping { return }
                readiness.set(.disconnected, true)
                attempts.sessionEnded(receivedInput: session.hasReceivedInput, lasted: .now - began)
                let delay = attempts.nextDelay(using: &random)
                metrics.reconnects.increment()
                logger.warning(
                    "the broker cancelled the consumer; reconnecting",
                    metadata: ["attempt": "\(attempts.count)", "delay": "\(delay)"])
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: delay) }
                try Task.checkCancellation()
            } catch let conflict as TopologyConflict {
                readiness.set(.disconnected, true)
                logger.critical("refusing the broker's topology", metadata: ["error": "\(conflict)"])
                throw conflict
            } catch {
                readiness.set(.disconnected, true)
                if current.isStopping { return }
                try Task.checkCancellation()
                let delay = attempts.nextDelay(using: &random)
                metrics.reconnects.increment()
                logger.warning(
                    "broker connection failed; reconnecting",
                    metadata: ["error": "\(error)", "attempt": "\(attempts.count)", "delay": "\(delay)"])
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: delay) }
                try Task.checkCancellation()
            }
        }
    }
}

extension ResponderService {
    /// A connection named after the worker and its role, so operators can tell them apart in the broker.
    private func connect(role: String, on thread: IOThread?) async throws -> AMQPConnection {
        var broker = configuration.broker
        // A delivery over the pipeline's limit is never buffered; the broker's max_message_size should match.
        broker.maxBodySize = pipeline.configuration.maxBodySize
        broker.connectionName = "\(broker.connectionName ?? "responder") \(role)"
        return try await AMQPConnection.connect(broker, on: thread, logger: logger)
    }
}

/// The session running now, so graceful shutdown can reach it from another task.
private final class CurrentSession: Sendable {
    private let state = Mutex<(session: BrokerSession?, stopping: Bool)>((nil, false))

    var isStopping: Bool { state.withLock { $0.stopping } }

    func begin(_ session: BrokerSession) {
        let stopAtOnce = state.withLock { state in
            state.session = session
            return state.stopping
        }
        if stopAtOnce { session.stopConsuming() }
    }

    func stop() {
        let session = state.withLock { state in
            state.stopping = true
            return state.session
        }
        session?.stopConsuming()
    }
}

/// Ordered mode on a state store that keeps no fleet leases (one that is not Responder's `FleetLeases`): its workers
/// could not agree on who consumes which shard.
public struct OrderedModeNeedsFleetLeases: Error, CustomStringConvertible {
    /// The refusal, for a store that is not `FleetLeases`.
    public init() {}

    /// What to do about it.
    public var description: String {
        "ordered mode (--shards) needs a state store that keeps the fleet's shard leases (SQLite, PostgreSQL or "
            + ":memory:); this store keeps none"
    }
}
