import Logging
import Responder
import ResponderIntake
import Synchronization

/// The worker's pause while something its inputs need is unavailable, through no fault of theirs (``Unavailability``),
/// shared by the broker sessions of one worker: its state store (``StateStoreUnavailable``: a full disk, an I/O
/// error, a lock held too long, a database server out of reach), or a dependency of its handlers
/// (``DependencyUnavailable``, thrown by one handler for several different events in a row).
///
/// The first input that meets the outage pauses the worker: `/health/ready` says 503 with a fixed sentence (not the
/// store's or the handler's words, which may name a user and a host: readiness answers anyone who can reach the
/// port), the outage's gauge is 1, and one warning with the reason is logged for the outage, not one per input or
/// per check. Then the worker probes with capped, jittered backoff until the outage ends. The backoff keeps growing
/// across pauses until an input is handled again while no handler's dependency is down, so a store that answers the
/// check but still fails commits, or a dependency that still fails, is not hammered.
///
/// A store is probed with ``StateStore/checkAvailability()``, and answering it ends the pause and the outage. A
/// dependency has no check the worker could make: after each backoff the pause ends and the next inputs are the
/// probe. While the dependency still fails they pause the worker again at once (the pipeline's streak stays at its
/// threshold until a call works), without another warning, and the outage (readiness, gauge) lasts until a call of
/// the failing handler works (`dependencyDown` turns false), or until no input has met it for twice the longest
/// delay between probes (at least a minute). Inputs of other handlers, and lifecycle events, handled
/// between the probes neither end it nor restart the backoff: with mixed traffic the outage would otherwise end and
/// begin again at every other input, each time with a warning and a backoff back at its start.
///
/// What happens to the inputs in hand depends on the mode. By default the session stops consuming, hands them back
/// (``ForwardedInput/handBack(_:to:)``), waits in ``waitUntilAvailable()`` and consumes again. In ordered mode they wait
/// in place instead (``waitInPlace(_:)``), still unacknowledged and in order, and the session keeps its consumers: a
/// copy at the back of a shard would let the notification's later events overtake it, and a cancelled consumer
/// would hand the shard to another worker while this one still holds its earlier events.
final class IntakePause: Sendable {
    private struct State {
        var paused = false
        /// What the current pause is for.
        var cause = Cause.store
        /// Whether a dependency outage goes on: from its first pause until an input is handled while no handler's
        /// dependency is down.
        var dependencyOutage = false
        /// Probes made since an input was last handled: the backoff's attempt.
        var attempts = 0
        /// Whether an input waiting in place is probing; the others only watch for the pause's end.
        var checking = false
        /// The inputs waiting in place while another one probes, woken when it stops probing (the pause ended,
        /// or it gave up), keyed so a cancelled one can be taken out.
        var watchers: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var nextWatcher: UInt64 = 0
        /// The reason the pause began with, logged then; a check that fails for it again does not repeat it.
        var reason = ""
        /// When an input last met a dependency's unavailability.
        var lastDependencyFailure: ContinuousClock.Instant?
    }

    private enum Cause {
        case store, dependency
    }

    private let state = Mutex(State())
    private let store: any StateStore
    private let backoff: Backoff
    private let readiness: Readiness
    private let metrics: WorkerMetrics
    private let logger: Logger
    private let inPlace: Bool
    private let dependencyDown: @Sendable () -> Bool
    private let now: @Sendable () -> ContinuousClock.Instant
    /// How long a dependency outage lasts with no input meeting it: twice the longest delay between probes, and at
    /// least a minute, so a slow trickle of the failing handler's inputs keeps it on. By then its inputs have stopped
    /// coming (its category went quiet, or other workers take them), and nothing is left that could end the outage,
    /// which would otherwise keep readiness at 503 for good.
    let quietOutage: Duration

    /// A pause for `store` and the handlers' dependencies; `inPlace` (ordered mode) when inputs wait in place rather
    /// than go back to the queue. `dependencyDown` says whether a handler's dependency is still taken to be down
    /// (``ResponsePipeline/isDependencyUnavailable``); `now` is the clock a quiet outage is timed by.
    init(
        store: any StateStore, backoff: Backoff, readiness: Readiness, metrics: WorkerMetrics, logger: Logger,
        inPlace: Bool, dependencyDown: @escaping @Sendable () -> Bool,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.inPlace = inPlace
        self.dependencyDown = dependencyDown
        self.now = now
        quietOutage = max(backoff.maximum * 2, .seconds(60))
        self.store = store
        self.backoff = backoff
        self.readiness = readiness
        self.metrics = metrics
        self.logger = logger
        // From the start, so dashboards see the gauges before the first outage.
        metrics.storePaused.record(0)
        metrics.dependencyPaused.record(0)
    }

    /// Whether the worker is paused: it must not take inputs.
    var isPaused: Bool { state.withLock { $0.paused } }

    /// Records that an input met `unavailability`; returns true when this begins a pause, so the caller stops
    /// consuming. Inputs already in hand meet it too; they change nothing.
    func unavailable(_ unavailability: Unavailability) -> Bool {
        let cause: Cause = if case .store = unavailability { .store } else { .dependency }
        let now = now()
        let (begins, newOutage) = state.withLock { state -> (Bool, Bool) in
            if cause == .dependency { state.lastDependencyFailure = now }
            guard !state.paused else { return (false, false) }
            state.paused = true
            state.cause = cause
            state.reason = unavailability.reason
            guard cause == .dependency else { return (true, true) }
            defer { state.dependencyOutage = true }
            return (true, !state.dependencyOutage)
        }
        guard begins else { return false }
        guard newOutage else {
            logger.debug("the handlers' dependency is still unavailable: pausing again", metadata: ["reason": "\(unavailability.reason)"])
            return true
        }
        let handling = inPlace
            ? "inputs in hand wait in place, in order" : "inputs in hand go back to the queue, uncounted"
        switch cause {
        case .store:
            metrics.storeOutages.increment()
            metrics.storePaused.record(1)
            readiness.set(.storeUnavailable, true)
            logger.warning("the state store is unavailable: pausing; \(handling)", metadata: ["reason": "\(unavailability.reason)"])
        case .dependency:
            metrics.dependencyOutages.increment()
            metrics.dependencyPaused.record(1)
            readiness.set(.dependencyUnavailable, true)
            logger.warning(
                "a dependency of the handlers is unavailable: pausing every input; \(handling)",
                metadata: ["reason": "\(unavailability.reason)"])
        }
        return true
    }

    /// Records that an input was handled: the store works, and unless a handler's dependency is still down (the input
    /// was another handler's, or a lifecycle event), so do the dependencies: a dependency outage ends and the next
    /// pause starts its backoff afresh. A dependency outage no input has met for a while (`quietOutage`) ends too.
    func inputWorked() {
        let down = dependencyDown()
        let now = now()
        let endsOutage = state.withLock { state -> Bool in
            let quiet = state.lastDependencyFailure.map { now - $0 >= quietOutage } ?? true
            guard !down || quiet else { return false }
            state.attempts = 0
            defer { state.dependencyOutage = false }
            return state.dependencyOutage
        }
        guard endsOutage else { return }
        metrics.dependencyPaused.record(0)
        readiness.set(.dependencyUnavailable, false)
        if down {
            logger.info("no input has met the handlers' dependency outage for \(quietOutage): ending it")
        } else {
            logger.info("the handlers' dependency answers again")
        }
    }

    /// Probes with backoff until the outage allows inputs again, then ends the pause. Throws `CancellationError`
    /// when the task is cancelled (the pause goes on).
    func waitUntilAvailable() async throws {
        while try await !checkAfterBackoff() {}
    }

    /// Ordered mode: records that the input in hand met `unavailability` (``unavailable(_:)``), and returns once
    /// the pause ends, so the input can be handled again where it is. One waiting input at a time probes; the others
    /// watch for the end of the pause, and take over the probes if that one gives up. Throws `CancellationError`
    /// when the task is cancelled (the input is then left to the broker).
    func waitInPlace(_ unavailability: Unavailability) async throws {
        _ = unavailable(unavailability)
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

    /// Waits until the input probing stops: the pause ended, or that input gave up and another must take over.
    /// Returns at once when nobody probes. Throws `CancellationError` when the task is cancelled.
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

    /// Ends the probing input's turn and wakes the watchers: they return when the pause has ended, and one of
    /// them probes next otherwise.
    private func stopChecking() {
        let watchers = state.withLock { state in
            state.checking = false
            defer { state.watchers.removeAll() }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.resume() }
    }

    /// Waits the backoff's next delay, then probes; true when the pause ended.
    private func checkAfterBackoff() async throws -> Bool {
        var random = SystemRandomNumberGenerator()
        let (attempt, cause) = state.withLock { state in
            defer { state.attempts += 1 }
            return (state.attempts, state.cause)
        }
        try await Task.sleep(for: backoff.delay(attempt: attempt, using: &random))
        if cause == .store {
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
        }
        let ends = state.withLock { state in
            defer { state.paused = false }
            return state.paused
        }
        // Several sessions (or inputs) may see the pause end; it ends once.
        guard ends else { return true }
        switch cause {
        case .store:
            metrics.storePaused.record(0)
            readiness.set(.storeUnavailable, false)
            logger.info("the state store answers again: resuming")
        case .dependency:
            logger.debug("trying the handlers' dependency again: resuming", metadata: ["probes": "\(attempt + 1)"])
        }
        return true
    }
}
