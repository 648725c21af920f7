import CRabbitMQ
import Foundation
import Logging

/// The I/O of one librabbitmq connection, run by the ``IOThread`` that carries it: the edge of the
/// ``ConnectionStateMachine``, which holds the protocol logic.
///
/// Each ``pass()`` runs the commands callers queued (all of them, as one batch), reads every frame that is available
/// and hands it to the state machine, encodes what the state machine asks for (``ConnectionAction``) into one buffer
/// and writes it at the end of the pass (``flush()``), and lets librabbitmq release its buffers. Between passes the
/// thread sleeps in poll() on the sockets of all its connections and its eventfd, for at most half a heartbeat
/// interval (``pollTimeout(_:)``) so heartbeats go out while nothing else happens. A pass only resumes continuations
/// and yields to streams; callers' code never runs inside it.
///
/// Unchecked `Sendable`: it is handed to its thread once, after login, and touched only there from then on.
final class IOLoop: @unchecked Sendable {
    let core: ConnectionCore
    let logger: Logger
    let state: amqp_connection_state_t
    let socket: Int32
    /// librabbitmq's socket (TCP or TLS) over `socket`, which frames are written through.
    let librarySocket: OpaquePointer
    let heartbeat: Duration?
    let arena: Arena
    /// The frames this pass writes.
    let output: OutgoingFrames

    var machine: ConnectionStateMachine
    /// What the state machine asked for and the loop has not done yet; its storage is reused.
    var actions: [ConnectionAction] = []
    /// Publishes on channels without publisher confirms that are encoded in `output`: they succeed once written.
    var unflushedPublishes: [PublishConfirmation] = []
    /// The batch being run; swapped with the command queue so its storage is reused.
    var commands: [Command] = []
    /// When data last arrived: two silent heartbeat intervals mean the connection is lost.
    var lastInbound = ContinuousClock.now
    /// Once connection.close went out: when to stop waiting for the broker's close-ok.
    var closeDeadline: ContinuousClock.Instant?
    /// Whether the next pass reads: at first, then when poll() found the socket readable or timed out.
    private var shouldRead = true
    private var socketReadable = false

    init(core: ConnectionCore, session: Session, arena: Arena) {
        self.core = core
        logger = core.logger
        state = session.state
        socket = session.socket
        librarySocket = amqp_get_socket(session.state)
        heartbeat = session.heartbeat
        self.arena = arena
        output = OutgoingFrames(frameMax: session.frameMax)
        machine = ConnectionStateMachine(
            channelMax: session.channelMax, maxBodySize: core.configuration.maxBodySize, logger: core.logger)
    }

    /// One pass: commands, reads when due, the flush; returns whether the connection ended (the thread then calls
    /// ``tearDown()`` and drops it).
    func pass() -> Bool {
        runCommands()
        let now = ContinuousClock.now
        let silent = heartbeat.map { now - lastInbound >= $0 * 2 } ?? false
        if shouldRead || silent || hasBufferedInput {
            readFrames(socketReadable: socketReadable)
        }
        shouldRead = false
        socketReadable = false
        if !machine.isFinished { flush() }
        if machine.isFinished { return true }
        amqp_maybe_release_buffers(state)
        if silent, let heartbeat, ContinuousClock.now - lastInbound >= heartbeat * 2 {
            // Nothing read, yet librabbitmq, which counts every byte it reads (also while writing), did not
            // time out: it heard the broker lately. Look again in half an interval.
            lastInbound = .now - heartbeat * 2 + heartbeat / 2
        }
        if let closeDeadline, ContinuousClock.now >= closeDeadline {
            logger.warning("AMQP broker did not answer connection.close in time")
            machine.finish(nil)
            return true
        }
        return false
    }

    /// What poll() watches for this connection.
    var pollDescriptor: pollfd { pollfd(fd: socket, events: Int16(POLLIN), revents: 0) }

    /// What poll() found: the socket readable, or (`timedOut`) a wait that may have reached a heartbeat deadline
    /// (librabbitmq sends a due heartbeat only from inside its read call).
    func polled(_ descriptor: pollfd, timedOut: Bool) {
        socketReadable = descriptor.revents != 0
        shouldRead = socketReadable || timedOut
    }

    /// The connection's socket failed in poll(): it is lost.
    func pollFailed() {
        machine.finish(.library(AMQP_STATUS_SOCKET_ERROR.rawValue))
    }

    /// Whether librabbitmq holds frames or bytes it read already: poll() must not sleep on the socket then.
    private var hasBufferedInput: Bool {
        amqp_frames_enqueued(state) != 0 || amqp_data_in_buffer(state) != 0
    }

    /// Milliseconds poll() may sleep: at most half a heartbeat, never past the heartbeat or close deadline,
    /// 0 when librabbitmq already holds unread data or commands wait, forever when nothing is due.
    func pollTimeout(_ now: ContinuousClock.Instant) -> Int32 {
        if hasBufferedInput || core.hasCommands { return 0 }
        var deadline: ContinuousClock.Instant?
        if let heartbeat {
            deadline = min(now + heartbeat / 2, lastInbound + heartbeat * 2)
        }
        if let closeDeadline {
            deadline = min(deadline ?? closeDeadline, closeDeadline)
        }
        guard let deadline else { return -1 }
        let (seconds, attoseconds) = (deadline - now).components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }

    /// Reads frames and hands them to the state machine until none is left (librabbitmq reports a timeout for a zero wait).
    /// librabbitmq itself ends the connection with `AMQP_STATUS_HEARTBEAT_TIMEOUT` once the broker was silent for
    /// two heartbeat intervals; reading here is what gives it the chance.
    private func readFrames(socketReadable: Bool) {
        var frame = amqp_frame_t()
        var noWait = timeval(tv_sec: 0, tv_usec: 0)
        var received = socketReadable
        while !machine.isFinished {
            let status = amqp_simple_wait_frame_noblock(state, &frame, &noWait)
            if status == AMQP_STATUS_TIMEOUT.rawValue { break }
            guard status == AMQP_STATUS_OK.rawValue else {
                machine.finish(.library(status))
                break
            }
            received = true
            machine.receive(IncomingFrame(frame), into: &actions)
            performActions()
        }
        machine.handOverDeliveries(into: &actions)
        performActions()
        // Taken after librabbitmq's reads, so this deadline is never earlier than its own.
        if received { lastInbound = .now }
    }

    /// Fails everything still pending, releases the C connection, then reports the end.
    func tearDown() {
        guard case .finished(let error) = machine.phase else { return }
        core.markOpen(false)
        let unstarted = commands + core.stopAccepting(with: error ?? .closed)
        commands = []
        discardUnflushed()
        let closeReplies = machine.tearDown(failing: unstarted)
        amqp_destroy_connection(state)
        if let error {
            logger.error("AMQP connection lost", metadata: ["error": "\(error)"])
        } else {
            logger.info("AMQP connection closed")
        }
        core.eventSink.yield(.closed(error))
        core.eventSink.finish()
        for reply in closeReplies {
            reply(.success(()))
        }
    }
}
