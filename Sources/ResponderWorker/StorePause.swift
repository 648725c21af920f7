import Logging
import Responder
import Synchronization

/// The worker's pause while its state store is unavailable (``StateStoreUnavailable``: a full disk, an I/O error, a
/// lock held too long, a database server out of reach), shared by the broker sessions of one worker.
///
/// The first input that meets the unavailable store pauses the worker: `/health/ready` says 503, that the state
/// store is unavailable (not the database's words, which may name its user and host: readiness answers anyone who
/// can reach the port), the `responder_store_paused` gauge is 1, and one warning with the store's reason is logged
/// for the pause, not one per input or per check. Then
/// the store is checked (``StateStore/checkAvailability()``) with capped, jittered backoff until it answers. The
/// backoff keeps growing across pauses until an input commits again, so a store that answers the check but still
/// fails commits is not hammered.
///
/// What happens to the inputs in hand depends on the mode. By default the session stops consuming, hands them back
/// (``Publication/handBack(_:to:)``), waits in ``waitForStore()`` and consumes again. In ordered mode they wait in
/// place instead (``waitInPlace(_:)``), still unacknowledged and in order, and the session keeps its consumers: a
/// copy at the back of a shard would let the notification's later events overtake it, and a cancelled consumer
/// would hand the shard to another worker while this one still holds its earlier events.
final class StorePause: Sendable {
    private struct State {
        var paused = false
        /// Checks made since the store last committed an input: the backoff's attempt.
        var attempts = 0
        /// Whether an input waiting in place is checking the store; the others only watch for the pause's end.
        var checking = false
        /// The inputs waiting in place while another one checks, woken when it stops checking (the pause ended,
        /// or it gave up), keyed so a cancelled one can be taken out.
        var watchers: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var nextWatcher: UInt64 = 0
        /// The reason the pause began with, logged then; a check that fails for it again does not repeat it.
        var reason = ""
    }

    private let state = Mutex(State())
    private let store: any StateStore
    private let backoff: Backoff
    private let readiness: Readiness
    private let metrics: WorkerMetrics
    private let logger: Logger
    private let inPlace: Bool

    /// A pause for `store`; `inPlace` (ordered mode) when inputs wait in place rather than go back to the queue.
    init(store: any StateStore, backoff: Backoff, readiness: Readiness, metrics: WorkerMetrics, logger: Logger, inPlace: Bool) {
        self.inPlace = inPlace
        self.store = store
        self.backoff = backoff
        self.readiness = readiness
        self.metrics = metrics
        self.logger = logger
        // From the start, so dashboards see the gauge before the first outage.
        metrics.storePaused.record(0)
    }

    /// Whether the worker is paused: it must not take inputs.
    var isPaused: Bool { state.withLock { $0.paused } }

    /// Records that an input met the unavailable store; returns true when this begins a pause, so the caller stops
    /// consuming. Inputs already in hand meet the store too; they change nothing.
    func storeFailed(_ unavailable: StateStoreUnavailable) -> Bool {
        let begins = state.withLock { state in
            defer { state.paused = true }
            guard !state.paused else { return false }
            state.reason = unavailable.reason
            return true
        }
        guard begins else { return false }
        metrics.storeOutages.increment()
        metrics.storePaused.record(1)
        readiness.set(.storeUnavailable, true)
        logger.warning(
            inPlace
                ? "the state store is unavailable: pausing; inputs in hand wait in place, in order"
                : "the state store is unavailable: pausing; inputs in hand go back to the queue, uncounted",
            metadata: ["reason": "\(unavailable.reason)"])
        return true
    }

    /// Records that an input committed: the store works, so the next pause starts its backoff afresh.
    func storeWorked() {
        state.withLock { $0.attempts = 0 }
    }

    /// Checks the store with backoff until it answers, then ends the pause. Throws `CancellationError` when the
    /// task is cancelled (the pause goes on).
    func waitForStore() async throws {
        while try await !checkAfterBackoff() {}
    }

    /// Ordered mode: records that the input in hand met the unavailable store (``storeFailed(_:)``), and returns
    /// once the store answers again, so the input can be handled again where it is. One waiting input at a time
    /// checks the store; the others watch for the end of the pause, and take over the checks if that one gives up.
    /// Throws `CancellationError` when the task is cancelled (the input is then left to the broker).
    func waitInPlace(_ unavailable: StateStoreUnavailable) async throws {
        _ = storeFailed(unavailable)
        while isPaused {
            let checks = state.withLock { state in
                defer { state.checking = true }
                return !state.checking
            }
            guard checks else {
                try await watch()
                continue
            }
            defer { stopChecking() }
            _ = try await checkAfterBackoff()
        }
    }

    /// Waits until the input checking the store stops: the pause ended, or that input gave up and another must
    /// take over. Returns at once when nobody checks. Throws `CancellationError` when the task is cancelled.
    private func watch() async throws {
        let id = state.withLock { state in
            defer { state.nextWatcher += 1 }
            return state.nextWatcher
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Under the lock that stopChecking() and the cancellation handler take, so no wake-up is missed:
                // the task's cancelled flag is set before its handler runs.
                let now: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    guard state.paused, state.checking else { return .success(()) }
                    state.watchers[id] = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            state.withLock { $0.watchers.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Ends the checking input's turn and wakes the watchers: they return when the pause has ended, and one of
    /// them checks next otherwise.
    private func stopChecking() {
        let watchers = state.withLock { state in
            state.checking = false
            defer { state.watchers.removeAll() }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.resume() }
    }

    /// Waits the backoff's next delay, then checks the store; true when it answered, which ends the pause.
    private func checkAfterBackoff() async throws -> Bool {
        var random = SystemRandomNumberGenerator()
        let attempt = state.withLock { state in
            defer { state.attempts += 1 }
            return state.attempts
        }
        try await Task.sleep(for: backoff.delay(attempt: attempt, using: &random))
        do {
            try await store.checkAvailability()
        } catch {
            let reason = (error as? StateStoreUnavailable)?.reason ?? "\(error)"
            let known = state.withLock { $0.reason == reason }
            logger.debug(
                "the state store is still unavailable",
                metadata: ["error": "\(known ? "as when the pause began" : reason)", "checks": "\(attempt + 1)"])
            return false
        }
        let ends = state.withLock { state in
            defer { state.paused = false }
            return state.paused
        }
        // Several sessions (or inputs) may see the store answer; the pause ends once.
        if ends {
            metrics.storePaused.record(0)
            readiness.set(.storeUnavailable, false)
            logger.info("the state store answers again: resuming")
        }
        return true
    }
}
