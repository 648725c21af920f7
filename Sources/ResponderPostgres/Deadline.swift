import Responder
import Synchronization

/// The answer of an operation on the server, or ``StateStoreUnavailable`` once a time limit passes without one,
/// without waiting for the operation to notice.
///
/// A task group cannot be this: leaving its body waits for every child, and postgres-nio has queries that never
/// end and ignore cancellation. postgres-nio's `query` writes its request with no write promise, so a connection
/// the server closed between the pool's lease and that write (an admin shutdown, 57P01, meets a burst of
/// concurrent commits) drops the request and its answer never comes. Waiting for such a query kept an input in
/// flight for ever: the session could not finish its inputs in hand and never checked the store again, so the
/// worker stayed paused after the server was back. Here the limit answers at once; the operation is cancelled and
/// left to end on its own (a stuck one holds only its dead connection's lease, which the pool has already
/// replaced).
final class Deadline<Answer: Sendable>: Sendable {
    private struct State {
        var waiting: CheckedContinuation<Answer, any Error>?
        var operation: Task<Void, Never>?
        var timer: Task<Void, Never>?
    }

    private let state = Mutex(State())

    private init() {}

    /// `body`'s answer, or ``StateStoreUnavailable`` after `limit`, or `CancellationError` when the calling task
    /// is cancelled first; `body` is cancelled in the latter two cases.
    static func answer(
        within limit: Duration, _ body: @escaping @Sendable () async throws -> Answer
    ) async throws -> Answer {
        let deadline = Deadline()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                deadline.start(continuation, limit: limit, body)
            }
        } onCancel: {
            deadline.finish(with: .failure(CancellationError()))
        }
    }

    private func start(
        _ continuation: CheckedContinuation<Answer, any Error>, limit: Duration,
        _ body: @escaping @Sendable () async throws -> Answer
    ) {
        state.withLock { $0.waiting = continuation }
        // A cancellation that came before the continuation was there found nothing to resume.
        guard !Task.isCancelled else {
            finish(with: .failure(CancellationError()))
            return
        }
        let operation = Task {
            do {
                self.finish(with: .success(try await body()))
            } catch {
                self.finish(with: .failure(error))
            }
        }
        let timer = Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            self.finish(with: .failure(StateStoreUnavailable(reason: "PostgreSQL: no answer within \(limit)")))
        }
        // The answer may have come already, before there were tasks to cancel.
        let answered = state.withLock { state in
            guard state.waiting != nil else { return true }
            state.operation = operation
            state.timer = timer
            return false
        }
        if answered { timer.cancel() }
    }

    /// Resumes the caller with the first answer (later ones are dropped) and cancels what is still running.
    private func finish(with result: Result<Answer, any Error>) {
        let (waiting, operation, timer) = state.withLock { state in
            defer { state = State() }
            return (state.waiting, state.operation, state.timer)
        }
        waiting?.resume(with: result)
        operation?.cancel()
        timer?.cancel()
    }
}
