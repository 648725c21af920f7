import CRabbitMQ
import Foundation
import Glibc
import CRabbitMQShim
import Synchronization

/// One OS thread that does the I/O of one or more connections and runs the jobs of the tasks that prefer it.
///
/// Each pass runs the jobs queued so far, then each connection's commands, reads and writes, then sleeps in poll()
/// on all the connections' sockets and one eventfd. Handing work to the thread from elsewhere (a job, a command)
/// wakes it through the eventfd; handing work to it from the thread itself costs nothing, since the pass looks for
/// queued jobs and commands before it sleeps. So tasks running here (`withTaskExecutorPreference(thread)`) and the
/// connections they use exchange work without a single cross-thread wake-up.
///
/// ``AMQPConnection/connect(_:on:logger:)`` opens a connection on a given thread; by default each connection gets
/// a thread of its own. Code running on the thread must never block waiting for something the thread does (a
/// reply, a confirm): it would wait forever. Tasks that suspend leave the thread free meanwhile.
///
/// The thread ends once ``endWhenIdle()`` was called and no connection it carries is open, none is being opened
/// and no job is queued. A job enqueued after that runs on the global concurrent executor.
public final class IOThread: TaskExecutor, @unchecked Sendable {
    // Unchecked Sendable: `shared` is behind a lock, the atomics are atomic, and the rest is touched only by the
    // thread itself (`run()`).

    private struct Shared: Sendable {
        var jobs: [UnownedJob] = []
        /// Connections logged in and waiting for the thread to take them over.
        var arriving: [IOLoop] = []
        /// Connections being opened (connect and login run on a thread of their own, so they never stall this one).
        var opening = 0
        var endWhenIdle = false
        var ended = false
    }

    private let shared = Mutex(Shared())
    /// Written to wake the thread from poll(); closed only when nothing can write to it any more (deinit).
    private let wakeDescriptor: Int32
    /// Set when the eventfd was written and the thread has not started its next pass yet, so a burst of work
    /// costs one wake-up.
    private let wakePending = Atomic<Bool>(false)
    /// The thread's pthread id once it runs; 0 before.
    private let threadID = Atomic<UInt>(0)
    /// Counts eventfd writes, for tests that check work handed over on the thread costs none.
    private let wakeUps = Atomic<Int>(0)

    // The thread's own.
    private var loops: [IOLoop] = []
    private var running: [UnownedJob] = []
    private var descriptors: [pollfd] = []

    /// Starts a thread named `name` (as `ps` and debuggers show it; the kernel keeps its first 15 bytes).
    public init(name: String) {
        wakeDescriptor = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        precondition(wakeDescriptor >= 0, "eventfd failed: errno \(errno)")
        // Named from the thread itself: Foundation's `Thread.name` set before `start()` never reaches the kernel on
        // Linux, and the thread kept the name of the one that created it (a pool thread's, in `ps` and `perf`). The
        // connecting thread below too.
        let thread = Thread { [self] in
            c_name_current_thread(name)
            run()
        }
        thread.start()
    }

    deinit {
        Glibc.close(wakeDescriptor)
    }

    /// Lets the thread end once it carries no open connection, opens none and has no job queued.
    public func endWhenIdle() {
        shared.withLock { $0.endWhenIdle = true }
        wake()
    }

    /// Queues `job` to run on the thread.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let ended = shared.withLock { shared in
            if !shared.ended { shared.jobs.append(job) }
            return shared.ended
        }
        if ended {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        } else {
            wake()
        }
    }

    /// Whether the caller runs on this thread.
    var isCurrent: Bool { pthread_equal(pthread_self(), threadID.load(ordering: .acquiring)) != 0 }

    /// Whether the thread ended (``endWhenIdle()``).
    var hasEnded: Bool { shared.withLock { $0.ended } }

    /// How many times work handed over from other threads wrote the eventfd.
    var wakeUpCount: Int { wakeUps.load(ordering: .relaxed) }

    /// Makes the thread run a pass soon: writes the eventfd unless the caller is the thread itself (its pass looks
    /// for work before sleeping) or a wake-up is already on its way.
    func wake() {
        if isCurrent { return }
        if !wakePending.exchange(true, ordering: .sequentiallyConsistent) {
            wakeUps.add(1, ordering: .relaxed)
            var one: UInt64 = 1
            _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
        }
    }

    /// Opens `core`'s connection (connect and login) on a short-lived thread, then hands it to this one; reports
    /// the outcome through `connected` first.
    func open(_ core: ConnectionCore, connected: @escaping @Sendable (Result<Void, AMQPError>) -> Void) {
        // A thread that ended runs nothing any more: a connection handed to it would never be served.
        let ended = shared.withLock { shared in
            if !shared.ended { shared.opening += 1 }
            return shared.ended
        }
        if ended {
            Self.fail(core, with: .closed, connected: connected)
            return
        }
        let opener = Thread { [self] in
            c_name_current_thread("amqp-connect")
            let arena = Arena()
            switch Session.open(core.configuration, arena: arena) {
            case .failure(let error):
                core.logger.error("AMQP connection failed", metadata: ["amqp.url": "\(core.configuration)", "error": "\(error)"])
                shared.withLock { $0.opening -= 1 }
                wake()
                Self.fail(core, with: error, connected: connected)
            case .success(let session):
                let loop = IOLoop(core: core, session: session, arena: arena)
                core.negotiated(frameMax: session.frameMax)
                core.markOpen(true)
                core.logger.info(
                    "AMQP connection open",
                    metadata: ["amqp.url": "\(core.configuration)", "amqp.heartbeat": "\(session.heartbeat.map { "\($0)" } ?? "off")"])
                shared.withLock { shared in
                    shared.arriving.append(loop)
                    shared.opening -= 1
                }
                wake()
                connected(.success(()))
            }
        }
        opener.start()
    }

    /// Reports an open that failed: `core` takes no work and its events end.
    private static func fail(
        _ core: ConnectionCore, with error: AMQPError, connected: @Sendable (Result<Void, AMQPError>) -> Void
    ) {
        _ = core.stopAccepting(with: error)
        core.eventSink.finish()
        connected(.failure(error))
    }

    /// Whether the thread may end once no job is queued: told to, and carrying and opening no connection.
    private func mayEnd(_ shared: Shared) -> Bool {
        shared.endWhenIdle && shared.opening == 0 && loops.isEmpty
    }

    private func run() {
        threadID.store(pthread_self(), ordering: .releasing)
        while true {
            // Cleared before the queues are taken: whatever is queued after this writes the eventfd again.
            wakePending.store(false, ordering: .sequentiallyConsistent)
            let idle = shared.withLock { shared in
                swap(&shared.jobs, &running)
                loops += shared.arriving
                shared.arriving.removeAll()
                let idle = mayEnd(shared) && running.isEmpty
                if idle { shared.ended = true }
                return idle
            }
            if idle { return }
            for job in running {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
            running.removeAll(keepingCapacity: true)
            var index = 0
            while index < loops.count {
                if loops[index].pass() {
                    loops.remove(at: index).tearDown()
                } else {
                    index += 1
                }
            }
            sleep()
        }
    }

    /// Waits in poll() until a socket is readable, the eventfd was written, or the earliest connection's deadline.
    private func sleep() {
        let now = ContinuousClock.now
        // Not at all once the thread may end: the pass that just removed its last connection, or an endWhenIdle()
        // called on the thread itself (which writes no eventfd), would otherwise leave it asleep for good.
        var timeout: Int32 = shared.withLock { shared in
            let idle = mayEnd(shared)
            return shared.jobs.isEmpty && shared.arriving.isEmpty && !idle
        } ? -1 : 0
        descriptors.removeAll(keepingCapacity: true)
        for loop in loops {
            descriptors.append(loop.pollDescriptor)
            let due = loop.pollTimeout(now)
            if due >= 0 && (timeout < 0 || due < timeout) { timeout = due }
        }
        descriptors.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0))
        var ready: Int32
        repeat {
            ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
        } while ready < 0 && errno == EINTR
        if ready < 0 {
            for loop in loops { loop.pollFailed() }
            return
        }
        if descriptors[loops.count].revents != 0 {
            var count: UInt64 = 0
            _ = read(wakeDescriptor, &count, MemoryLayout<UInt64>.size)
        }
        for (loop, descriptor) in zip(loops, descriptors) {
            loop.polled(descriptor, timedOut: ready == 0)
        }
    }
}
