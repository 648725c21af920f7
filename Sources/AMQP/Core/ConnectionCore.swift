import CRabbitMQ
import Logging
import Synchronization

/// What callers and a connection's I/O thread share: the command queue, the thread (woken when commands arrive),
/// the open flag and the event stream. Everything else belongs to the I/O thread alone (``IOLoop``).
final class ConnectionCore: Sendable {
    let configuration: AMQPConfiguration
    let logger: Logger
    /// The thread that does this connection's I/O.
    let thread: IOThread
    let events: AsyncStream<AMQPConnectionEvent>
    let eventSink: AsyncStream<AMQPConnectionEvent>.Continuation

    private struct Queue {
        var commands: [Command] = []
        var accepting = true
        var terminalError: AMQPError = .closed
    }

    private let queue = Mutex(Queue())
    private let open = Atomic<Bool>(false)
    private let consumerTags = Atomic<UInt64>(0)
    private let frameMax = Atomic<Int>(0)

    init(configuration: AMQPConfiguration, thread: IOThread, logger: Logger) {
        self.configuration = configuration
        self.thread = thread
        self.logger = logger
        (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Whether the connection is logged in and not yet closed or lost.
    var isOpen: Bool { open.load(ordering: .relaxed) }

    /// What a publish must fit: the frame size negotiated at login (the proposed one before) and the body limit.
    var publishLimits: PublishLimits {
        var limits = configuration.publishLimits
        let negotiated = frameMax.load(ordering: .relaxed)
        if negotiated > 0 { limits.frameMax = negotiated }
        return limits
    }

    func negotiated(frameMax value: Int) {
        frameMax.store(value, ordering: .relaxed)
    }

    func markOpen(_ value: Bool) {
        open.store(value, ordering: .relaxed)
    }

    /// Hands `command` to the I/O thread, waking it (``IOThread/wake()``).
    /// Throws the connection's final error once the I/O thread stopped taking work.
    func submit(_ command: Command) throws(AMQPError) {
        let outcome: AMQPError? = queue.withLock { queue in
            guard queue.accepting else { return queue.terminalError }
            queue.commands.append(command)
            return nil
        }
        if let outcome { throw outcome }
        thread.wake()
    }

    /// Whether commands wait for the I/O thread's next pass.
    var hasCommands: Bool { queue.withLock { !$0.commands.isEmpty } }

    /// Swaps the queued commands into `buffer`, which must be empty; its capacity is reused by the next batch.
    func takeCommands(into buffer: inout [Command]) {
        queue.withLock { queue in
            swap(&queue.commands, &buffer)
        }
    }

    /// Stops taking commands, remembering `error` for later callers, and returns the ones not taken yet.
    func stopAccepting(with error: AMQPError) -> [Command] {
        queue.withLock { queue in
            queue.accepting = false
            queue.terminalError = error
            defer { queue.commands = [] }
            return queue.commands
        }
    }

    /// A consumer tag unique on this connection, short enough to stay a small (unallocated) Swift string.
    func makeConsumerTag() -> String {
        "ctag-\(consumerTags.add(1, ordering: .relaxed).newValue)"
    }
}
