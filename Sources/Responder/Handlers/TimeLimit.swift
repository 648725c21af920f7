import Synchronization

/// Runs `body` in a task of its own and waits for it at most until `deadline`: then `body`'s task is cancelled and
/// `timedOut` is thrown at once, whether or not `body` heeds the cancellation. A body that ignores it runs on,
/// counted in `abandoned` until it ends, and what it returns late is dropped: the caller never waits past its
/// deadline.
///
/// The deadline is kept by `deadlines`, one timer for all calls, rather than a sleeping task per call: a cancelled
/// sleep leaves its timer armed until it would have fired, which at thousands of calls a second is thousands of
/// timers per second of the limit.
func withTimeLimit<Value: Sendable>(
    _ limit: Duration, deadlines: HandlerDeadlines, abandoned: AbandonedCalls,
    timedOut: @escaping @Sendable () -> any Error, _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let race = TimeLimitRace<Value>(abandoned: abandoned)
    let work = Task {
        do {
            race.finish(.success(try await body()), byBody: true)
        } catch {
            race.finish(.failure(error), byBody: true)
        }
    }
    let deadline = deadlines.arm(ContinuousClock.now.advanced(by: limit)) {
        if race.finish(.failure(timedOut()), byBody: false) { work.cancel() }
    }
    defer { deadlines.disarm(deadline) }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { race.wait($0) }
    } onCancel: {
        work.cancel()
    }
}

/// The first of a body's result and its deadline, handed to the one caller waiting for it; a body the deadline cut
/// off is counted in `abandoned` until it ends.
private final class TimeLimitRace<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, any Error>?
        var waiting: CheckedContinuation<Value, any Error>?
        /// Whether the deadline settled the race while the body ran.
        var cutOff = false
    }

    private let state = Mutex(State())
    private let abandoned: AbandonedCalls

    init(abandoned: AbandonedCalls) {
        self.abandoned = abandoned
    }

    /// Settles the race with `result`, the body's (`byBody`) or the deadline's, unless it is settled; true when this
    /// settled it.
    @discardableResult
    func finish(_ result: Result<Value, any Error>, byBody: Bool) -> Bool {
        let (settled, waiting) = state.withLock { state -> (Bool, CheckedContinuation<Value, any Error>?) in
            // Counted under the race's lock, so a body that ends as its deadline comes is counted in and out in
            // that order, or not at all.
            if byBody, state.cutOff { abandoned.end() }
            guard state.result == nil else { return (false, nil) }
            if !byBody {
                // Unsettled, so the body still runs.
                state.cutOff = true
                abandoned.abandon()
            }
            state.result = result
            defer { state.waiting = nil }
            return (true, state.waiting)
        }
        waiting?.resume(with: result)
        return settled
    }

    /// Resumes `continuation` with the result, now if the race is settled, else once it is.
    func wait(_ continuation: CheckedContinuation<Value, any Error>) {
        let result = state.withLock { state in
            if state.result == nil { state.waiting = continuation }
            return state.result
        }
        if let result { continuation.resume(with: result) }
    }
}
