import CRabbitMQ
import Foundation
import Logging

/// The thread that owns one librabbitmq connection and does all of its I/O: the edge of the
/// ``ConnectionStateMachine``, which holds the protocol logic.
///
/// Each pass runs the commands callers queued (all of them, as one batch), reads every frame that is available and
/// hands it to the state machine, encodes what the state machine asks for (``ConnectionAction``) into one buffer
/// and writes it at the end of the pass (``flush()``), lets librabbitmq release its buffers, then sleeps in poll() on the socket and the eventfd, for at most half a
/// heartbeat interval so heartbeats go out while nothing else happens. It only resumes continuations and yields to
/// streams; callers' code never runs here.
final class IOLoop {
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

    private init(core: ConnectionCore, session: Session, arena: Arena) {
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

    /// Starts the I/O thread: it connects and logs in, reports that through `connected`, then runs until the
    /// connection closes or is lost.
    static func start(core: ConnectionCore, connected: @escaping @Sendable (Result<Void, AMQPError>) -> Void) {
        let thread = Thread {
            let arena = Arena()
            switch Session.open(core.configuration, arena: arena) {
            case .failure(let error):
                core.logger.error("AMQP connection failed", metadata: ["amqp.url": "\(core.configuration)", "error": "\(error)"])
                _ = core.stopAccepting(with: error)
                core.eventSink.finish()
                connected(.failure(error))
            case .success(let session):
                let loop = IOLoop(core: core, session: session, arena: arena)
                core.negotiated(frameMax: session.frameMax)
                core.markOpen(true)
                core.logger.info(
                    "AMQP connection open",
                    metadata: ["amqp.url": "\(core.configuration)", "amqp.heartbeat": "\(session.heartbeat.map { "\($0)" } ?? "off")"])
                connected(.success(()))
                loop.run()
            }
        }
        thread.name = "amqp-io"
        thread.start()
    }

    private func run() {
        var descriptors = [
            pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
            pollfd(fd: core.wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        // Read at least once first; then whenever poll() says so, or on its timeout (librabbitmq sends a due
        // heartbeat only from inside its read call), or when the heartbeat deadline passed.
        var shouldRead = true
        var socketReadable = false
        while true {
            runCommands()
            let silent = heartbeat.map { ContinuousClock.now - lastInbound >= $0 * 2 } ?? false
            if shouldRead || silent || hasBufferedInput {
                readFrames(socketReadable: socketReadable)
            }
            if !machine.isFinished { flush() }
            if machine.isFinished { break }
            amqp_maybe_release_buffers(state)
            if silent, let heartbeat, ContinuousClock.now - lastInbound >= heartbeat * 2 {
                // Nothing read, yet librabbitmq, which counts every byte it reads (also while writing), did not
                // time out: it heard the broker lately. Look again in half an interval.
                lastInbound = .now - heartbeat * 2 + heartbeat / 2
            }
            if let closeDeadline, ContinuousClock.now >= closeDeadline {
                logger.warning("AMQP broker did not answer connection.close in time")
                machine.finish(nil)
                break
            }

            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = poll(&descriptors, 2, pollTimeout(.now))
            if ready < 0 {
                if errno == EINTR { continue }
                machine.finish(.library(AMQP_STATUS_SOCKET_ERROR.rawValue))
                break
            }
            if descriptors[1].revents != 0 {
                var count: UInt64 = 0
                _ = read(core.wakeDescriptor, &count, MemoryLayout<UInt64>.size)
            }
            socketReadable = descriptors[0].revents != 0
            shouldRead = socketReadable || ready == 0
        }
        tearDown()
    }

    /// Whether librabbitmq holds frames or bytes it read already: poll() must not sleep on the socket then.
    private var hasBufferedInput: Bool {
        amqp_frames_enqueued(state) != 0 || amqp_data_in_buffer(state) != 0
    }

    /// Milliseconds poll() may sleep: at most half a heartbeat, never past the heartbeat or close deadline,
    /// 0 when librabbitmq already holds unread data, forever when nothing is due.
    private func pollTimeout(_ now: ContinuousClock.Instant) -> Int32 {
        if hasBufferedInput { return 0 }
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
    private func tearDown() {
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
