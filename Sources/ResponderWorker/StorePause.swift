import Logging
import Responder
import Synchronization

/// The worker's pause while its state store is unavailable (``StateStoreUnavailable``: a full disk, an I/O error, a
/// lock held too long, a database server out of reach), shared by the broker sessions of one worker.
///
/// The first input that meets the unavailable store pauses the worker: the session stops consuming and hands back
/// what it holds (``Publication/handBack(_:to:)``), `/health/ready` says 503 with the store's reason, the
/// `responder_store_paused` gauge is 1, and one warning is logged for the pause, not one per input. Then
/// ``waitForStore()`` checks the store (``StateStore/checkAvailability()``) with capped, jittered backoff, and the
/// worker consumes again once it answers. The backoff keeps growing across pauses until an input commits again, so
/// a store that answers the check but still fails commits is not hammered.
final class StorePause: Sendable {
    private struct State {
        var paused = false
        /// Checks made since the store last committed an input: the backoff's attempt.
        var attempts = 0
    }

    private let state = Mutex(State())
    private let store: any StateStore
    private let backoff: Backoff
    private let readiness: Readiness
    private let metrics: WorkerMetrics
    private let logger: Logger

    init(store: any StateStore, backoff: Backoff, readiness: Readiness, metrics: WorkerMetrics, logger: Logger) {
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
            return !state.paused
        }
        guard begins else { return false }
        metrics.storeOutages.increment()
        metrics.storePaused.record(1)
        readiness.set(.storeUnavailable, true, detail: unavailable.reason)
        logger.warning(
            "the state store is unavailable: pausing; inputs in hand go back to the queue, uncounted",
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
        var random = SystemRandomNumberGenerator()
        while true {
            let attempt = state.withLock { state in
                defer { state.attempts += 1 }
                return state.attempts
            }
            try await Task.sleep(for: backoff.delay(attempt: attempt, using: &random))
            do {
                try await store.checkAvailability()
                break
            } catch {
                logger.debug("the state store is still unavailable", metadata: ["error": "\(error)", "checks": "\(attempt + 1)"])
            }
        }
        state.withLock { $0.paused = false }
        metrics.storePaused.record(0)
        readiness.set(.storeUnavailable, false)
        logger.info("the state store answers again: resuming")
    }
}
